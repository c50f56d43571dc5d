// A flock as the host sees it: parameters of the model and the state of every boid, in
// double precision and in input order. Backends keep their own copies in their own layout.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

namespace boids {

// The model's parameters; the defaults are the seed example's.
struct FlockParams {
  double radius = 10.0;     // perception radius r
  double separation = 1.5;  // weight of the separation rule
  double alignment = 1.0;   // weight of the alignment rule
  double cohesion = 1.0;    // weight of the cohesion rule
  double max_speed = 1.0;   // v_max; speeds are kept in [v_max / 2, v_max]
  double world = 100.0;     // side L of the square torus
};

// Positions in [0, L) and velocities, one entry per boid (structure of arrays, as the seed).
struct FlockState {
  std::vector<double> x, y, vx, vy;

  std::size_t size() const { return x.size(); }
  void resize(std::size_t count) {
    x.resize(count);
    y.resize(count);
    vx.resize(count);
    vy.resize(count);
  }
};

// Largest flock the engine accepts: indices are 32-bit on every backend.
inline constexpr std::uint64_t kMaxBoids = 2147483647;

}  // namespace boids
