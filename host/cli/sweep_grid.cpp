#include "host/cli/sweep_grid.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <limits>

#include "host/base/errors.h"
#include "host/base/message_text.h"
#include "host/model/param_table.h"
#include "host/tools/options.h"

namespace boids::cli {
namespace {

using tools::comma_fields;
using tools::parse_positive;
using tools::parse_real;

// The shortest decimal text whose number lies within `tolerance` of `value`: a range's values
// as people write them (0.3, not 0.30000000000000004), however fine the step, since the
// tolerance is a billionth of it.
std::string range_value_text(double value, double tolerance) {
  for (int digits = 1; digits < 17; ++digits) {
    char text[40];
    std::snprintf(text, sizeof text, "%.*g", digits, value);
    const double near = std::strtod(text, nullptr);
    if (std::fabs(near - value) <= tolerance) return number_text(near);
  }
  return number_text(value);
}

std::vector<std::string> range_values(const std::string& option, const std::string& spec) {
  const auto a = spec.find(':'), b = spec.find(':', a + 1);
  const std::string first = spec.substr(0, a), last = spec.substr(a + 1, b - a - 1);
  const double start = parse_real(option, first);
  const double stop = parse_real(option, last);
  const double step = parse_positive(option, spec.substr(b + 1));
  if (stop < start) throw InputError(option + ": the range ends before it starts");
  // STOP is a value when START + k STEP reaches it up to rounding: that of START and STOP
  // themselves (the range 1:1.000001:1e-8 loses a tenth of a step's billionth to it), and a
  // billionth of a step.
  const double slack =
      4 * std::numeric_limits<double>::epsilon() * std::max(std::fabs(start), std::fabs(stop)) +
      1e-9 * step;
  const double count = std::floor((stop - start + slack) / step) + 1;
  if (!(count <= static_cast<double>(kMaxSweepValues))) {
    throw InputError(option + ": more than " + std::to_string(kMaxSweepValues) + " values");
  }
  const auto n = static_cast<std::size_t>(count);
  std::vector<std::string> values;
  for (std::size_t i = 0; i < n; ++i) {
    values.push_back(range_value_text(start + static_cast<double>(i) * step, step * 1e-9));
  }
  // The ends as given, so that a range up to an option's bound (noise to 2 pi) stays in it.
  values.front() = first;
  const double end = start + static_cast<double>(n - 1) * step;
  if (std::fabs(end - stop) <= slack) values.back() = last;
  return values;
}

// Refuses a value given twice, as numbers; a range's step then is too fine for its values.
void refuse_repeats(const std::string& option, const SweepParam& p, bool range) {
  for (std::size_t i = 0; i < p.numbers.size(); ++i) {
    for (std::size_t j = 0; j < i; ++j) {
      if (p.numbers[i] != p.numbers[j]) continue;
      if (range) {
        throw InputError(option + ": the step is too small for the range's values to differ (" +
                         p.values[j] + " and " + p.values[i] + " are one number)");
      }
      throw InputError(option + ": the value " + quoted(p.values[i]) + " is given twice" +
                       (p.values[i] == p.values[j] ? "" : " (as " + quoted(p.values[j]) + ")"));
    }
  }
}

}  // namespace

const std::vector<std::string>& sweepable_options() {
  static const std::vector<std::string> names = [] {
    std::vector<std::string> sweepable;
    for (const ParamSpec& row : param_table()) {
      if (row.sweepable) sweepable.push_back(std::string(row.flag).substr(2));
    }
    std::sort(sweepable.begin(), sweepable.end());
    return sweepable;
  }();
  return names;
}

std::string sweepable_list() {
  std::string list;
  for (const std::string& name : sweepable_options()) list += (list.empty() ? "" : ", ") + name;
  return list;
}

SweepParam parse_sweep_param(const std::string& text) {
  const auto equals = text.find('=');
  if (equals == std::string::npos || equals == 0) {
    throw InputError("--param: expected NAME=V1,V2,... or NAME=START:STOP:STEP, got " +
                     quoted(text));
  }
  SweepParam p;
  p.name = text.substr(0, equals);
  std::replace(p.name.begin(), p.name.end(), '_', '-');
  const auto& names = sweepable_options();
  if (std::find(names.begin(), names.end(), p.name) == names.end()) {
    throw InputError("--param: " + quoted(text.substr(0, equals)) +
                     " is not an option a sweep can vary (" + sweepable_list() + ")");
  }
  const std::string spec = text.substr(equals + 1);
  const std::string option = "--param " + p.name;
  const bool range = std::count(spec.begin(), spec.end(), ':') == 2;
  if (range) {
    p.values = range_values(option, spec);
  } else {
    if (spec.empty()) throw InputError(option + ": no values");
    for (const std::string& value : comma_fields(spec)) {
      if (value.empty()) throw InputError(option + ": an empty value in " + quoted(spec));
      p.values.push_back(value);
    }
    if (p.values.size() > kMaxSweepValues) {
      throw InputError(option + ": more than " + std::to_string(kMaxSweepValues) + " values");
    }
  }
  for (const std::string& value : p.values) p.numbers.push_back(parse_real(option, value));
  refuse_repeats(option, p, range);
  return p;
}

std::vector<SweepPoint> sweep_grid(const std::vector<SweepParam>& params) {
  std::size_t size = 1;
  std::string shape;
  for (const SweepParam& p : params) {
    // Each factor is at most kMaxSweepValues: the product cannot overflow before it is caught.
    size = size > kMaxSweepPoints ? size : size * p.values.size();
    shape += (shape.empty() ? "" : " x ") + std::to_string(p.values.size());
  }
  if (size > kMaxSweepPoints) {
    throw InputError("--param: the grid has more than " + std::to_string(kMaxSweepPoints) +
                     " points (" + shape + " values)");
  }
  std::vector<SweepPoint> points = {{}};
  for (const SweepParam& p : params) {
    std::vector<SweepPoint> next;
    next.reserve(points.size() * p.values.size());
    for (const SweepPoint& point : points) {
      for (std::size_t v = 0; v < p.values.size(); ++v) {
        next.push_back(point);
        next.back().push_back(v);
      }
    }
    points = std::move(next);
  }
  return points;
}

std::vector<std::string> point_values(const std::vector<SweepParam>& params,
                                      const SweepPoint& point) {
  std::vector<std::string> values;
  for (std::size_t i = 0; i < params.size(); ++i) values.push_back(params[i].values[point[i]]);
  return values;
}

std::string point_text(const std::vector<SweepParam>& params, const SweepPoint& point) {
  std::string text;
  for (std::size_t i = 0; i < params.size(); ++i) {
    text += (i > 0 ? ", " : "") + params[i].name + "=" + params[i].values[point[i]];
  }
  return text;
}

}  // namespace boids::cli
