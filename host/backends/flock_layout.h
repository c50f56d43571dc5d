// Conversions between the host's FlockState (double, input order) and the kernels' packed
// boids (Real, possibly reordered, with an id array mapping back to input order).
#pragma once

#include <vector>

#include "host/flock.h"
#include "kernels/rules.h"

namespace boids {

template <typename Real>
std::vector<kernels::Boid<Real>> pack_boids(const FlockState& state) {
  std::vector<kernels::Boid<Real>> boids(state.size());
  for (std::size_t i = 0; i < state.size(); ++i) {
    boids[i] = {static_cast<Real>(state.x[i]), static_cast<Real>(state.y[i]),
                static_cast<Real>(state.vx[i]), static_cast<Real>(state.vy[i])};
  }
  return boids;
}

// `ids[i]` is the input index of boids[i]; a null `ids` means input order.
template <typename Real>
FlockState unpack_boids(const kernels::Boid<Real>* boids, const kernels::index_t* ids,
                        std::size_t count) {
  FlockState state;
  state.resize(count);
  for (std::size_t i = 0; i < count; ++i) {
    const std::size_t to = ids ? ids[i] : i;
    state.x[to] = boids[i].x;
    state.y[to] = boids[i].y;
    state.vx[to] = boids[i].vx;
    state.vy[to] = boids[i].vy;
  }
  return state;
}

}  // namespace boids
