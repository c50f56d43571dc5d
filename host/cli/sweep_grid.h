// A sweep's grid: the parameters it varies, each with its values (--param NAME=V1,V2,... or
// NAME=START:STOP:STEP), and their combinations, the points. A value keeps the text the user
// gave (or the shortest text of a range's value) for the command line it becomes, and its number
// for telling points apart: 0.5 and 0.50 are one point.
#pragma once

#include <cstddef>
#include <string>
#include <vector>

namespace boids::cli {

// The options a sweep may vary: the numeric options of `boids run` but the seed (the replicas'
// seeds are --seed, --seed + 1, ...), as the option is spelled without "--".
const std::vector<std::string>& sweepable_options();
// The same as a list for people: "alignment, arrival-radius, ...".
std::string sweepable_list();

struct SweepParam {
  std::string name;                 // as the option is spelled, without "--"
  std::vector<std::string> values;  // as texts the option takes
  std::vector<double> numbers;      // the same values, as numbers
};

// Most values one parameter takes, and most points a grid holds.
inline constexpr std::size_t kMaxSweepValues = 10000;
inline constexpr std::size_t kMaxSweepPoints = 100000;

// Parses NAME=V1,V2,... or NAME=START:STOP:STEP (STOP included). Throws InputError for an
// option a sweep cannot vary, a value that is not a number, a value given twice (as numbers:
// 0.5 and 0.50), a range whose step is too small for its values to differ, or too many values.
SweepParam parse_sweep_param(const std::string& text);

// A point of the grid: the index of its value in each parameter.
using SweepPoint = std::vector<std::size_t>;

// Every point, the first parameter outermost. Throws InputError, before building anything, for
// a grid of more than kMaxSweepPoints points.
std::vector<SweepPoint> sweep_grid(const std::vector<SweepParam>& params);

// The point's values as texts, and as NAME=VALUE, ...
std::vector<std::string> point_values(const std::vector<SweepParam>& params,
                                      const SweepPoint& point);
std::string point_text(const std::vector<SweepParam>& params, const SweepPoint& point);

}  // namespace boids::cli
