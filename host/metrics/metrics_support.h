// What the host's metrics share in two and three dimensions (metrics.cpp, metrics_3d.cpp):
// distances across the torus's edges, and union-find roots.
#pragma once

#include <cstddef>
#include <vector>

#include "host/model/flock.h"

namespace boids {

inline double wrap(double d, double side) {
  const double half = side / 2;
  if (d > half) return d - side;
  if (d < -half) return d + side;
  return d;
}

// Squared distance between boids i and j of `s` (in its dimensions): across the torus's edges,
// or plain between walls; the axes' squares added in order.
inline double distance_sq(const FlockState& s, std::size_t i, std::size_t j, const World& world) {
  double dx = s.x[j] - s.x[i], dy = s.y[j] - s.y[i];
  if (world.torus()) {
    dx = wrap(dx, world.width);
    dy = wrap(dy, world.height);
  }
  if (s.dimensions == 2) return dx * dx + dy * dy;
  double dz = s.z[j] - s.z[i];
  if (world.torus()) dz = wrap(dz, world.depth);
  return dx * dx + dy * dy + dz * dz;
}

// Union-find roots with path halving.
inline std::size_t find_root(std::vector<std::size_t>& parent, std::size_t i) {
  while (parent[i] != i) {
    parent[i] = parent[parent[i]];
    i = parent[i];
  }
  return i;
}

}  // namespace boids
