#include "viewer/recorder.h"

#include "viewer/screenshot.h"

#include <fcntl.h>
#include <glad/gl.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <csignal>
#include <cstdlib>
#include <cstring>
#include <iterator>
#include <sstream>
#include <vector>

#include "host/base/errors.h"

namespace boids::viewer {
namespace {

// Starts `args` (found on the PATH) reading its standard input from the pipe returned, in a
// process group of its own: a terminal's Ctrl-C reaches the viewer's group alone, and the
// viewer then ends the video whole (ffmpeg, reached too, stopped taking frames and left none).
FILE* spawn_apart(std::vector<std::string> args, pid_t& pid) {
  std::vector<char*> argv;
  for (std::string& a : args) argv.push_back(a.data());
  argv.push_back(nullptr);
  int ends[2];
  if (pipe2(ends, O_CLOEXEC) != 0) return nullptr;
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_adddup2(&actions, ends[0], STDIN_FILENO);
  posix_spawnattr_t attributes;
  posix_spawnattr_init(&attributes);
  posix_spawnattr_setflags(&attributes, POSIX_SPAWN_SETPGROUP);
  posix_spawnattr_setpgroup(&attributes, 0);
  const int failed = posix_spawnp(&pid, argv[0], &actions, &attributes, argv.data(), environ);
  posix_spawnattr_destroy(&attributes);
  posix_spawn_file_actions_destroy(&actions);
  close(ends[0]);
  if (failed != 0) {
    close(ends[1]);
    errno = failed;
    return nullptr;
  }
  return fdopen(ends[1], "w");
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
  std::istringstream command(
      "ffmpeg -nostdin -loglevel error -y -f rawvideo -pixel_format rgb24 -video_size " +
      std::to_string(width_) + "x" + std::to_string(height_) + " -framerate " +
      std::to_string(fps) +
      " -i - -vf vflip -c:v libx264 -preset veryfast -crf 20 -pix_fmt yuv420p -movflags "
      "+faststart -f mp4");
  std::vector<std::string> args{std::istream_iterator<std::string>(command), {}};
  args.push_back(path);  // a word whatever it holds
  pipe_ = spawn_apart(std::move(args), ffmpeg_);
  if (!pipe_) throw RuntimeError("--record: cannot start ffmpeg: " + std::string(strerror(errno)));
  frame_.assign(static_cast<std::size_t>(width_) * height_ * 3, 0);
}

Recorder::~Recorder() {
  if (pipe_) end();
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
    end();
    throw RuntimeError("--record: ffmpeg stopped taking frames after " + std::to_string(frames_));
  }
  ++frames_;
}

void Recorder::finish() {
  if (!pipe_) throw RuntimeError("--record: the recording was cut short");
  const int status = end();
  if (!WIFEXITED(status) || WEXITSTATUS(status) != 0) {
    throw RuntimeError("--record: ffmpeg failed (" +
                       (WIFEXITED(status) ? "exit status " + std::to_string(WEXITSTATUS(status))
                                          : "signal " + std::to_string(WTERMSIG(status))) +
                       ")");
  }
}

int Recorder::end() {
  std::fclose(pipe_);  // ffmpeg reads the end of its input, and ends the video
  pipe_ = nullptr;
  int status = 0;
  while (waitpid(ffmpeg_, &status, 0) < 0 && errno == EINTR) {
  }
  return status;
}

}  // namespace boids::viewer
