// The random start: positions uniform on the torus, headings uniform on the circle, speed
// v_max. Boid i's start depends only on (seed, i), so every backend and thread count starts
// from the same flock, and a flock of n boids is the first n boids of any larger one.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>

#include "host/model/flock.h"

namespace boids {

/// A counter-based generator: 64 random bits for draw `draw` of boid `boid` under `seed`.
/// SplitMix64's finaliser applied to a key and a counter; no state, no sequence.
std::uint64_t random_bits(std::uint64_t seed, std::uint64_t boid, std::uint64_t draw);

/// Uniform in [0, 1) with 53 random bits.
double random_unit(std::uint64_t seed, std::uint64_t boid, std::uint64_t draw);

/// Positions uniform in the world (redrawn, with draws of their own, while inside an
/// obstacle, at most kStartRedraws times a boid), headings uniform on the circle, speed v_max
/// (the Vicsek model's V). Throws InputError ("the obstacles ...") when the obstacles cover the
/// whole world, or a boid finds no free place in kStartRedraws draws. With the predators of
/// make_initial_predators.
FlockState make_initial_state(std::uint64_t count, std::uint64_t seed, const FlockParams& params);

/// The predators of a flight's start (FlockParams::predators; none without): drawn as boids
/// are, from the seed salted for them, at the predators' top speed.
Particles make_initial_predators(std::uint64_t seed, const FlockParams& params);

/// Boids first .. first + count - 1 of the random start of `seed` (as make_initial_state draws
/// them): a rank of an MPI run draws its own stripe of the flock.
FlockState make_initial_boids(std::uint64_t first, std::uint64_t count, std::uint64_t seed,
                              const FlockParams& params);

/// The draws a boid of the random start takes, at most, to find a place no obstacle holds.
inline constexpr std::uint64_t kStartRedraws = 100000;

/// How far a given state may stray from the rules by rounding: the relative difference of a
/// Vicsek speed from V, and how deep inside an obstacle's edge a boid may lie (0 for a start;
/// a flight in progress holds its precision's rounding, host/core/flight_rules.h).
struct StateTolerance {
  double speed = 1e-9;
  double edge = 0;
};

/// Boid i's speed, as a constant-speed model's start is held to it: hypot in the plane (no
/// overflow or underflow in its squares), the root of the squares' sum in a box.
double speed_of(const FlockState& state, std::size_t i);

/// Throws InputError when a given start cannot be flown under `params`: a boid outside the world
/// or inside an obstacle, or, under the Vicsek model, not at the speed V.
/// `first`: the index of the state's first boid in the whole start, for the messages (a rank's
/// part of a start file).
void check_start(const FlockState& state, const FlockParams& params,
                 const StateTolerance& tolerance = {}, std::uint64_t first = 0);

/// Throws InputError unless `predators` can fly under `params`: as many as it asks for, each
/// in the world, out of the obstacles (by more than `tolerance.edge`) and no faster than the
/// predators' top speed (to `tolerance.speed`, relative).
void check_predator_state(const Particles& predators, const FlockParams& params,
                          const StateTolerance& tolerance = {});

/// The first particle that an obstacle of `params` holds by more than `edge`, if any.
std::optional<std::size_t> first_boid_in_an_obstacle(const Particles& state,
                                                     const FlockParams& params, double edge = 0);

/// The first particle outside [0, side) along some axis of `world` (NaN included), if any.
std::optional<std::size_t> first_outside_the_world(const Particles& particles, const World& world);

/// Throws InputError unless a start in `dimensions` can fly under `params`.
void check_start_dimensions(int dimensions, const FlockParams& params);

}  // namespace boids
