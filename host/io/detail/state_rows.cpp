#include "host/io/detail/state_rows.h"

#include <cmath>
#include <limits>

#include "host/io/numeric_csv.h"

namespace boids::state_rows {
namespace {

const std::vector<std::string> kColumns2 = {"x", "y", "vx", "vy"};
const std::vector<std::string> kColumns3 = {"x", "y", "z", "vx", "vy", "vz"};

}  // namespace

const std::vector<std::string>& columns_of(int dimensions) {
  return dimensions == 3 ? kColumns3 : kColumns2;
}

bool acceptable_row(const double* v, int dimensions, const World& world) {
  for (int c = 0; c < 2 * dimensions; ++c) {
    if (!std::isfinite(v[c])) return false;
  }
  for (int axis = 0; axis < dimensions; ++axis) {
    if (!world.holds(axis, v[axis])) return false;
  }
  return true;
}

std::string row_problem(const double* v, int dimensions, const World& world) {
  const std::vector<std::string>& names = columns_of(dimensions);
  for (int c = 0; c < 2 * dimensions; ++c) {
    if (!std::isfinite(v[c])) return names[c] + " = " + shortest(v[c]) + " is not finite";
  }
  const double side[3] = {world.width, world.height, world.depth};
  for (int axis = 0; axis < dimensions; ++axis) {
    // A world as large as a double (boids convert's, which knows no world) refuses only
    // positions below 0: said so, not against a side of 1.8e308.
    if (side[axis] == std::numeric_limits<double>::max() && v[axis] < 0) {
      return names[axis] + " = " + shortest(v[axis]) +
             " is negative: positions lie in [0, the world's side)";
    }
    if (!world.holds(axis, v[axis])) {
      return names[axis] + " = " + shortest(v[axis]) + " is outside the world [0, " +
             shortest(side[axis]) + ")";
    }
  }
  return {};
}

}  // namespace boids::state_rows
