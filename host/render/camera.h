// The 3D view: a perspective camera that orbits a point of the box, pans and zooms. Matrices
// are column-major, as OpenGL reads them.
#pragma once

#include <array>

#include "host/model/flock.h"

namespace boids::render {

using Matrix = std::array<float, 16>;

struct Camera {
  double target[3] = {0, 0, 0};        // the point it orbits, in world coordinates
  double yaw = 0.6;                    // about the z axis, radians
  double pitch = 0.45;                 // above the xy plane, radians
  double distance = 1;                 // from the target
  double fov_y = 0.8;                  // vertical field of view, radians
  double scene_centre[3] = {0, 0, 0};  // fit_box's box, which the planes enclose,
  double scene_half = 0;               // half its diagonal; 0: the world's box

  // Frames the whole box from a three-quarter view.
  void fit(const World& world);
  // Frames the box from `low` to `high` so (open space: the flock's bounds), which the near and
  // far planes then enclose in place of the world's.
  void fit_box(const double (&low)[3], const double (&high)[3]);
  // Turns about the target by a drag of (dx, dy) pixels.
  void orbit(double dx, double dy);
  // Moves the target across the view by a drag of (dx, dy) pixels in a viewport `height` high.
  void pan(double dx, double dy, int height);
  // Moves closer (steps > 0) or farther, by 1.2 a step.
  void zoom(double steps);

  void eye(double (&out)[3]) const;
  // Projection times view, for a viewport of this aspect ratio; near and far planes enclose
  // the box from wherever the camera is.
  Matrix view_projection(double aspect, const World& world) const;
};

}  // namespace boids::render
