// What a viewer draws: every boid as four floats (x, y, vx, vy), in the backend's own order.
#pragma once

#include "kernels/rules.h"

namespace boids::kernels {

struct RenderBoid {
  float x, y, vx, vy;
};

template <typename Real>
struct ToRenderData {
  const Boid<Real>* boids;
  RenderBoid* out;

  BOIDS_HD void operator()(index_t i) const {
    const Boid<Real> b = boids[i];
    out[i] = {static_cast<float>(b.x), static_cast<float>(b.y), static_cast<float>(b.vx),
              static_cast<float>(b.vy)};
  }
};

}  // namespace boids::kernels
