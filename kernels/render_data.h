// What a viewer draws of a 2D flock: every boid as four floats (x, y, vx, vy), in the backend's own
// order.
#pragma once

#include "kernels/rules.h"

namespace boids::kernels {

struct RenderBoid {
  float x, y, vx, vy;
};

template <typename Real>
struct ToRenderData {
  const Boid<Real, 2>* boids;
  RenderBoid* out;

  BOIDS_HD void operator()(index_t i) const {
    const Boid<Real, 2> b = boids[i];
    out[i] = {static_cast<float>(b.position[0]), static_cast<float>(b.position[1]),
              static_cast<float>(b.velocity[0]), static_cast<float>(b.velocity[1])};
  }
};

}  // namespace boids::kernels
