// The ranges of the numbers boids accepts, under each precision: every parameter, and the
// velocities of a state file. Within them no square, product or sum that a step or a metric
// takes (in the kernels or the reference) overflows, no nonzero parameter rounds to 0 or to a
// subnormal, and no step carries a boid across the world, so that every position ends in the
// world and every number stays finite. No sensible flock comes near them.
#pragma once

#include <cstddef>
#include <functional>
#include <string>

#include "host/core/config.h"
#include "host/model/flock.h"

namespace boids {

struct ValueLimits {
  // Lengths, speeds, wind, the goal, obstacles and the time step: nonzero magnitudes in
  // [smallest, largest]. Squares of lengths and products of two of them stay finite and
  // normal, and so do products of four (the field of view's test).
  double smallest;
  double largest;
  double largest_weight;       // the rules' and the goal's weights
  double largest_state_speed;  // a state file's velocity components: clamped by the first step
};

// double: [1e-60, 1e60], weights up to 1e6, state velocities up to 1e250 (so that the sums of
// 2^31 of them, times a weight, stay finite). float: [1e-9, 1e9] (its squares and products of
// four stay within float's normal range), weights up to 1e6, state velocities up to 1e20.
ValueLimits value_limits(Precision precision);

// Throws InputError, naming the option, when a parameter lies outside the ranges of
// `precision`, or when one step could carry a boid across the world (or across the box
// between walls), or an obstacle is as wide as the world.
void check_params(const FlockParams& params, Precision precision);

// How far from the origin, along any axis, the boids of open space may fly in `precision`:
// 2^14 radii in float, where a position still resolves the radius to 1/512 and the cells need
// widen by under 4 % to cover the rounding of their keys; 2^19 in double, as far as a cell's
// coordinates fit its key (kernels/open_cells.h).
double open_reach(Precision precision, double radius);

// Throws InputError when a boid of `state` lies beyond open_reach along some axis: the flight
// stops at the last step it could take whole.
void check_open_reach(const FlockState& state, Precision precision, double radius);

// Throws InputError naming `option` unless `side`, a side of the world, lies within the ranges
// of `precision` (as check_params holds --world's sides): for a side another option made.
void check_world_side(const std::string& option, double side, Precision precision);

// Throws InputError naming a velocity component beyond `precision`'s largest_state_speed:
// where(i, axis) names boid i's component `axis` (0: vx, 1: vy) for the message, e.g. "state,
// row 7" (a state file's line and column: host/io/state_file.h).
void check_state_values(const FlockState& state, Precision precision,
                        const std::function<std::string(std::size_t, int)>& where);

}  // namespace boids
