// Where the viewer draws. A window (GLFW, surface_window.cpp), with the pointer and the keys; or
// a framebuffer of its own in an OpenGL context with no display (EGL, surface_egl.cpp): the
// GPU's through its EGL device, where CUDA-OpenGL interop works as in a window, or Mesa's
// software one (surfaceless, llvmpipe) on a machine without one. The frame loop draws the same
// pictures into either, reads them back for --screenshot and --record, and asks the surface
// for the time, the size, the panel's frame and whether to stop.
#pragma once

#include <memory>
#include <string>

struct GLFWwindow;

namespace boids::viewer {

class Surface {
 public:
  virtual ~Surface() = default;

  // The pixels drawn into, and the pointer's coordinates' extent (a window's may differ from
  // its framebuffer's on a high-density display; offscreen, the same).
  virtual void framebuffer_size(int& width, int& height) const = 0;
  virtual void pointer_extent(int& width, int& height) const = 0;
  // Seconds since an arbitrary start.
  virtual double seconds() const = 0;
  // Input since the last frame (a window's events); whether the surface asks to stop (its
  // close button), and asking it to.
  virtual void poll() = 0;
  virtual bool closing() const = 0;
  virtual void close() = 0;
  // The frame drawn: shown (a window's buffers swapped), or finished (offscreen).
  virtual void present() = 0;

  // Dear ImGui's platform side: set up, a new frame (a window's input, or the size and time
  // alone), and shut down. Its OpenGL renderer is the same everywhere.
  virtual void start_panel() = 0;
  virtual void new_panel_frame() = 0;
  virtual void stop_panel() = 0;

  // How it draws, for the summary: "a window" or "offscreen: EGL device (NVIDIA)".
  virtual std::string describe() const = 0;
  // The window, where there is one (for its input callbacks); null offscreen.
  virtual GLFWwindow* window() const { return nullptr; }
};

// A window of 1280 x 800 with an OpenGL 4.3 core context, current, its functions loaded.
// Throws RuntimeError saying why there is none (no display).
std::unique_ptr<Surface> open_window(bool vsync);

// An OpenGL 4.3 core context with no display and a framebuffer of `width` x `height`, current,
// its functions loaded: the EGL device of the flock's CUDA device (the process's current one,
// 0), else another CUDA device's, else Mesa's surfaceless platform, else any other EGL device.
// Throws RuntimeError naming what was tried.
std::unique_ptr<Surface> open_offscreen(int width, int height);

}  // namespace boids::viewer
