#include "host/serve/controls.h"

#include <algorithm>
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
  double Vec3::*component;     // a component of the wind (field null)
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
    {"separation", weighted, zero, five, false, &FlockParams::separation, nullptr},
    {"alignment", weighted, zero, five, false, &FlockParams::alignment, nullptr},
    {"cohesion", weighted, zero, five, false, &FlockParams::cohesion, nullptr},
    {"radius", always, radius_low, half_side, true, &FlockParams::radius, nullptr},
    {"max-speed", always, speed_low, speed_high, true, &FlockParams::max_speed, nullptr},
    {"separation-radius", weighted, zero, the_radius, false, &FlockParams::separation_radius,
     nullptr},
    {"fov", always, one_degree, full_turn, false, &FlockParams::fov, nullptr},
    {"noise", always, zero, two_pi, false, &FlockParams::noise, nullptr},
    {"wander", weighted, zero, five, false, &FlockParams::wander, nullptr},
    {"dt", steering, dt_low, dt_high, true, &FlockParams::dt, nullptr},
    {"wall-distance", walled, zero, half_side, false, &FlockParams::wall_distance, nullptr},
    {"goal-weight", goal, zero, five, false, &FlockParams::goal_weight, nullptr},
    {"arrival-radius", arriving, zero, half_side, false, &FlockParams::arrival_radius, nullptr},
    {"path-radius", pathed, zero, half_side, false, &FlockParams::path_radius, nullptr},
    {"path-weight", pathed, zero, five, false, &FlockParams::path_weight, nullptr},
    {"wind-x", always, wind_low, wind_high, false, nullptr, &Vec3::x},
    {"wind-y", always, wind_low, wind_high, false, nullptr, &Vec3::y},
    {"wind-z", box, wind_low, wind_high, false, nullptr, &Vec3::z},
};

double& place(FlockParams& p, const ControlRule& rule) {
  return rule.field ? p.*(rule.field) : p.wind.*(rule.component);
}

}  // namespace

std::vector<Control> controls_of(const FlockParams& params) {
  std::vector<Control> controls;
  FlockParams p = params;  // place() hands out references
  for (const ControlRule& rule : kControls) {
    if (!rule.applies(p)) continue;
    controls.push_back({rule.name, rule.low(p), rule.high(p), rule.logarithmic, place(p, rule)});
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
  FlockParams next = params;
  place(next, *rule) = value;
  check_flight_params(next, precision);
  return next;
}

}  // namespace boids::serve
