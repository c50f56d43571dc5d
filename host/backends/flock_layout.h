// Conversions between the host's types and the kernels': FlockParams to the step's constants,
// and FlockState (double, input order) to packed boids (Real, possibly reordered, with an id
// array mapping back to input order). States move a stretch of boids at a time, so that a
// device flock passes through a bounded host buffer.
#pragma once

#include <cstddef>

#include "host/flock.h"
#include "kernels/rules.h"

namespace boids {

// The step's constants for `params`: the one place FlockParams becomes StepParams.
template <typename Real>
kernels::StepParams<Real> step_params_of(const FlockParams& params) {
  return kernels::make_step_params<Real>(params.radius, params.separation, params.alignment,
                                         params.cohesion, params.max_speed, params.world);
}

// Boids [first, first + count) of `state`, packed into `out`.
template <typename Real>
void pack_boids(const FlockState& state, std::size_t first, std::size_t count,
                kernels::Boid<Real>* out) {
  for (std::size_t k = 0; k < count; ++k) {
    const std::size_t i = first + k;
    out[k] = {static_cast<Real>(state.x[i]), static_cast<Real>(state.y[i]),
              static_cast<Real>(state.vx[i]), static_cast<Real>(state.vy[i])};
  }
}

// Stores `count` packed boids, which sit at positions [first, first + count) of the backend's
// order, into `state` in input order: boids[k] is boid ids[k], or boid first + k when `ids` is
// null (a backend that keeps input order).
template <typename Real>
void unpack_boids(const kernels::Boid<Real>* boids, const kernels::index_t* ids, std::size_t first,
                  std::size_t count, FlockState& state) {
  for (std::size_t k = 0; k < count; ++k) {
    const std::size_t to = ids ? ids[k] : first + k;
    state.x[to] = boids[k].x;
    state.y[to] = boids[k].y;
    state.vx[to] = boids[k].vx;
    state.vy[to] = boids[k].vy;
  }
}

}  // namespace boids
