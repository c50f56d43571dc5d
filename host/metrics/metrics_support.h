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

// Squared distance from particle i of `a` to particle j of `b` (in a's dimensions): across the
// torus's edges, or plain between walls; the axes' squares added in order.
inline double distance_sq(const Particles& a, std::size_t i, const Particles& b, std::size_t j,
                          const World& world) {
  double dx = b.x[j] - a.x[i], dy = b.y[j] - a.y[i];
  if (world.torus()) {
    dx = wrap(dx, world.width);
    dy = wrap(dy, world.height);
  }
  if (a.dimensions == 2) return dx * dx + dy * dy;
  double dz = b.z[j] - a.z[i];
  if (world.torus()) dz = wrap(dz, world.depth);
  return dx * dx + dy * dy + dz * dz;
}

// The same between boids i and j of `s`.
inline double distance_sq(const FlockState& s, std::size_t i, std::size_t j, const World& world) {
  return distance_sq(s, i, s, j, world);
}

// A flock of open space as the host's metrics grid it: its positions moved so that its
// bounding box starts at the origin, in the walled box that holds them. Distances keep their
// values to the rounding of the move, so a bounded world's metrics are open space's.
struct BoxedFlock {
  FlockState state;
  World world;
};
BoxedFlock boxed(const FlockState& s);

// measure(flock, world) of `s` in `world`: as it is in a bounded world, boxed in open space.
template <typename Measure>
auto in_a_box(const FlockState& s, const World& world, Measure&& measure) {
  if (!world.open()) return measure(s, world);
  const BoxedFlock b = boxed(s);
  return measure(b.state, b.world);
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
