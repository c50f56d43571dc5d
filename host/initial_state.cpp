#include "host/initial_state.h"

#include <cmath>

namespace boids {
namespace {

std::uint64_t mix64(std::uint64_t z) {
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
  return z ^ (z >> 31);
}

// A position uniform in [0, L); u * L can round up to L, which the torus calls 0.
double random_position(std::uint64_t seed, std::uint64_t boid, std::uint64_t draw, double world) {
  const double position = random_unit(seed, boid, draw) * world;
  return position < world ? position : 0.0;
}

}  // namespace

std::uint64_t random_bits(std::uint64_t seed, std::uint64_t boid, std::uint64_t draw) {
  const std::uint64_t key = mix64(seed ^ 0x9e3779b97f4a7c15ULL);
  return mix64(key + mix64((boid << 32 | (draw & 0xffffffffULL)) ^ (boid >> 32)));
}

double random_unit(std::uint64_t seed, std::uint64_t boid, std::uint64_t draw) {
  return static_cast<double>(random_bits(seed, boid, draw) >> 11) * 0x1.0p-53;
}

FlockState make_initial_state(std::uint64_t count, std::uint64_t seed, const FlockParams& params) {
  FlockState state;
  state.resize(count);
  const auto n = static_cast<std::int64_t>(count);
#pragma omp parallel for schedule(static)
  for (std::int64_t i = 0; i < n; ++i) {
    const auto boid = static_cast<std::uint64_t>(i);
    state.x[i] = random_position(seed, boid, 0, params.world);
    state.y[i] = random_position(seed, boid, 1, params.world);
    // A heading without trigonometry: a point uniform in the unit disc, scaled to v_max.
    // Each try is accepted with probability pi/4; the draw counter keeps it per boid.
    for (std::uint64_t draw = 2;; draw += 2) {
      const double a = 2.0 * random_unit(seed, boid, draw) - 1.0;
      const double b = 2.0 * random_unit(seed, boid, draw + 1) - 1.0;
      const double s = a * a + b * b;
      if (s > 1.0 || s < 1e-12) continue;
      const double length = std::sqrt(s);
      state.vx[i] = a / length * params.max_speed;
      state.vy[i] = b / length * params.max_speed;
      break;
    }
  }
  return state;
}

}  // namespace boids
