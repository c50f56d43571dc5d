#include "host/core/controls.h"

#include <algorithm>
#include <cmath>
#include <utility>

#include "host/base/errors.h"
#include "host/base/message_text.h"
#include "host/core/flight_rules.h"
#include "host/model/param_table.h"

namespace boids {
namespace {

constexpr const char* kAxes[3] = {"-x", "-y", "-z"};

// A control's row and, for a vector's, its axis.
struct Place {
  const ParamSpec* row = nullptr;
  int axis = 0;
};

// Where control `name` lives for a flock of `p`; no row where it has none.
Place place_of(const FlockParams& p, const std::string& name) {
  for (const ParamSpec& row : param_table()) {
    if (!row.control.low || !row.in_effect(p)) continue;
    const std::string base = std::string(row.flag).substr(2);
    if (row.kind != ParamKind::kVector && name == base) return {&row, 0};
    for (int a = 0; row.kind == ParamKind::kVector && a < p.dimensions; ++a) {
      if (name == base + kAxes[a]) return {&row, a};
    }
  }
  return {};
}

double& component(Vec3& v, int axis) {
  return axis == 0 ? v.x : axis == 1 ? v.y : v.z;
}

// A control's value in effect, and its range: the row's, widened to hold that value, which
// another change may have left beyond it (the wind once the maximum speed falls below it): a
// slider always shows the value the flock flies with, and may move back from there.
double value_at(const Place& place, const FlockParams& p) {
  Vec3 wind = p.wind;
  return place.row->kind == ParamKind::kVector ? component(wind, place.axis) : place.row->value(p);
}
std::pair<double, double> range_at(const Place& place, const FlockParams& p) {
  const double low = place.row->control.low(p), high = place.row->control.high(p);
  const double value = value_at(place, p);
  if (place.row->control.logarithmic && !(value > 0)) return {low, high};  // no log of 0
  return {std::min(low, value), std::max(high, value)};
}

}  // namespace

std::vector<Control> controls_of(const FlockParams& p) {
  std::vector<Control> controls;
  for (const ParamSpec& row : param_table()) {
    if (!row.control.low || !row.in_effect(p)) continue;
    const std::string name = std::string(row.flag).substr(2);
    const bool whole = row.kind == ParamKind::kWhole;
    const int axes = row.kind == ParamKind::kVector ? p.dimensions : 1;
    for (int a = 0; a < axes; ++a) {
      const Place place{&row, a};
      const auto [low, high] = range_at(place, p);
      controls.push_back({row.kind == ParamKind::kVector ? name + kAxes[a] : name, low, high,
                          row.control.logarithmic, whole, value_at(place, p), row.section});
    }
  }
  return controls;
}

FlockParams with_control(const FlockParams& params, Precision precision, const std::string& name,
                         double value) {
  const Place place = place_of(params, name);
  if (!place.row) throw InputError("no control " + quoted(name) + " for this flock");
  const ParamSpec& row = *place.row;
  const auto [low, high] = range_at(place, params);
  if (!(value >= low && value <= high)) {
    throw InputError(name + ": expected a value in [" + number_text(low) + ", " +
                     number_text(high) + "], got " + number_text(value));
  }
  FlockParams next = params;
  if (row.kind == ParamKind::kWhole) {
    // Whole numbers, one rule on every front end (host/tools/options.h): a whole value, no
    // sign (-0 is refused, as the command line refuses "-0").
    if (value != std::floor(value) || std::signbit(value)) {
      throw InputError(
          name + ": expected a whole number, got " +
          (std::signbit(value) && value == 0 ? std::string("-0") : number_text(value)));
    }
    next.*row.whole = static_cast<int>(value);
  } else if (row.kind == ParamKind::kVector) {
    component(next.wind, place.axis) = value;
  } else {
    next.*row.number = value;
  }
  for (const ParamSpec& other : param_table()) {  // values given that it bounds stay within it
    if (other.below.of && other.kind == ParamKind::kNumber && !other.at_default(next)) {
      next.*other.number = std::min(next.*other.number, other.below.of(next));
    }
  }
  settle_model(next);
  check_flight_params(next, precision);
  return next;
}

}  // namespace boids
