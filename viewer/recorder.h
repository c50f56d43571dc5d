// --record FILE.mp4: what the viewer draws, frame by frame, piped to ffmpeg as raw RGB and
// encoded as H.264 (yuv420p, which every player plays) at a fixed frame rate. ffmpeg writes
// the output's temporary file, which the run puts in place with its other outputs once the
// video is whole: a failed recording leaves nothing behind. ffmpeg runs in a process group of
// its own, so that a terminal's Ctrl-C stops the viewer alone, which ends the video whole.
#pragma once

#include <sys/types.h>

#include <cstdint>
#include <cstdio>
#include <string>
#include <vector>

namespace boids::viewer {

// Whether an `ffmpeg` executable is on the PATH.
bool ffmpeg_available();

class Recorder {
 public:
  // Starts ffmpeg writing `path` for frames of width x height pixels (rounded down to even
  // sizes, as 4:2:0 video needs), `fps` frames a second.
  Recorder(const std::string& path, int width, int height, int fps);
  ~Recorder();  // stops ffmpeg if finish() was not reached
  Recorder(const Recorder&) = delete;
  Recorder& operator=(const Recorder&) = delete;

  // Reads the frame just drawn (the back buffer, `width` x `height` now) and sends it; a
  // window that changed size is cut or padded with black to the video's size.
  void add_frame(int width, int height);
  // Ends the video and waits for ffmpeg. Throws RuntimeError if it failed.
  void finish();

  std::uint64_t frames() const { return frames_; }

 private:
  int end();  // closes ffmpeg's input and waits: its wait status

  FILE* pipe_ = nullptr;
  pid_t ffmpeg_ = -1;
  int width_, height_;
  std::vector<unsigned char> frame_, read_;
  std::uint64_t frames_ = 0;
};

}  // namespace boids::viewer
