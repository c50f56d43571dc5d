// The rules every flight obeys, wherever its options come from: the command line and the
// Python module (through host/config/flock_options.h), and a checkpoint's header, which a user
// can edit. One check on the resolved parameters, the precision and the backend, so that no
// way in flies what another refuses. Its messages name the command line's options.
#pragma once

#include <cstdint>
#include <string>

#include "host/core/config.h"
#include "host/model/flock.h"
#include "host/model/initial_state.h"

namespace boids {

// Throws InputError, naming the option, unless `params` can be flown in `precision`: every
// value well formed (positive radius, speed and world; weights >= 0; the field of view in
// (0, 360], the noise in [0, 2 pi]), each option with the variants it goes with (a wall
// distance between walls, a goal weight with a goal, the in-place update alone with the
// steering model and in two dimensions), the separation radius at most the radius, the goal and
// at most kMaxObstacles obstacles in the world, and every number in the ranges of `precision`
// (check_params, host/core/value_limits.h).
void check_flight_params(const FlockParams& params, Precision precision);

// The same, and the backend's own rules: the reference is naive and double only, and only the
// reference updates in place.
void check_flight(const SimulationConfig& config);

// Throws InputError naming `what` when `steps` exceeds kMaxSteps.
void check_steps(const std::string& what, std::uint64_t steps);

// How far a start may stray from the rules by its precision's rounding: a float flight's
// Vicsek speeds are V to a few float roundings, so that a state it saved starts again.
StateTolerance start_tolerance(Precision precision);

// The same for a flight in progress (a checkpoint, a flock whose obstacles change): its boids
// may also lie at an obstacle's edge by the rounding of the precision's own test.
StateTolerance flight_tolerance(const SimulationConfig& config);

}  // namespace boids
