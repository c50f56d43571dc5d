// Draws every boid: in 2D a small triangle pointing along its velocity; in 3D a lit pyramid
// along it, in perspective, inside the box's edges. One instanced draw from one vertex buffer
// of the render data (ViewerAccess::copy_render_data: x, y, vx, vy per boid, or x, y, z, vx,
// vy, vz). Needs a current OpenGL 4.3 core context (glad loaded).
#pragma once

#include <cstdint>
#include <memory>

#include "host/model/flock.h"
#include "host/render/camera.h"
#include "host/render/colouring.h"
#include "host/render/density.h"

namespace boids::render {

// How draw paints the boids: by their heading or speed (a flock's Colouring of those names), or
// white, which no boid takes (their colours are saturated), for the predators. A flock
// coloured by its density is drawn by draw_density.
enum class Paint { kHeading = 0, kSpeed = 1, kWhite = 2 };

// The paint of the flock's `colouring`: heading or speed (throws std::invalid_argument for the
// others, which are not drawn boid by boid here).
Paint paint_of(Colouring colouring);

struct View {
  double center_x = 0, center_y = 0;  // world point at the middle of the view (2D)
  double pixels_per_unit = 1;         // zoom (2D)
  int width = 1, height = 1;          // the view's area of the framebuffer, pixels
  int left = 0;                       // where it starts: beside a panel to its left
};

class Renderer {
 public:
  Renderer(std::uint64_t count, int dimensions);
  ~Renderer();
  Renderer(const Renderer&) = delete;
  Renderer& operator=(const Renderer&) = delete;

  unsigned int buffer() const { return vbo_; }  // the OpenGL buffer object, for interop
  std::uint64_t floats_per_boid() const { return 2 * static_cast<std::uint64_t>(dimensions_); }
  // floats_per_boid() * count floats from the host; throws RuntimeError if OpenGL refuses them.
  void upload(const float* data);

  // A 2D flock, each boid `boid_pixels` long.
  void draw(const View& view, const World& world, const SpeedSpan& speeds, Paint paint,
            float boid_pixels);
  // A 3D flock seen by `camera`, each boid `boid_length` world units long (renderer_3d.cpp).
  void draw_3d(const View& view, const Camera& camera, const World& world, const SpeedSpan& speeds,
               Paint paint, float boid_length);
  // The flock as a picture of its density (host/render/density.h) as `projection` sees it,
  // kept for reading back or showing; its memory stays for the next.
  const DensityPicture& draw_density(const Projection& projection, int width, int height);

 private:
  void create_3d_programs();  // renderer_3d.cpp
  void destroy();             // its OpenGL objects

  std::unique_ptr<DensityPicture> density_;
  std::uint64_t count_;
  int dimensions_;
  unsigned int program_ = 0, vao_ = 0, vbo_ = 0;
  int u_center_ = -1, u_world_ = -1, u_wrap_ = -1, u_scale_ = -1, u_pixel_ = -1, u_size_ = -1,
      u_mode_ = -1, u_speed_span_ = -1;
  // 3D: the boids' program uses u_view_proj_, u_eye_, u_size_, u_mode_, u_speed_span_; the
  // box's edges have their own program and an empty vertex array.
  unsigned int box_program_ = 0, box_vao_ = 0;
  int u_view_proj_ = -1, u_eye_ = -1, u_box_view_proj_ = -1, u_box_world_ = -1;
};

// What the screen's view sees: the 2D view (each boid at its image nearest the view's centre on
// a torus), or `camera`'s in 3D.
Projection projection_2d(const View& view, const World& world);
Projection projection_3d(const View& view, const Camera& camera, const World& world);

}  // namespace boids::render
