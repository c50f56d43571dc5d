#include "host/initial_state.h"

#include <cmath>
#include <string>

#include "host/errors.h"

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

namespace {

bool inside_an_obstacle(double x, double y, const FlockParams& params) {
  for (const Obstacle& o : params.obstacles) {
    double dx = x - o.x, dy = y - o.y;
    if (params.world.torus()) {
      dx -= params.world.width * std::round(dx / params.world.width);
      dy -= params.world.height * std::round(dy / params.world.height);
    }
    if (dx * dx + dy * dy < o.radius * o.radius) return true;
  }
  return false;
}

// The same for a sphere's inside, in three dimensions.
bool inside_a_sphere(double x, double y, double z, const FlockParams& params) {
  const World& w = params.world;
  for (const Obstacle& o : params.obstacles) {
    double dx = x - o.x, dy = y - o.y, dz = z - o.z;
    if (w.torus()) {
      dx -= w.width * std::round(dx / w.width);
      dy -= w.height * std::round(dy / w.height);
      dz -= w.depth * std::round(dz / w.depth);
    }
    if (dx * dx + dy * dy + dz * dz < o.radius * o.radius) return true;
  }
  return false;
}

// Draws of a position redrawn because it fell inside an obstacle: far from the heading's.
constexpr std::uint64_t kRedraw = 0x80000000ULL;
constexpr std::uint64_t kRedraws = 100000;

[[noreturn]] void throw_crowded() {
  throw InputError("the obstacles leave almost no room: a boid found no free place in " +
                   std::to_string(kRedraws) + " tries");
}

}  // namespace

namespace {

// A start in the box (docs/3d.md): positions from draws 0, 1 and 2; a heading uniform on the
// sphere without trigonometry, a point uniform in the unit ball (accepted with probability
// pi/6 a try, three draws each), scaled to v_max.
FlockState make_initial_state_3d(std::uint64_t count, std::uint64_t seed, const FlockParams& p) {
  FlockState state;
  state.dimensions = 3;
  state.resize(count);
  const auto n = static_cast<std::int64_t>(count);
  bool crowded = false;
#pragma omp parallel for schedule(static)
  for (std::int64_t i = 0; i < n; ++i) {
    const auto boid = static_cast<std::uint64_t>(i);
    double x = random_position(seed, boid, 0, p.world.width);
    double y = random_position(seed, boid, 1, p.world.height);
    double z = random_position(seed, boid, 2, p.world.depth);
    for (std::uint64_t k = 0; inside_a_sphere(x, y, z, p); ++k) {
      if (k == kRedraws) {
        crowded = true;
        break;
      }
      x = random_position(seed, boid, kRedraw + 3 * k, p.world.width);
      y = random_position(seed, boid, kRedraw + 3 * k + 1, p.world.height);
      z = random_position(seed, boid, kRedraw + 3 * k + 2, p.world.depth);
    }
    state.x[i] = x;
    state.y[i] = y;
    state.z[i] = z;
    for (std::uint64_t draw = 3;; draw += 3) {
      const double a = 2.0 * random_unit(seed, boid, draw) - 1.0;
      const double b = 2.0 * random_unit(seed, boid, draw + 1) - 1.0;
      const double c = 2.0 * random_unit(seed, boid, draw + 2) - 1.0;
      const double s = a * a + b * b + c * c;
      if (s > 1.0 || s < 1e-12) continue;
      const double length = std::sqrt(s);
      state.vx[i] = a / length * p.max_speed;
      state.vy[i] = b / length * p.max_speed;
      state.vz[i] = c / length * p.max_speed;
      break;
    }
  }
  if (crowded) throw_crowded();
  return state;
}

}  // namespace

FlockState make_initial_state(std::uint64_t count, std::uint64_t seed, const FlockParams& params) {
  if (params.dimensions == 3) return make_initial_state_3d(count, seed, params);
  FlockState state;
  state.resize(count);
  const auto n = static_cast<std::int64_t>(count);
  bool crowded = false;
#pragma omp parallel for schedule(static)
  for (std::int64_t i = 0; i < n; ++i) {
    const auto boid = static_cast<std::uint64_t>(i);
    double x = random_position(seed, boid, 0, params.world.width);
    double y = random_position(seed, boid, 1, params.world.height);
    for (std::uint64_t k = 0; inside_an_obstacle(x, y, params); ++k) {
      if (k == kRedraws) {
        crowded = true;
        break;
      }
      x = random_position(seed, boid, kRedraw + 2 * k, params.world.width);
      y = random_position(seed, boid, kRedraw + 2 * k + 1, params.world.height);
    }
    state.x[i] = x;
    state.y[i] = y;
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
  if (crowded) throw_crowded();
  return state;
}

void check_start_dimensions(int dimensions, const FlockParams& params) {
  if (dimensions == params.dimensions) return;
  throw InputError(dimensions == 3
                       ? "its boids fly in three dimensions (x,y,z,vx,vy,vz): give --dimensions 3"
                       : "its boids fly in two dimensions (x,y,vx,vy); --dimensions 3 needs "
                         "x,y,z,vx,vy,vz");
}

void check_start(const FlockState& state, const FlockParams& params) {
  check_start_dimensions(state.dimensions, params);
  for (std::size_t i = 0; i < state.size(); ++i) {
    if (!(state.x[i] >= 0 && state.x[i] < params.world.width && state.y[i] >= 0 &&
          state.y[i] < params.world.height &&
          (state.dimensions == 2 || (state.z[i] >= 0 && state.z[i] < params.world.depth)))) {
      throw InputError("boid " + std::to_string(i) + " is outside the world");
    }
    if (state.dimensions == 3 ? inside_a_sphere(state.x[i], state.y[i], state.z[i], params)
                              : inside_an_obstacle(state.x[i], state.y[i], params)) {
      throw InputError("boid " + std::to_string(i) + " starts inside an obstacle");
    }
    if (params.model == Model::kVicsek) {
      const double speed = state.dimensions == 3
                               ? std::sqrt(state.vx[i] * state.vx[i] + state.vy[i] * state.vy[i] +
                                           state.vz[i] * state.vz[i])
                               : std::hypot(state.vx[i], state.vy[i]);
      if (!(std::abs(speed - params.max_speed) <= 1e-9 * params.max_speed)) {
        throw InputError("boid " + std::to_string(i) + " moves at speed " + std::to_string(speed) +
                         ": the Vicsek model's particles all move at " + "--speed " +
                         std::to_string(params.max_speed));
      }
    }
  }
}

}  // namespace boids
