// What a viewer draws: every boid as 2D floats, its position then its velocity (x, y, vx, vy in
// 2D; x, y, z, vx, vy, vz in 3D), in the backend's own order.
#pragma once

#include "kernels/rules.h"

namespace boids::kernels {

template <typename Real, int D>
struct ToRenderData {
  const Boid<Real, D>* boids;
  float* out;

  BOIDS_HD void operator()(index_t i) const {
    const Boid<Real, D> b = boids[i];
    float* o = out + std::size_t{2 * D} * i;
    for (int a = 0; a < D; ++a) {
      o[a] = static_cast<float>(b.position[a]);
      o[D + a] = static_cast<float>(b.velocity[a]);
    }
  }
};

}  // namespace boids::kernels
