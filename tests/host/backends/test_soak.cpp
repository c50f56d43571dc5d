// Soak: every model and variant of the catalogue flies millions of boid-steps, and after every step
// each boid is checked: coordinates finite and inside the world, speed inside the model's
// clamp, no boid lost or duplicated (the backend's order a permutation of the flock). The
// budget is fixed by boid-steps, so the test takes seconds, not a number of minutes that grows.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <string>
#include <vector>

#include "host/core/simulation.h"
#include "tests/support/test_support.h"

namespace {

using namespace boids;
using test_support::FlightVariant;

#ifndef BOIDS_SOAK_STEPS
#define BOIDS_SOAK_STEPS 1200  // 6 million boid-steps a variant
#endif

constexpr std::uint64_t kBoids = 5000;
constexpr std::uint64_t kSteps = BOIDS_SOAK_STEPS;

// The speeds a step may leave: [lower, upper] of the model's clamp.
struct SpeedRange {
  double lower, upper;
};

SpeedRange speed_range(const FlockParams& p) {
  if (spec_of(p.model).constant_speed) return {p.max_speed, p.max_speed};
  // Under steering, arrival lowers the least speed near the goal, to rest at it.
  if (p.model == Model::kSteering && p.arrival_radius > 0) return {0.0, p.max_speed};
  return {p.effective_min_speed(), p.max_speed};
}

// The first thing wrong with the flock after `step`, or "".
std::string fault(const Simulation& sim, std::uint64_t step, double tolerance) {
  const FlockParams& p = sim.config().params;
  const SpeedRange speed = speed_range(p);
  const FlockState s = sim.state();
  const auto at = [&](std::size_t i) {
    return "step " + std::to_string(step) + ", boid " + std::to_string(i) + ": ";
  };
  if (s.size() != kBoids) return "step " + std::to_string(step) + ": the flock has changed size";
  for (std::size_t i = 0; i < s.size(); ++i) {
    if (!(p.world.holds(0, s.x[i]) && p.world.holds(1, s.y[i]))) {
      return at(i) + "(" + std::to_string(s.x[i]) + ", " + std::to_string(s.y[i]) +
             ") is outside the world";
    }
    const double v = std::hypot(s.vx[i], s.vy[i]);
    if (!(v >= speed.lower * (1 - tolerance) && v <= speed.upper * (1 + tolerance))) {
      return at(i) + "speed " + std::to_string(v) + " outside [" + std::to_string(speed.lower) +
             ", " + std::to_string(speed.upper) + "]";
    }
  }
  for (std::size_t k = 0; k < s.predators.size(); ++k) {
    const Particles& q = s.predators;
    const bool inside = p.world.holds(0, q.x[k]) && p.world.holds(1, q.y[k]);
    if (!inside ||
        !(std::hypot(q.vx[k], q.vy[k]) <= p.effective_predator_speed() * (1 + tolerance))) {
      return "step " + std::to_string(step) + ", predator " + std::to_string(k) +
             ": outside the world or faster than its top speed";
    }
  }
  const std::vector<std::uint64_t> order = sim.backend_order();
  std::vector<bool> seen(kBoids, false);
  for (std::uint64_t id : order) {
    if (id >= kBoids || seen[id]) return "step " + std::to_string(step) + ": boid lost or twice";
    seen[id] = true;
  }
  return "";
}

class Soak : public testing::TestWithParam<FlightVariant> {};

TEST_P(Soak, EveryStepKeepsEveryBoidInsideItsBounds) {
  for (const Precision precision : {Precision::kFloat, Precision::kDouble}) {
    SCOPED_TRACE(to_string(precision));
    FlockParams params;
    GetParam().set(params);
    const SimulationConfig config{Backend::kCpu, Method::kHashed, precision, params, /*seed=*/5};
    const auto sim = make_simulation(
        config, test_support::with_predators(
                    test_support::random_state(kBoids, 100, 6, 5, /*seed=*/21), params));
    const double tolerance = precision == Precision::kFloat ? 1e-6 : 1e-14;
    const std::uint64_t steps = precision == Precision::kFloat ? kSteps : kSteps / 4;
    for (std::uint64_t step = 1; step <= steps; ++step) {
      sim->step(1);
      const std::string wrong = fault(*sim, step, tolerance);
      ASSERT_EQ(wrong, "");
    }
  }
}

INSTANTIATE_TEST_SUITE_P(variants, Soak, testing::ValuesIn(test_support::flight_variants()),
                         [](const testing::TestParamInfo<FlightVariant>& variant) {
                           return test_support::test_name(variant.param.name);
                         });

}  // namespace
