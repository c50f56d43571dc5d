#include "host/serve/controls.h"

#include <algorithm>
#include <cmath>
#include <iterator>

#include "host/base/errors.h"
#include "host/base/message_text.h"
#include "host/core/flight_rules.h"
#include "host/core/value_limits.h"

namespace boids::serve {
namespace {

// A control's place in the parameters and its range for them.
struct ControlRule {
  const char* name;
  bool (*applies)(const FlockParams&);
  double (*low)(const FlockParams&);
  double (*high)(const FlockParams&);
  bool logarithmic;
  double FlockParams::*field;  // a number of the parameters, or
  double Vec3::*component;     // a component of the wind, or
  int FlockParams::*whole;     // a whole number of the parameters (field and component null)
};

double smaller_side(const FlockParams& p) {
  const double side = std::min(p.world.width, p.world.height);
  return p.dimensions == 3 ? std::min(side, p.world.depth) : side;
}

bool always(const FlockParams&) {
  return true;
}
bool weighted(const FlockParams& p) {
  return p.model != Model::kVicsek;
}
bool steering(const FlockParams& p) {
  return p.model == Model::kSteering;
}
bool walled(const FlockParams& p) {
  return !p.world.torus();
}
bool goal(const FlockParams& p) {
  return p.has_goal;
}
bool arriving(const FlockParams& p) {
  return p.has_goal && p.model == Model::kSteering;
}
bool pathed(const FlockParams& p) {
  return !p.path.empty();
}
bool box(const FlockParams& p) {
  return p.dimensions == 3;
}

double zero(const FlockParams&) {
  return 0;
}
double five(const FlockParams&) {
  return 5;
}
double one_degree(const FlockParams&) {
  return 1;
}
double full_turn(const FlockParams&) {
  return 360;
}
double two_pi(const FlockParams&) {
  return 2 * kPi;
}
double most_nearest(const FlockParams&) {
  return kMaxNearest;
}
double radius_low(const FlockParams& p) {
  return smaller_side(p) / 1000;
}
double half_side(const FlockParams& p) {
  return smaller_side(p) / 2;
}
double the_radius(const FlockParams& p) {
  return p.radius;
}
double speed_low(const FlockParams& p) {
  return largest_max_speed(p) / 1000;
}
double speed_high(const FlockParams& p) {
  return largest_max_speed(p);
}
double wind_low(const FlockParams& p) {
  return -p.max_speed;
}
double wind_high(const FlockParams& p) {
  return p.max_speed;
}
double dt_low(const FlockParams&) {
  return 1e-3;
}
double dt_high(const FlockParams&) {
  return 0.1;
}

const ControlRule kControls[] = {
    {"separation", weighted, zero, five, false, &FlockParams::separation, nullptr, nullptr},
    {"alignment", weighted, zero, five, false, &FlockParams::alignment, nullptr, nullptr},
    {"cohesion", weighted, zero, five, false, &FlockParams::cohesion, nullptr, nullptr},
    {"radius", always, radius_low, half_side, true, &FlockParams::radius, nullptr, nullptr},
    {"max-speed", always, speed_low, speed_high, true, &FlockParams::max_speed, nullptr, nullptr},
    {"separation-radius", weighted, zero, the_radius, false, &FlockParams::separation_radius,
     nullptr, nullptr},
    {"fov", always, one_degree, full_turn, false, &FlockParams::fov, nullptr, nullptr},
    {"nearest", always, zero, most_nearest, false, nullptr, nullptr, &FlockParams::nearest},
    {"noise", always, zero, two_pi, false, &FlockParams::noise, nullptr, nullptr},
    {"wander", weighted, zero, five, false, &FlockParams::wander, nullptr, nullptr},
    {"dt", steering, dt_low, dt_high, true, &FlockParams::dt, nullptr, nullptr},
    {"wall-distance", walled, zero, half_side, false, &FlockParams::wall_distance, nullptr,
     nullptr},
    {"goal-weight", goal, zero, five, false, &FlockParams::goal_weight, nullptr, nullptr},
    {"arrival-radius", arriving, zero, half_side, false, &FlockParams::arrival_radius, nullptr,
     nullptr},
    {"path-radius", pathed, zero, half_side, false, &FlockParams::path_radius, nullptr, nullptr},
    {"path-weight", pathed, zero, five, false, &FlockParams::path_weight, nullptr, nullptr},
    {"wind-x", always, wind_low, wind_high, false, nullptr, &Vec3::x, nullptr},
    {"wind-y", always, wind_low, wind_high, false, nullptr, &Vec3::y, nullptr},
    {"wind-z", box, wind_low, wind_high, false, nullptr, &Vec3::z, nullptr},
};

// The control's value in `p`, and setting it (a whole number's value is whole: checked first).
double value_of(const FlockParams& p, const ControlRule& rule) {
  if (rule.whole) return p.*(rule.whole);
  return rule.field ? p.*(rule.field) : p.wind.*(rule.component);
}
void set_value(FlockParams& p, const ControlRule& rule, double value) {
  if (rule.whole) {
    p.*(rule.whole) = static_cast<int>(value);
  } else {
    (rule.field ? p.*(rule.field) : p.wind.*(rule.component)) = value;
  }
}

}  // namespace

std::vector<Control> controls_of(const FlockParams& params) {
  std::vector<Control> controls;
  for (const ControlRule& rule : kControls) {
    if (!rule.applies(params)) continue;
    controls.push_back({rule.name, rule.low(params), rule.high(params), rule.logarithmic,
                        rule.whole != nullptr, value_of(params, rule)});
  }
  return controls;
}

FlockParams with_control(const FlockParams& params, Precision precision, const std::string& name,
                         double value) {
  const auto rule = std::find_if(std::begin(kControls), std::end(kControls),
                                 [&](const ControlRule& r) { return name == r.name; });
  if (rule == std::end(kControls) || !rule->applies(params)) {
    throw InputError("no control " + quoted(name) + " for this flock");
  }
  const double low = rule->low(params), high = rule->high(params);
  if (!(value >= low && value <= high)) {
    throw InputError(std::string(rule->name) + ": expected a value in [" + number_text(low) + ", " +
                     number_text(high) + "], got " + number_text(value));
  }
  if (rule->whole && value != std::floor(value)) {
    throw InputError(std::string(rule->name) + ": expected a whole number, got " +
                     number_text(value));
  }
  FlockParams next = params;
  set_value(next, *rule, value);
  check_flight_params(next, precision);
  return next;
}

}  // namespace boids::serve
