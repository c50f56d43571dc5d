#include "host/validation/validation.h"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <limits>
#include <map>
#include <sstream>

#include "host/base/interruption.h"
#include "host/model/initial_state.h"
#include "host/model/variants.h"
#include "host/reference/reference.h"

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

namespace {

// The world the validation flies in, r = 5: in 2D a 100 x 100 torus, 1.25 boids per r^2 for
// 500 boids, 20 cells per axis; in 3D the cube that holds 500 boids at 0.9 / r^3 (the published
// example's mean neighbour count, about 3.8 within r), side cbrt(500 r^3 / 0.9) = 41.1, 8 cells
// per axis.
FlockParams validation_world(int dimensions) {
  FlockParams p;
  p.dimensions = dimensions;
  p.radius = 5.0;
  const double side = dimensions == 3 ? 41.1 : 100;
  p.world = World{side, side, Boundary::kTorus};
  p.world.depth = side;
  return p;
}

}  // namespace

std::vector<ValidationFlock> validation_flocks(int dimensions) {
  const FlockParams dense = validation_world(dimensions);
  // Radii that leave 2 cells and 1 cell per axis; at the second r > L / 2, so offsets near
  // +-L / 2 are neighbours.
  const int two_cells = dimensions == 3 ? 16 : 40, one_cell = dimensions == 3 ? 25 : 60;
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

std::vector<ValidationFlock> variant_flocks(int dimensions) {
  const FlockParams base = validation_world(dimensions);
  std::vector<ValidationFlock> flocks;
  std::uint64_t seed = 11;
  for (const Variant& variant : variant_catalogue()) {
    const FlockParams params = variant_params(variant, base);
    flocks.push_back({variant.name, params, make_initial_state(500, seed++, params)});
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

  const NeighborCheck neighbors = check_neighbors(flock.state, flock.params, precision);
  c.neighbor_mismatches = neighbors.neighbor_mismatches;
  c.rounding_boids = neighbors.rounding_boids;
  c.unexplained_boids = neighbors.unexplained_boids;

  if (got.size() != expected.size()) {
    c.failure = "the backend has " + std::to_string(got.size()) + " boids, the reference " +
                std::to_string(expected.size());
    c.max_position_error = c.max_velocity_error = std::numeric_limits<double>::infinity();
    return c;
  }
  const World& world = flock.params.world;
  const int dims = flock.params.dimensions;
  const double sides[3] = {world.width, world.height, world.depth};
  // The boids (those rounding lets steer by other neighbours aside: see check_neighbors_in),
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
  compare(got, expected, &neighbors.rounding);
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
  std::vector<ValidationFlock> flocks = validation_flocks(dimensions);
  for (ValidationFlock& variant : variant_flocks(dimensions)) flocks.push_back(std::move(variant));
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
