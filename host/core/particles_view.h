// Particles (boids or predators, double, input order) copied into a caller's StateView: the
// one place their columns go into rows or arrays of the caller's.
#pragma once

#include <cstddef>

#include "host/core/state_view.h"
#include "host/model/flock.h"

namespace boids {

// Particle i's values go to x[i * stride], y[i * stride], ... (z and vz where both have them).
inline void copy_particles(const Particles& from, const StateView& out) {
  for (std::size_t i = 0; i < from.size(); ++i) {
    const std::size_t to = i * out.stride;
    out.x[to] = from.x[i];
    out.y[to] = from.y[i];
    out.vx[to] = from.vx[i];
    out.vy[to] = from.vy[i];
    if (out.z && from.dimensions == 3) {
      out.z[to] = from.z[i];
      out.vz[to] = from.vz[i];
    }
  }
}

}  // namespace boids
