#include "host/model/initial_state.h"

#include <algorithm>
#include <atomic>
#include <cmath>
#include <string>
#include <vector>

#include "host/base/errors.h"
#include "host/base/interruption.h"
#include "host/base/message_text.h"
#include "host/model/obstacle_index.h"

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

// Draws of a position redrawn because it fell inside an obstacle: far from the heading's.
constexpr std::uint64_t kRedraw = 0x80000000ULL;

}  // namespace

// Boid i's start in D dimensions: its position from draws 0 .. D - 1 (redrawn from 2^31 + D k
// while it falls inside an obstacle); its heading without trigonometry, a point uniform in the
// unit disc (ball), from draws D, D + 1, ... in tries of D (each accepted with probability
// pi/4 in 2D, pi/6 in 3D), scaled to v_max (docs/3d.md).
FlockState make_initial_state(std::uint64_t count, std::uint64_t seed, const FlockParams& params) {
  FlockState state = make_initial_boids(0, count, seed, params);
  state.predators = make_initial_predators(seed, params);
  return state;
}

// The boids' draws under a key of their own (the seed's salted by "predator"), at the
// predators' top speed.
Particles make_initial_predators(std::uint64_t seed, const FlockParams& params) {
  if (params.predators <= 0) return {};
  FlockParams hunters = params;
  hunters.max_speed = params.effective_predator_speed();
  hunters.predators = 0;
  FlockState drawn = make_initial_boids(0, static_cast<std::uint64_t>(params.predators),
                                        seed ^ 0x7072656461746f72ULL, hunters);
  return static_cast<Particles&&>(drawn);
}

FlockState make_initial_boids(std::uint64_t first, std::uint64_t count, std::uint64_t seed,
                              const FlockParams& params) {
  const int D = params.dimensions;
  if (D != 2 && D != 3) {
    throw InputError("a flock flies in 2 or 3 dimensions, not " + std::to_string(D));
  }
  const ObstacleIndex obstacles(params);
  if (obstacles.covers_world()) {
    throw InputError("the obstacles cover the whole world: no boid has room to start");
  }
  FlockState state;
  state.dimensions = D;
  state.resize(count);
  std::vector<double>* const positions[3] = {&state.x, &state.y, &state.z};
  std::vector<double>* const velocities[3] = {&state.vx, &state.vy, &state.vz};
  const double side[3] = {params.world.width, params.world.height, params.world.depth};
  const auto n = static_cast<std::int64_t>(count);
  // Once a boid has found no place, the others stop looking: the start is refused.
  std::atomic<bool> crowded{false};
  // A start of billions of boids takes a while: a stop asked for meanwhile ends it.
  std::atomic<bool> stopped{false};
#pragma omp parallel for schedule(static)
  for (std::int64_t i = 0; i < n; ++i) {
    if (i % 65536 == 0 && stop_requested()) stopped.store(true, std::memory_order_relaxed);
    if (stopped.load(std::memory_order_relaxed)) continue;
    const std::uint64_t boid = first + static_cast<std::uint64_t>(i);
    double position[3] = {0, 0, 0};
    for (int a = 0; a < D; ++a) position[a] = random_position(seed, boid, a, side[a]);
    for (std::uint64_t k = 0; obstacles.holds(position); ++k) {
      if (k == kStartRedraws || crowded.load(std::memory_order_relaxed)) {
        crowded.store(true, std::memory_order_relaxed);
        break;
      }
      for (int a = 0; a < D; ++a) {
        position[a] = random_position(seed, boid, kRedraw + D * k + a, side[a]);
      }
    }
    for (int a = 0; a < D; ++a) (*positions[a])[i] = position[a];
    for (std::uint64_t draw = D;; draw += D) {
      double u[3] = {0, 0, 0};
      double s = 0;
      for (int a = 0; a < D; ++a) {
        u[a] = 2.0 * random_unit(seed, boid, draw + a) - 1.0;
        s = a == 0 ? u[a] * u[a] : s + u[a] * u[a];
      }
      if (s > 1.0 || s < 1e-12) continue;
      const double length = std::sqrt(s);
      for (int a = 0; a < D; ++a) (*velocities[a])[i] = u[a] / length * params.max_speed;
      break;
    }
  }
  throw_if_stopped("while drawing the start");
  if (crowded.load()) {
    throw InputError("the obstacles leave almost no room: a boid found no free place in " +
                     std::to_string(kStartRedraws) + " draws");
  }
  return state;
}

