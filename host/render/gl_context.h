// An OpenGL 4.3 core context with no display, made through EGL with no surface at all
// (EGL_KHR_surfaceless_context): the GPU's, through its EGL device (the NVIDIA EGL vendor
// library), where CUDA-OpenGL interop works as in a window; on a machine without one, Mesa's
// surfaceless platform (llvmpipe). The viewer's --offscreen draws in one, and so does `boids
// serve` for its pictures; each draws into a framebuffer of its own.
#pragma once

#include <string>

namespace boids::render {

class OffscreenContext {
 public:
  // Current on the calling thread, its functions loaded (glad): the EGL device of the flock's
  // CUDA device (the process's current one, 0), else another CUDA device's, else Mesa's
  // surfaceless platform, else any other EGL device. Throws RuntimeError naming what was tried.
  OffscreenContext();
  ~OffscreenContext();
  OffscreenContext(const OffscreenContext&) = delete;
  OffscreenContext& operator=(const OffscreenContext&) = delete;

  // Where it draws: "EGL device 0 (NVIDIA)", "Mesa's surfaceless platform (Mesa Project)".
  const std::string& source() const { return source_; }
  // Whether it is a GPU's (a CUDA device's EGL device), not a software renderer.
  bool on_gpu() const { return on_gpu_; }

 private:
  void close();

  void* display_ = nullptr;
  void* context_ = nullptr;
  std::string source_;
  bool on_gpu_ = false;
};

// A framebuffer of colour (RGBA8) and depth, bound as the one drawn into while it lives.
class Framebuffer {
 public:
  Framebuffer(int width, int height);  // throws RuntimeError if the driver cannot make it
  ~Framebuffer();
  Framebuffer(const Framebuffer&) = delete;
  Framebuffer& operator=(const Framebuffer&) = delete;

  int width() const { return width_; }
  int height() const { return height_; }

 private:
  void release();

  int width_, height_;
  unsigned int framebuffer_ = 0, renderbuffers_[2] = {0, 0};
};

}  // namespace boids::render
