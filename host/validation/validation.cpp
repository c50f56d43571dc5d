#include "host/validation/validation.h"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <limits>
#include <map>
#include <sstream>

#include "host/base/interruption.h"
#include "host/model/initial_state.h"
#include "host/reference/reference.h"
#include "host/validation/validation_flocks.h"

namespace boids {
namespace {

// The distance between two coordinates on an axis of length `side`, around the torus when it
// is one; NaN becomes infinity, so that a broken result can never compare as small.
double axis_difference(double a, double b, double side, bool torus) {
  double e = std::abs(a - b);
  if (torus && e > side / 2) e = side - e;
  return std::isnan(e) ? std::numeric_limits<double>::infinity() : e;
}

double difference(double a, double b) {
  const double e = std::abs(a - b);
  return std::isnan(e) ? std::numeric_limits<double>::infinity() : e;
}

bool same_bits(double a, double b) {
  return std::memcmp(&a, &b, sizeof(double)) == 0;
}

std::string format_error(double value) {
  std::ostringstream out;
  out.precision(3);
  out << value;
  return out.str();
}

}  // namespace

std::vector<ValidationFlock> validation_flocks() {
  // 500 boids in a 100 x 100 world with r = 5: 1.25 boids per r^2, 20 cells per axis.
  FlockParams dense;
  dense.radius = 5.0;
  dense.world = World{100, 100, Boundary::kTorus};
  // r = 40: 2 cells per axis; r = 60: 1, and r > L / 2, so offsets near +-L / 2 are neighbours.
  return standard_flocks(dense, 40, 60);
}

std::vector<ValidationFlock> standard_flocks(const FlockParams& dense, int two_cells,
                                             int one_cell) {
  FlockParams two = dense;
  two.radius = two_cells;
  FlockParams one = dense;
  one.radius = one_cell;
  std::vector<ValidationFlock> flocks;
  flocks.push_back({"random", dense, make_initial_state(500, 1, dense)});
  flocks.push_back(
      {"flocked", dense, reference_state(make_initial_state(500, 2, dense), dense, 300)});
  flocks.push_back({"2-cells-r" + std::to_string(two_cells), two, make_initial_state(200, 3, two)});
  flocks.push_back({"1-cell-r" + std::to_string(one_cell), one, make_initial_state(200, 4, one)});
  return flocks;
}

std::vector<ValidationFlock> variant_flocks() {
  FlockParams base;
  base.radius = 5.0;
  base.world = World{100, 100, Boundary::kTorus};
  VariantFlocks variants(base);
  variants.add("fov-240", [](FlockParams& p) { p.fov = 240; });
  variants.add("separation-radius-4", [](FlockParams& p) { p.separation_radius = 4; });
  variants.add("noise-1", [](FlockParams& p) { p.noise = 1.0; });
  variants.add("walls", [](FlockParams& p) { p.world.boundary = Boundary::kWalls; });
  variants.add("obstacles", [](FlockParams& p) {
    p.obstacles = {{30, 30, 8}, {70, 55, 12}, {2, 98, 6}};  // the last across the corner
  });
  variants.add("goal-wind", [](FlockParams& p) {
    p.has_goal = true;
    p.goal = {20, 80};
    p.goal_weight = 2;
    p.wind = {0.05, -0.03};
  });
  variants.add("rectangle-130x70", [](FlockParams& p) {
    p.world = World{130, 70, Boundary::kTorus};
  });
  variants.add("steering", [](FlockParams& p) {
    p.model = Model::kSteering;
    p.separation = 1.6;
    p.cohesion = 0.9;
    p.max_speed = 30;  // half a unit a step at the lab's dt of 1/60
  });
  variants.add("steering-walls-fov-noise", [](FlockParams& p) {
    p.model = Model::kSteering;
    p.max_speed = 30;
    p.world.boundary = Boundary::kWalls;
    p.fov = 270;
    p.noise = 0.5;
    p.obstacles = {{50, 50, 10}};
  });
  variants.add("steering-goal-arrival", [](FlockParams& p) {
    p.model = Model::kSteering;
    p.max_speed = 30;
    p.has_goal = true;
    p.goal = {55, 45};
    p.goal_weight = 2;
    p.arrival_radius = 30;  // most of the flock within it: slowed by its distance
  });
  variants.add("vicsek-noise-2", [](FlockParams& p) {
    p.model = Model::kVicsek;
    p.max_speed = 0.5;
    p.noise = 2.0;
  });
  variants.add("vicsek-walls-goal", [](FlockParams& p) {
    p.model = Model::kVicsek;
    p.max_speed = 0.5;
    p.world.boundary = Boundary::kWalls;
    p.has_goal = true;
    p.goal = {60, 40};
    p.goal_weight = 0.5;
  });
  variants.add("wander-2", [](FlockParams& p) { p.wander = 2; });
  variants.add("vicsek-nearest-3-walls", [](FlockParams& p) {
    p.model = Model::kVicsek;
    p.max_speed = 0.5;
    p.noise = 0.5;
    p.world.boundary = Boundary::kWalls;
    p.nearest = 3;
  });
  variants.add("steering-wander-walls", [](FlockParams& p) {
    p.model = Model::kSteering;
    p.max_speed = 30;
    p.world.boundary = Boundary::kWalls;
    p.wander = 1.5;
  });
  variants.add("path-closed", [](FlockParams& p) {
    p.path = {{20, 20}, {80, 25}, {70, 85}, {15, 70}, {20, 20}};
    p.path_radius = 6;
  });
  variants.add("steering-path-open-walls", [](FlockParams& p) {
    p.model = Model::kSteering;
    p.max_speed = 30;
    p.world.boundary = Boundary::kWalls;
    p.path = {{10, 50}, {50, 20}, {90, 60}};
    p.path_weight = 2;
  });
  // Last, so that the flocks of the variants before it keep their seeds.
  variants.add("nearest-7-fov", [](FlockParams& p) {
    p.nearest = 7;
    p.fov = 300;
  });
  variants.add("predators-4-walls-disc", [](FlockParams& p) {
    p.predators = 4;
    p.world.boundary = Boundary::kWalls;
    p.obstacles = {{50, 50, 10}};
  });
  variants.add("steering-predators-2", [](FlockParams& p) {
    p.model = Model::kSteering;
    p.max_speed = 30;
    p.predators = 2;
    p.flee_radius = 30;
  });
  return variants.flocks();
}

std::vector<ValidationFlock> VariantFlocks::flocks() const {
  std::vector<ValidationFlock> flocks;
  std::uint64_t seed = 11;
  for (const auto& [name, params] : variants_) {
    flocks.push_back({name, params, make_initial_state(500, seed++, params)});
  }
  return flocks;
}

ValidationTolerance validation_tolerance(Method method, Precision precision) {
  if (precision == Precision::kFloat) return {1, 1e-4, false};
  if (method == Method::kNaive) return {10, 0.0, true};
  return {10, 1e-9, false};
}

FlockState reference_state(const FlockState& state, const FlockParams& params, std::uint64_t steps,
                           std::uint64_t seed) {
  FlockState s = state;
  ReferenceStepper stepper(seed);
  for (std::uint64_t i = 0; i < steps; ++i) stepper.step(s, params);
  return s;
}

ValidationCase compare_with_expected(Backend backend, Method method, Precision precision,
                                     const ValidationFlock& flock, const FlockState& expected,
                                     const ValidationTolerance& tolerance) {
  ValidationCase c;
  c.backend = backend;
  c.method = method;
  c.precision = precision;
  c.state = flock.name;
  c.count = flock.state.size();
  c.steps = tolerance.steps;
  c.tolerance = tolerance;

  SimulationConfig config;
  config.backend = backend;
  config.method = method;
  config.precision = precision;
  config.params = flock.params;
  const std::unique_ptr<Simulation> sim = make_simulation(config, flock.state);
  c.device = sim->device();
  sim->step(tolerance.steps);
  const FlockState got = sim->state();

  const NeighbourCheck neighbours = check_neighbours(flock.state, flock.params, precision);
  c.neighbour_mismatches = neighbours.neighbour_mismatches;
  c.rounding_boids = neighbours.rounding_boids;
  c.unexplained_boids = neighbours.unexplained_boids;

  if (got.size() != expected.size()) {
    c.failure = "the backend has " + std::to_string(got.size()) + " boids, the reference " +
                std::to_string(expected.size());
    c.max_position_error = c.max_velocity_error = std::numeric_limits<double>::infinity();
    return c;
  }
  const World& world = flock.params.world;
  const int dims = flock.params.dimensions;
  const double sides[3] = {world.width, world.height, world.depth};
  // The boids (those rounding lets steer by other neighbours aside: see check_neighbours_in),
  // and the predators, which pursue one boid each.
  const auto compare = [&](const Particles& g, const Particles& e, const std::vector<bool>* aside) {
    const std::vector<double>* positions[2][3] = {{&g.x, &g.y, &g.z}, {&e.x, &e.y, &e.z}};
    const std::vector<double>* velocities[2][3] = {{&g.vx, &g.vy, &g.vz}, {&e.vx, &e.vy, &e.vz}};
    for (std::size_t i = 0; i < g.size(); ++i) {
      for (int a = 0; a < dims; ++a) {
        const double gp = (*positions[0][a])[i], ep = (*positions[1][a])[i];
        const double gv = (*velocities[0][a])[i], ev = (*velocities[1][a])[i];
        c.differing_values += !same_bits(gp, ep) + !same_bits(gv, ev);
        if (aside != nullptr && (*aside)[i]) continue;
        c.max_position_error =
            std::max(c.max_position_error, axis_difference(gp, ep, sides[a], world.torus()));
        c.max_velocity_error = std::max(c.max_velocity_error, difference(gv, ev));
      }
    }
  };
  compare(got, expected, &neighbours.rounding);
  if (got.predators.size() != expected.predators.size()) {
    c.failure = "the backend has " + std::to_string(got.predators.size()) +
                " predators, the reference " + std::to_string(expected.predators.size());
    return c;
  }
  compare(got.predators, expected.predators, nullptr);

  if (c.unexplained_boids > 0) {
    c.failure =
        std::to_string(c.unexplained_boids) + " boids see neighbours that rounding cannot explain";
  } else if (tolerance.bitwise && c.differing_values > 0) {
    c.failure = std::to_string(c.differing_values) + " values differ from the reference's bits";
  } else if (!(c.max_position_error <= tolerance.max_error)) {
    c.failure = "position error " + format_error(c.max_position_error) + " > " +
                format_error(tolerance.max_error);
  } else if (!(c.max_velocity_error <= tolerance.max_error)) {
    c.failure = "velocity error " + format_error(c.max_velocity_error) + " > " +
                format_error(tolerance.max_error);
  }
  c.pass = c.failure.empty();
  return c;
}

bool ValidationReport::pass() const {
  return !cases.empty() &&
         std::all_of(cases.begin(), cases.end(), [](const ValidationCase& c) { return c.pass; });
}

ValidationReport validate_backend(Backend backend, int dimensions) {
  ValidationReport report;
  report.backend = backend;
  report.dimensions = dimensions;
  const bool box = dimensions == 3;
  std::vector<ValidationFlock> flocks = box ? validation_flocks_3d() : validation_flocks();
  for (ValidationFlock& variant : box ? variant_flocks_3d() : variant_flocks()) {
    flocks.push_back(std::move(variant));
  }
  // The reference's states, per flock and number of steps, computed once.
  std::vector<std::map<std::uint64_t, FlockState>> expected(flocks.size());
  for (const Method method : {Method::kNaive, Method::kHashed}) {
    for (const Precision precision : {Precision::kDouble, Precision::kFloat}) {
      const ValidationTolerance tolerance = validation_tolerance(method, precision);
      for (std::size_t f = 0; f < flocks.size(); ++f) {
        throw_if_stopped("after " + std::to_string(report.cases.size()) + " cases");
        auto found = expected[f].find(tolerance.steps);
        if (found == expected[f].end()) {
          const FlockState s = reference_state(flocks[f].state, flocks[f].params, tolerance.steps);
          found = expected[f].emplace(tolerance.steps, s).first;
        }
        report.cases.push_back(
            compare_with_expected(backend, method, precision, flocks[f], found->second, tolerance));
      }
    }
  }
  if (!report.cases.empty()) report.device = report.cases.front().device;
  return report;
}

}  // namespace boids
