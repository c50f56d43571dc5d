#include "host/core/value_limits.h"

#include <algorithm>
#include <cmath>

#include "host/base/errors.h"
#include "host/base/message_text.h"
#include "host/model/param_table.h"

namespace boids {
namespace {

// Whether a parameter may be 0 (a weight, a coordinate, a default's stand-in), or must not
// (a side, a radius, a speed, a time step), for the bounds its messages give.
enum class Zero { kAllowed, kRefused };

// Checks one parameter against the ranges of `precision`: its magnitude at most the
// precision's largest and, if nonzero, at least its smallest. A value that only float cannot
// take suggests double.
void check_value(const std::string& option, double value, double double_largest,
                 double float_largest, Precision precision, Zero zero) {
  const std::string unless_zero = zero == Zero::kAllowed ? " unless 0" : "";
  const double double_smallest = value_limits(Precision::kDouble).smallest;
  const double float_smallest = value_limits(Precision::kFloat).smallest;
  const double magnitude = std::fabs(value);
  const bool too_large = !(magnitude <= double_largest);
  const bool too_small = magnitude > 0 && magnitude < double_smallest;
  // Float is blamed for a bound of its own alone, not for one double shares (a weight's).
  if (precision == Precision::kFloat) {
    if (!(magnitude <= float_largest) && float_largest < double_largest) {
      throw InputError(option + ": " + number_text(value) +
                       " is too large for --precision float (at most " +
                       number_text(float_largest) +
                       (too_large ? ", and at most " + number_text(double_largest) + " in double)"
                                  : "); use --precision double"));
    }
    if (magnitude > 0 && magnitude < float_smallest) {
      throw InputError(option + ": " + number_text(value) +
                       " is too small for --precision float (at least " +
                       number_text(float_smallest) + unless_zero +
                       (too_small ? ", and at least " + number_text(double_smallest) + " in double)"
                                  : "); use --precision double"));
    }
  }
  if (too_large || too_small) {
    throw InputError(option + ": " + number_text(value) + " is outside the range boids accepts (" +
                     "magnitudes in [" + number_text(double_smallest) + ", " +
                     number_text(double_largest) + "]" + (zero == Zero::kAllowed ? ", or 0" : "") +
                     ")");
  }
}

void check_length(const std::string& option, double value, Precision precision,
                  Zero zero = Zero::kAllowed) {
  check_value(option, value, value_limits(Precision::kDouble).largest,
              value_limits(Precision::kFloat).largest, precision, zero);
}

void check_weight(const std::string& option, double value, Precision precision) {
  check_value(option, value, value_limits(Precision::kDouble).largest_weight,
              value_limits(Precision::kFloat).largest_weight, precision, Zero::kAllowed);
}

// Refuses a step as long as the world's smaller side (open space has none to cross).
void check_move(const FlockParams& p) {
  if (p.world.open()) return;
  const double side = smaller_side(p);
  const std::string why = "a boid may not cross the world in one step";
  const double step = p.time_step();
  if (p.predators > 0 && !(p.effective_predator_speed() * step * kMoveMargin < side)) {
    throw InputError("--predator-speed: a predator's step (" +
                     number_text(p.effective_predator_speed() * step) +
                     ") must be below the world's side " + number_text(side) +
                     " (a predator may not cross the world in one step)");
  }
  if (furthest_move(p) * kMoveMargin < side) return;
  const ModelSpec& model = spec_of(p.model);
  const std::string flag = flag_of("max_speed", p.model);  // --max-speed, or --speed
  if (model.wind_drifts && p.max_speed * kMoveMargin < side) {
    throw InputError("--wind: its length must be below " + number_text(side - p.max_speed) +
                     " (the world's side " + number_text(side) + " less " + flag + " " +
                     number_text(p.max_speed) + ": " + why + "), got " +
                     number_text(wind_length(p)));
  }
  if (model.timed) {
    const std::string name = flag == "--speed" ? "speed" : "max speed";
    throw InputError(flag + ": " + name + " x --dt " + number_text(p.dt) +
                     " must be below the world's side " + number_text(side) + " (" + why +
                     "): " + name + " below " + number_text(side / p.dt) + ", got " +
                     number_text(p.max_speed));
  }
  throw InputError(flag + ": must be below the world's side " + number_text(side) + " (" + why +
                   "), got " + number_text(p.max_speed));
}

}  // namespace

double open_reach(Precision precision, double radius) {
  return radius * (precision == Precision::kFloat ? 0x1.0p14 : 0x1.0p19);
}

void check_open_reach(const FlockState& state, Precision precision, double radius) {
  const double reach = open_reach(precision, radius);
  double farthest = 0;
  for (const auto* axis : {&state.x, &state.y, &state.z}) {
    for (double x : *axis) farthest = std::max(farthest, std::abs(x));
  }
  if (farthest <= reach) return;
  throw InputError(
      "a boid lies " + number_text(farthest) + " from the origin along an axis, beyond the " +
      number_text(reach) + " (" + (precision == Precision::kFloat ? "16384" : "524288") +
      " radii) that open space holds in " + to_string(precision) + " precision" +
      (precision == Precision::kFloat ? " (there a float resolves the radius to 1/512): fly it "
                                        "in --precision double"
                                      : ": beyond, cells' coordinates no longer fit their keys"));
}

ValueLimits value_limits(Precision precision) {
  if (precision == Precision::kFloat) return {1e-9, 1e9, 1e6, 1e20};
  return {1e-60, 1e60, 1e6, 1e250};
}

void check_world_side(const std::string& option, double side, Precision precision) {
  check_length(option, side, precision, Zero::kRefused);
}

void check_params(const FlockParams& p, Precision precision) {
  check_world_side("--world", p.world.width, precision);
  check_world_side("--world", p.world.height, precision);
  if (p.dimensions == 3) check_world_side("--world", p.world.depth, precision);
  for (const ParamSpec& row : param_table()) {
    if (row.kind != ParamKind::kNumber || !row.names_field(p.model) || !row.in_effect(p)) continue;
    const double v = p.*row.number;
    if (row.scale == Scale::kLength) {
      check_length(row.flag, v, precision,
                   row.low_open && !row.has_unset ? Zero::kRefused : Zero::kAllowed);
    }
    if (row.scale == Scale::kWeight) check_weight(row.flag, v, precision);
  }
  check_length("--wind", p.wind.x, precision);
  check_length("--wind", p.wind.y, precision);
  if (p.dimensions == 3) check_length("--wind", p.wind.z, precision);
  if (p.has_goal) {
    check_length("--goal", p.goal.x, precision);
    check_length("--goal", p.goal.y, precision);
    if (p.dimensions == 3) check_length("--goal", p.goal.z, precision);
  }
  // A point's coordinates, each a length, named "NAME x" and so on.
  const auto check_point = [&](const std::string& name, double x, double y, double z) {
    check_length(name + " x", x, precision);
    check_length(name + " y", y, precision);
    if (p.dimensions == 3) check_length(name + " z", z, precision);
  };
  for (std::size_t k = 0; k < p.path.size(); ++k) {
    const Vec3& point = p.path[k];
    const std::string name = "--path: point " + std::to_string(k + 1);
    check_point(name, point.x, point.y, point.z);
    // A segment must keep a length in the flight's precision.
    const auto rounded = [&](double v) {
      return precision == Precision::kFloat ? static_cast<double>(static_cast<float>(v)) : v;
    };
    if (k > 0 && rounded(point.x) == rounded(p.path[k - 1].x) &&
        rounded(point.y) == rounded(p.path[k - 1].y) &&
        rounded(point.z) == rounded(p.path[k - 1].z)) {
      throw InputError(name + ": the same point as the one before it in " + to_string(precision) +
                       " precision");
    }
  }
  for (std::size_t k = 0; k < p.obstacles.size(); ++k) {
    const Obstacle& o = p.obstacles[k];
    const std::string name = "--obstacles: obstacle " + std::to_string(k + 1);
    check_point(name, o.x, o.y, o.z);
    check_length(name + " radius", o.radius, precision, Zero::kRefused);
    if (!p.world.open() && !(o.radius * kMoveMargin < smaller_side(p))) {
      throw InputError(name + ": the radius must be below the world's side " +
                       number_text(smaller_side(p)) + ", got " + number_text(o.radius));
    }
  }
  check_move(p);
}

void check_state_values(const FlockState& state, Precision precision,
                        const std::function<std::string(std::size_t, int)>& where) {
  const double largest = value_limits(precision).largest_state_speed;
  const char* const names[3] = {"vx", "vy", "vz"};
  for (std::size_t i = 0; i < state.size(); ++i) {
    const double v[3] = {state.vx[i], state.vy[i], state.dimensions == 3 ? state.vz[i] : 0.0};
    for (int axis = 0; axis < state.dimensions; ++axis) {
      if (std::fabs(v[axis]) <= largest) continue;
      const std::string what = where(i, axis) + ": " + names[axis] + " = " + number_text(v[axis]);
      if (precision == Precision::kFloat &&
          std::fabs(v[axis]) <= value_limits(Precision::kDouble).largest_state_speed) {
        throw InputError(what + " is too large for --precision float (at most " +
                         number_text(largest) + "); use --precision double");
      }
      throw InputError(what + " is beyond the largest speed a state file may hold (" +
                       number_text(largest) + ")");
    }
  }
}

}  // namespace boids
