// A flock's values in the caller's memory: separate arrays, or rows of an (N, 4) or (N, 6)
// array.
#pragma once

#include <cstddef>

#include "host/model/flock.h"

namespace boids {

// Four arrays of doubles, boid i's values at x[i * stride], y[i * stride], vx[...], vy[...];
// six in three dimensions, with z and vz (null in two).
struct StateView {
  double* x = nullptr;
  double* y = nullptr;
  double* vx = nullptr;
  double* vy = nullptr;
  std::size_t stride = 1;
  double* z = nullptr;
  double* vz = nullptr;

  static StateView of(FlockState& state) {
    StateView view{state.x.data(), state.y.data(), state.vx.data(), state.vy.data(), 1};
    if (state.dimensions == 3) {
      view.z = state.z.data();
      view.vz = state.vz.data();
    }
    return view;
  }
  // Rows of four, x, y, vx, vy (a C-ordered (N, 4) array); in three dimensions rows of six,
  // x, y, z, vx, vy, vz ((N, 6)).
  static StateView rows(double* data, int dimensions = 2) {
    if (dimensions == 3) return {data, data + 1, data + 3, data + 4, 6, data + 2, data + 5};
    return {data, data + 1, data + 2, data + 3, 4};
  }
};

}  // namespace boids
