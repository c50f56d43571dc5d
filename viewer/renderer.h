// Draws every boid as a small triangle pointing along its velocity: one instanced draw from
// one vertex buffer of 4 floats per boid (x, y, vx, vy), the layout of
// ViewerAccess::copy_render_data. Needs a current OpenGL 4.3 core context (glad loaded).
#pragma once

#include <cstdint>

#include "host/flock.h"

namespace boids::viewer {

enum class ColorMode { kHeading = 0, kSpeed = 1 };

struct View {
  double center_x = 0, center_y = 0;  // world point at the middle of the window
  double pixels_per_unit = 1;         // zoom
  int width = 1, height = 1;          // framebuffer, pixels
};

class Renderer {
 public:
  explicit Renderer(std::uint64_t count);
  ~Renderer();
  Renderer(const Renderer&) = delete;
  Renderer& operator=(const Renderer&) = delete;

  unsigned int buffer() const { return vbo_; }  // the OpenGL buffer object, for interop
  void upload(const float* data);               // 4 * count floats from the host

  void draw(const View& view, const World& world, double max_speed, ColorMode mode,
            float boid_pixels);

 private:
  std::uint64_t count_;
  unsigned int program_ = 0, vao_ = 0, vbo_ = 0;
  int u_center_ = -1, u_world_ = -1, u_wrap_ = -1, u_scale_ = -1, u_pixel_ = -1, u_size_ = -1,
      u_mode_ = -1, u_max_speed_ = -1;
};

}  // namespace boids::viewer
