#include "host/validation.h"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <limits>
#include <map>
#include <sstream>

#include "host/backends/flock_layout.h"
#include "host/initial_state.h"
#include "host/reference.h"
#include "kernels/rules.h"

namespace boids {
namespace {

// How one boid treats another: the discontinuities of the rules. A neighbour is closer than r,
// separation acts closer than r / 2 (and not at distance 0), and the offset wraps at +-L / 2.
struct PairDecision {
  bool near = false;
  bool pushes = false;
  int shift_x = 0, shift_y = 0;  // -1, 0 or +1: how the offset was wrapped
};

// In double, written as the reference writes it (and sharing no code with the kernels).
PairDecision decide_in_double(double xi, double yi, double xj, double yj, const FlockParams& p,
                              double* distance, double* raw_x, double* raw_y) {
  const double half = p.world / 2;
  const double r2 = p.radius * p.radius;
  PairDecision d;
  double dx = xj - xi, dy = yj - yi;
  *raw_x = dx;
  *raw_y = dy;
  if (dx > half) {
    dx -= p.world;
    d.shift_x = -1;
  } else if (dx < -half) {
    dx += p.world;
    d.shift_x = 1;
  }
  if (dy > half) {
    dy -= p.world;
    d.shift_y = -1;
  } else if (dy < -half) {
    dy += p.world;
    d.shift_y = 1;
  }
  const double d2 = dx * dx + dy * dy;
  d.near = d2 < r2;
  d.pushes = d.near && d2 < r2 / 4 && d2 > 0;
  *distance = std::sqrt(d2);
  return d;
}

// In the backend's precision, with the kernels' own rule code: what boid i gathers of boid j.
template <typename Real>
PairDecision decide_in_kernels(const kernels::Boid<Real>& self, const kernels::Boid<Real>& other,
                               const kernels::StepParams<Real>& p) {
  kernels::NeighborSums<Real> sums;
  sums.clear(0);
  kernels::accumulate_neighbor(sums, 0, self.x, self.y, other, p);
  PairDecision d;
  d.near = sums.count[0] == 1;
  d.pushes = sums.push_x[0] != Real(0) || sums.push_y[0] != Real(0);
  const Real raw_x = other.x - self.x, raw_y = other.y - self.y;
  const Real wrapped_x = kernels::wrap_delta(raw_x, p), wrapped_y = kernels::wrap_delta(raw_y, p);
  d.shift_x = (wrapped_x > raw_x) - (wrapped_x < raw_x);
  d.shift_y = (wrapped_y > raw_y) - (wrapped_y < raw_y);
  return d;
}

// The neighbour check. For every ordered pair (i, j) the decisions of boid i about boid j
// (neighbour? separation? which way does the offset wrap?) are taken in double on S and in the
// backend's precision on S cast to it, and compared:
//   - in double the two must agree exactly: any difference is a bug;
//   - in float a difference is allowed only where rounding can cause it: the pair's double
//     distance lies within a band around the threshold it crossed (r for a neighbour, r / 2 or
//     0 for separation), or its raw offset within the band around +-L / 2 for the wrap. The
//     band is 1e-5 * max(r, L): float rounds positions by about 6e-8 L and r^2 by 6e-8 r^2, so
//     rounding moves a distance by less than about 1e-6 max(r, L).
// Any other difference is unexplained and fails the case. A boid with an allowed difference
// steers by a different set of terms, so its float result may differ by far more than
// rounding: it is left out of the error maxima (and counted).
template <typename Real>
NeighbourCheck check_neighbours_in(const FlockState& s, const FlockParams& params) {
  const std::size_t n = s.size();
  const auto p = step_params_of<Real>(params);
  std::vector<kernels::Boid<Real>> cast(n);
  for (std::size_t i = 0; i < n; ++i) {
    cast[i] = {static_cast<Real>(s.x[i]), static_cast<Real>(s.y[i]), static_cast<Real>(s.vx[i]),
               static_cast<Real>(s.vy[i])};
  }
  const bool may_round = sizeof(Real) < sizeof(double);
  const double band = 1e-5 * std::max(params.radius, params.world);
  const auto within = [band](double value, double threshold) {
    return std::abs(value - threshold) <= band;
  };

  NeighbourCheck check;
  check.rounding.assign(n, false);
  for (std::size_t i = 0; i < n; ++i) {
    std::uint64_t count_double = 0, count_real = 0;
    bool rounding = false, unexplained = false;
    for (std::size_t j = 0; j < n; ++j) {
      if (j == i) continue;
      double distance = 0, raw_x = 0, raw_y = 0;
      const PairDecision dd =
          decide_in_double(s.x[i], s.y[i], s.x[j], s.y[j], params, &distance, &raw_x, &raw_y);
      const PairDecision dr = decide_in_kernels(cast[i], cast[j], p);
      count_double += dd.near;
      count_real += dr.near;
      bool differs = false, explained = true;
      if (dd.near != dr.near) {
        differs = true;
        explained = explained && within(distance, params.radius);
      }
      if (dd.pushes != dr.pushes) {
        differs = true;
        explained = explained && (within(distance, params.radius / 2) || within(distance, 0.0));
      }
      if (dd.near && dr.near && dd.shift_x != dr.shift_x) {
        differs = true;
        explained = explained && within(std::abs(raw_x), params.world / 2);
      }
      if (dd.near && dr.near && dd.shift_y != dr.shift_y) {
        differs = true;
        explained = explained && within(std::abs(raw_y), params.world / 2);
      }
      if (!differs) continue;
      if (may_round && explained) {
        rounding = true;
      } else {
        unexplained = true;
      }
    }
    check.neighbour_mismatches += count_double != count_real;
    check.rounding[i] = rounding && !unexplained;
    check.rounding_boids += rounding && !unexplained;
    check.unexplained_boids += unexplained;
  }
  return check;
}

// The distance between two coordinates on a circle of length `world`; NaN becomes infinity,
// so that a broken result can never compare as small.
double wrapped_difference(double a, double b, double world) {
  double e = std::abs(a - b);
  if (e > world / 2) e = world - e;
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
  dense.world = 100.0;
  FlockParams r40;
  r40.radius = 40.0;  // 2 cells per axis
  FlockParams r60;
  r60.radius = 60.0;  // 1 cell per axis; r > L / 2, so offsets near +-L / 2 are neighbours

  std::vector<ValidationFlock> flocks;
  flocks.push_back({"random", dense, make_initial_state(500, 1, dense)});
  flocks.push_back(
      {"flocked", dense, reference_state(make_initial_state(500, 2, dense), dense, 300)});
  flocks.push_back({"2-cells-r40", r40, make_initial_state(200, 3, r40)});
  flocks.push_back({"1-cell-r60", r60, make_initial_state(200, 4, r60)});
  return flocks;
}

ValidationTolerance validation_tolerance(Method method, Precision precision) {
  if (precision == Precision::kFloat) return {1, 1e-4, false};
  if (method == Method::kNaive) return {10, 0.0, true};
  return {10, 1e-9, false};
}

NeighbourCheck check_neighbours(const FlockState& state, const FlockParams& params,
                                Precision precision) {
  if (precision == Precision::kFloat) return check_neighbours_in<float>(state, params);
  return check_neighbours_in<double>(state, params);
}

FlockState reference_state(const FlockState& state, const FlockParams& params,
                           std::uint64_t steps) {
  FlockState s = state;
  ReferenceStepper stepper;
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
  const double world = flock.params.world;
  for (std::size_t i = 0; i < got.size(); ++i) {
    c.differing_values +=
        !same_bits(got.x[i], expected.x[i]) + !same_bits(got.y[i], expected.y[i]) +
        !same_bits(got.vx[i], expected.vx[i]) + !same_bits(got.vy[i], expected.vy[i]);
    if (neighbours.rounding[i]) continue;  // steers by other terms: see check_neighbours_in
    c.max_position_error =
        std::max({c.max_position_error, wrapped_difference(got.x[i], expected.x[i], world),
                  wrapped_difference(got.y[i], expected.y[i], world)});
    c.max_velocity_error = std::max({c.max_velocity_error, difference(got.vx[i], expected.vx[i]),
                                     difference(got.vy[i], expected.vy[i])});
  }

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

ValidationReport validate_backend(Backend backend) {
  ValidationReport report;
  report.backend = backend;
  const std::vector<ValidationFlock> flocks = validation_flocks();
  // The reference's states, per flock and number of steps, computed once.
  std::vector<std::map<std::uint64_t, FlockState>> expected(flocks.size());
  for (const Method method : {Method::kNaive, Method::kHashed}) {
    for (const Precision precision : {Precision::kDouble, Precision::kFloat}) {
      const ValidationTolerance tolerance = validation_tolerance(method, precision);
      for (std::size_t f = 0; f < flocks.size(); ++f) {
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