void check_start_dimensions(int dimensions, const FlockParams& params) {
  if (dimensions == params.dimensions) return;
  throw InputError(dimensions == 3
                       ? "its boids fly in three dimensions (x,y,z,vx,vy,vz): give --dimensions 3"
                       : "its boids fly in two dimensions (x,y,vx,vy); --dimensions 3 needs "
                         "x,y,z,vx,vy,vz");
}

std::optional<std::size_t> first_boid_in_an_obstacle(const Particles& state,
                                                     const FlockParams& params, double edge) {
  if (params.obstacles.empty()) return std::nullopt;
  const ObstacleIndex obstacles(params, edge);
  for (std::size_t i = 0; i < state.size(); ++i) {
    const double position[3] = {state.x[i], state.y[i], state.dimensions == 3 ? state.z[i] : 0};
    if (obstacles.holds(position)) return i;
  }
  return std::nullopt;
}

std::optional<std::size_t> first_outside_the_world(const Particles& p, const World& world) {
  for (std::size_t i = 0; i < p.size(); ++i) {
    if (!(world.holds(0, p.x[i]) && world.holds(1, p.y[i]) &&
          (p.dimensions == 2 || world.holds(2, p.z[i])))) {
      return i;
    }
  }
  return std::nullopt;
}

void check_predator_state(const Particles& predators, const FlockParams& params,
                          const StateTolerance& tolerance) {
  if (predators.size() != static_cast<std::size_t>(std::max(params.predators, 0))) {
    throw InputError("it holds " + std::to_string(predators.size()) + " predators, not " +
                     std::to_string(params.predators));
  }
  if (!predators.x.empty() && predators.dimensions != params.dimensions) {
    throw InputError("its predators fly in " + std::to_string(predators.dimensions) +
                     " dimensions, the flock in " + std::to_string(params.dimensions));
  }
  if (const auto outside = first_outside_the_world(predators, params.world)) {
    throw InputError("predator " + std::to_string(*outside) + " is outside the world");
  }
  const double top = params.effective_predator_speed();
  for (std::size_t k = 0; k < predators.size(); ++k) {
    const std::string name = "predator " + std::to_string(k);
    double square = 0;
    for (int a = 0; a < params.dimensions; ++a) {
      const double v = a == 0 ? predators.vx[k] : (a == 1 ? predators.vy[k] : predators.vz[k]);
      if (!std::isfinite(v)) throw InputError(name + " has a velocity that is not finite");
      square += v * v;
    }
    // The speed without overflow (a velocity of 1e300 moves at 1e300, not at infinity).
    const double speed =
        params.dimensions == 3
            ? std::hypot(std::hypot(predators.vx[k], predators.vy[k]), predators.vz[k])
            : std::hypot(predators.vx[k], predators.vy[k]);
    if (!(std::sqrt(square) <= top * (1 + tolerance.speed))) {
      throw InputError(name + " moves at speed " + number_text(speed) +
                       ", faster than the predators' top speed " + number_text(top));
    }
  }
  if (const auto held = first_boid_in_an_obstacle(predators, params, tolerance.edge)) {
    throw InputError("predator " + std::to_string(*held) + " lies inside an obstacle");
  }
}

double speed_of(const FlockState& state, std::size_t i) {
  return state.dimensions == 3 ? std::sqrt(state.vx[i] * state.vx[i] + state.vy[i] * state.vy[i] +
                                           state.vz[i] * state.vz[i])
                               : std::hypot(state.vx[i], state.vy[i]);
}

void check_start(const FlockState& state, const FlockParams& params,
                 const StateTolerance& tolerance, std::uint64_t first) {
  check_start_dimensions(state.dimensions, params);
  if (const auto outside = first_outside_the_world(state, params.world)) {
    throw InputError("boid " + std::to_string(first + *outside) + " is outside the world");
  }
  if (const auto held = first_boid_in_an_obstacle(state, params, tolerance.edge)) {
    throw InputError("boid " + std::to_string(first + *held) + " starts inside an obstacle");
  }
  if (!spec_of(params.model).constant_speed) return;
  for (std::size_t i = 0; i < state.size(); ++i) {
    const double speed = speed_of(state, i);
    if (!(std::abs(speed - params.max_speed) <= tolerance.speed * params.max_speed)) {
      throw InputError("boid " + std::to_string(first + i) + " moves at speed " +
                       number_text(speed) + ": the " + to_string(params.model) +
                       " model's boids all move at --speed " + number_text(params.max_speed));
    }
  }
}

}  // namespace boids
