#include "viewer/recorder.h"

#include "viewer/screenshot.h"

#include <glad/gl.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <csignal>
#include <cstdlib>
#include <cstring>
#include <sstream>

#include "host/base/errors.h"

namespace boids::viewer {
namespace {

// `text` as one word of a POSIX shell command.
std::string shell_word(const std::string& text) {
  std::string out = "'";
  for (const char c : text) out += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return out + "'";
}

}  // namespace

bool ffmpeg_available() {
  const char* path = std::getenv("PATH");
  std::istringstream dirs(path ? path : "");
  std::string dir;
  while (std::getline(dirs, dir, ':')) {
    if (!dir.empty() && access((dir + "/ffmpeg").c_str(), X_OK) == 0) return true;
  }
  return false;
}

Recorder::Recorder(const std::string& path, int width, int height, int fps)
    : width_(std::max(2, width & ~1)), height_(std::max(2, height & ~1)) {
  // A write to an ffmpeg that has stopped must fail as an error, not end the viewer.
  std::signal(SIGPIPE, SIG_IGN);
  const std::string command =
      "ffmpeg -nostdin -loglevel error -y -f rawvideo -pixel_format rgb24 -video_size " +
      std::to_string(width_) + "x" + std::to_string(height_) + " -framerate " +
      std::to_string(fps) +
      " -i - -vf vflip -c:v libx264 -preset veryfast -crf 20 -pix_fmt yuv420p -movflags +faststart"
      " -f mp4 " +
      shell_word(path);
  pipe_ = popen(command.c_str(), "w");
  if (!pipe_) throw RuntimeError("--record: cannot start ffmpeg: " + std::string(strerror(errno)));
  frame_.assign(static_cast<std::size_t>(width_) * height_ * 3, 0);
}

Recorder::~Recorder() {
  if (pipe_) pclose(pipe_);
}

void Recorder::add_frame(int width, int height) {
  if (!pipe_) return;
  const int w = std::min(width, width_), h = std::min(height, height_);
  const std::size_t row = static_cast<std::size_t>(width_) * 3;
  if (w != width_ || h != height_) std::fill(frame_.begin(), frame_.end(), 0);
  read_.resize(static_cast<std::size_t>(w) * h * 3);
  glPixelStorei(GL_PACK_ALIGNMENT, 1);
  glReadBuffer(drawn_buffer());
  glReadPixels(0, 0, w, h, GL_RGB, GL_UNSIGNED_BYTE, read_.data());
  for (int y = 0; y < h; ++y) {  // bottom to top, as OpenGL reads (ffmpeg flips them)
    std::memcpy(frame_.data() + static_cast<std::size_t>(y) * row,
                read_.data() + static_cast<std::size_t>(y) * w * 3,
                static_cast<std::size_t>(w) * 3);
  }
  if (std::fwrite(frame_.data(), 1, frame_.size(), pipe_) != frame_.size()) {
    pclose(pipe_);
    pipe_ = nullptr;
    throw RuntimeError("--record: ffmpeg stopped taking frames after " + std::to_string(frames_));
  }
  ++frames_;
}

void Recorder::finish() {
  if (!pipe_) throw RuntimeError("--record: the recording was cut short");
  const int status = pclose(pipe_);
  pipe_ = nullptr;
  if (status != 0) {
    throw RuntimeError("--record: ffmpeg failed (exit status " + std::to_string(status) + ")");
  }
}

}  // namespace boids::viewer
