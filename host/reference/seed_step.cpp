// Compiled without floating-point contraction (see cmake/BoidsFloatingPoint.cmake): every
// operation below rounds exactly as in the published step's JavaScript and Python.
#include <algorithm>
#include <cmath>

#include "host/base/errors.h"
#include "host/reference/detail/models.h"
#include "host/reference/detail/predators.h"
#include "host/reference/detail/space.h"
#include "host/reference/reference.h"

namespace boids {
namespace {

constexpr double K_SEP = 0.05;
constexpr double K_ALI = 0.05;
constexpr double K_COH = 0.005;

}  // namespace

ReferenceStepper::ReferenceStepper(std::uint64_t seed) : noise_key_(reference::noise_key(seed)) {}

void ReferenceStepper::step(FlockState& state, const FlockParams& params) {
  if (params.predators > 0) {  // the predators pursue the boids before the step, as they flee
    if (state.predators.size() != static_cast<std::size_t>(params.predators)) {
      throw InputError("the flock holds " + std::to_string(state.predators.size()) +
                       " predators, its parameters " + std::to_string(params.predators));
    }
    Particles hunted = reference::pursue(state, params);
    boids_step(state, params);
    state.predators = std::move(hunted);
    return;
  }
  boids_step(state, params);
}

void ReferenceStepper::boids_step(FlockState& state, const FlockParams& params) {
  const reference::StepContext context{noise_key_, steps_};
  steps_ += 1;
  if (params.dimensions == 3 || state.dimensions == 3) {
    if (params.dimensions != state.dimensions) {
      throw InputError("a flock in " + std::to_string(state.dimensions) +
                       " dimensions cannot fly in " + std::to_string(params.dimensions));
    }
    if (params.update != Update::kSynchronous) {
      throw InputError("in three dimensions the reference flies every model synchronously");
    }
  } else if (params.seed_model()) {
    seed_step(state, params);
    return;
  } else if (params.update == Update::kInPlace) {
    reference::steering_lab_step(state, params, context);
    return;
  }
  spec_of(params.model).reference_step(state, params, context);
}

// The published step, on a width x height torus (its WORLD on both axes when the world is
// square).
void ReferenceStepper::seed_step(FlockState& state, const FlockParams& p) {
  const std::size_t n = state.size();
  std::vector<double>& x = state.x;
  std::vector<double>& y = state.y;
  std::vector<double>& vx = state.vx;
  std::vector<double>& vy = state.vy;
  const double WORLD = p.world.width, WORLD_Y = p.world.height;
  const double HALF = WORLD / 2, HALF_Y = WORLD_Y / 2;
  const double r2 = p.radius * p.radius;
  const double s2 = r2 / 4;
  count_.assign(n, 0);
  for (auto* a : {&ax_, &ay_, &cx_, &cy_, &sx_, &sy_}) a->assign(n, 0.0);
  std::vector<int>& cnt = count_;
  std::vector<double>&ax = ax_, &ay = ay_, &cx = cx_, &cy = cy_, &sx = sx_, &sy = sy_;

  // 1. Every pair within r, visited once, accumulates both boids' sums.
  for (std::size_t i = 0; i < n; ++i) {
    const double xi = x[i], yi = y[i], vxi = vx[i], vyi = vy[i];
    for (std::size_t j = i + 1; j < n; ++j) {
      double dx = x[j] - xi;
      if (dx > HALF) {
        dx -= WORLD;
      } else if (dx < -HALF) {
        dx += WORLD;
      }
      double dy = y[j] - yi;
      if (dy > HALF_Y) {
        dy -= WORLD_Y;
      } else if (dy < -HALF_Y) {
        dy += WORLD_Y;
      }
      const double d2 = dx * dx + dy * dy;
      if (d2 >= r2) continue;
      cnt[i] += 1;
      cnt[j] += 1;
      ax[i] += vx[j];
      ay[i] += vy[j];
      ax[j] += vxi;
      ay[j] += vyi;
      cx[i] += dx;
      cy[i] += dy;
      cx[j] -= dx;
      cy[j] -= dy;
      if (d2 < s2 && d2 > 0) {
        sx[i] -= dx / d2;
        sy[i] -= dy / d2;
        sx[j] += dx / d2;
        sy[j] += dy / d2;
      }
    }
  }

  // 2. Steer, clamp the speed into [v_max / 2, v_max]; 3. move and wrap. Two departures from
  // the published step, which change no bit of a step that its arithmetic can take: a velocity
  // whose square would overflow (an infinite speed would zero it) has its speed taken at a
  // smaller scale, and a coordinate wrapped to WORLD itself is 0 (see reference/world.h).
  const double vmax = p.max_speed;
  const double vmin = vmax / 2;
  for (std::size_t i = 0; i < n; ++i) {
    if (cnt[i] > 0) {
      vx[i] += p.separation * K_SEP * sx[i] + p.alignment * K_ALI * (ax[i] / cnt[i] - vx[i]) +
               p.cohesion * K_COH * (cx[i] / cnt[i]);
      vy[i] += p.separation * K_SEP * sy[i] + p.alignment * K_ALI * (ay[i] / cnt[i] - vy[i]) +
               p.cohesion * K_COH * (cy[i] / cnt[i]);
    }
    double u[2] = {vx[i], vy[i]};
    const bool huge = reference::shrink_if_huge(u, 2);
    const double ux = u[0], uy = u[1];
    const double speed = std::sqrt(ux * ux + uy * uy);
    if (huge || speed > vmax) {
      vx[i] = ux / speed * vmax;
      vy[i] = uy / speed * vmax;
    } else if (speed < vmin && speed > 0) {
      vx[i] = vx[i] / speed * vmin;
      vy[i] = vy[i] / speed * vmin;
    }
    x[i] += vx[i];
    y[i] += vy[i];
    if (x[i] < 0) {
      x[i] += WORLD;
    } else if (x[i] >= WORLD) {
      x[i] -= WORLD;
    }
    if (y[i] < 0) {
      y[i] += WORLD_Y;
    } else if (y[i] >= WORLD_Y) {
      y[i] -= WORLD_Y;
    }
    x[i] = reference::identify_side_with_zero(x[i], WORLD);
    y[i] = reference::identify_side_with_zero(y[i], WORLD_Y);
  }
}

void reference_predator(FlockState& state, const FlockParams& p, double px, double py,
                        double radius, double strength) {
  const double R2 = radius * radius;
  const double vmax = p.max_speed;
  for (std::size_t i = 0; i < state.size(); ++i) {
    const reference::Vector<2> d =
        reference::offset_between<2>(p, {px, py}, {state.x[i], state.y[i]});
    const double dx = d[0], dy = d[1];
    const double d2 = dx * dx + dy * dy;
    if (d2 >= R2 || d2 == 0) continue;
    const double push = strength * vmax * (1 - d2 / R2) / std::sqrt(d2);
    state.vx[i] += dx * push;
    state.vy[i] += dy * push;
    const double speed = std::sqrt(state.vx[i] * state.vx[i] + state.vy[i] * state.vy[i]);
    if (speed > vmax) {
      state.vx[i] = state.vx[i] / speed * vmax;
      state.vy[i] = state.vy[i] / speed * vmax;
    }
  }
}

}  // namespace boids
