// What state files and obstacle files share: their columns, and whether a row of numbers can
// be a boid (finite values, a position in the world), with the words that say why not.
#pragma once

#include <string>
#include <vector>

#include "host/model/flock.h"

namespace boids::state_rows {

// x, y, vx, vy, or x, y, z, vx, vy, vz.
const std::vector<std::string>& columns_of(int dimensions);

// Whether a row of a state in `dimensions` (positions, then velocities) can be a boid.
bool acceptable_row(const double* v, int dimensions, const World& world);

// Why such a row cannot be a boid: the first value that is not finite, or a position outside
// the world; empty when it can.
std::string row_problem(const double* v, int dimensions, const World& world);

}  // namespace boids::state_rows
