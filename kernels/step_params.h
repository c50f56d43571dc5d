// The constants of one step that are no term's, as the kernels see them, and the gains of the
// models and the world's terms. The whole of the step's constants, StepParams, adds each
// term's slice (kernels/world_terms.h).
#pragma once

#include "kernels/host_device.h"

namespace boids::kernels {

// The boids model's fixed gains: they put the three rules on comparable scales.
inline constexpr double kSeparationGain = 0.05;
inline constexpr double kAlignmentGain = 0.05;
inline constexpr double kCohesionGain = 0.005;

// What the world adds under the boids model, as velocity changes in units of v_max per step:
// walls and obstacles push at most kAvoidGain (at their very edge, falling linearly to 0 at the
// avoidance distance), the goal pulls with kGoalGain per unit of its weight.
inline constexpr double kAvoidGain = 0.1;
inline constexpr double kGoalGain = 0.02;
// Wander turns a boids-model boid by at most kWanderGain v_max per unit of its weight each
// step (the steering model's wander is a force of up to its weight times v_max).
inline constexpr double kWanderGain = 0.05;
// Path following steers a boids-model boid by kPathGain v_max per unit of its weight each step,
// as hard as a wall pushes (the steering model seeks at the cruise speed, as for the goal), and
// looks kPathLookahead steps ahead (times dt) to predict where the boid will be and where on
// the path to head.
inline constexpr double kPathGain = 0.1;
inline constexpr double kPathLookahead = 10;
// Predators as agents: a boids-model boid within the flee radius of a predator turns away by
// up to kEvadeGain v_max a step, as hard as a wall pushes (a steering-model boid with up to its
// maximum force); a predator of the boids model changes its velocity by at most
// kPredatorAgility times its top speed a step (of the steering model, by its boids' maximum
// force in proportion to its own top speed, per unit of time).
inline constexpr double kEvadeGain = 0.1;
inline constexpr double kPredatorAgility = 0.1;

// The steering model's constants: separation steers 1.5 times as hard as its
// weight says, the summed steering is at most 2.4 v_max per unit of time, and separation
// ignores neighbours closer than 1e-3 (d^2 <= 1e-6). Its least speed, 0.35 v_max by default,
// is a parameter (min_speed).
inline constexpr double kSteeringSeparationFactor = 1.5;
inline constexpr double kMaxForceFactor = 2.4;
inline constexpr double kSteeringTiny = 1e-6;

// A disc in 2D, a sphere in 3D (its centre's third coordinate then read).
template <typename Real>
struct Obstacle {
  Real centre[3];
  Real radius;
};

// A point of a path, and the path's length from its first point to it. A closed path repeats
// its first point at its end, so that a path of n points has n - 1 segments either way.
template <typename Real>
struct PathPoint {
  Real at[3];
  Real from_start;
};

// What every step's constants hold whatever terms act: the world, perception, the rules'
// speeds and gains, the couzin model's zones, and the noise's key and the step. The whole of
// the step's constants, StepParams (kernels/world_terms.h), adds each term's own slice (its
// `Constants`, declared in its file of kernels/terms/).
template <typename Real>
struct StepCore {
  // The world: a W x H rectangle or a W x H x D box (the kernels' dimension says which axes
  // are read), a torus or closed by walls; or open space, where nothing wraps and no wall
  // stands (the sides then only bounded the random start).
  Real side[3];       // W, H, D
  Real half_side[3];  // W / 2, H / 2, D / 2: the largest wrapped offsets
  bool torus;
  bool open;

  // Perception.
  Real radius_sq;                // r^2: neighbours are closer than r (steering: not farther)
  Real separation_sq;            // separation acts closer than the separation radius
  bool limited_view;             // a field of view under 360 degrees
  Real cos_half_view;            // c = cos(fov / 2): a neighbour is seen if d.v >= c |d||v|
  Real signed_cos_sq_half_view;  // c |c|, for the test without a square root (see in_view)
  // Topological neighbours: each boid heeds the `nearest` boids nearest to it that it sees,
  // however far (kernels/nearest_step.h); 0: every boid it sees within r.
  int nearest;

  // Speeds, gains, time. Boids: gains are weight * K; steering: the weights themselves.
  Real max_speed;  // v_max (the Vicsek model's constant speed V)
  Real min_speed;  // the clamp's floor: v_max / 2 (boids), 0.35 v_max (steering) by default
  Real max_force;  // steering: 2.4 v_max
  Real separation_gain;
  Real alignment_gain;
  Real cohesion_gain;
  Real dt;  // 1 for boids and Vicsek

  // The couzin model's zones and turn (kernels/models/couzin.h): repulsion closer than the
  // repulsion radius, orientation closer than the orientation zone's edge, attraction within r;
  // a heading turns by at most the angle of (cos_turn, sin_turn) a step, where limited_turn.
  Real repulsion_sq;
  Real orientation_sq;
  bool limited_turn;
  Real cos_turn, sin_turn;

  // The key of the run's draws (the noise's, wander's), from its seed, and the steps taken.
  std::uint64_t noise_key;
  std::uint64_t step;
  // Where the flock is part of a larger one (a rank's boids and ghosts under MPI), the input
  // index in the whole flock of each of its boids, which keys its draws; null: its own index.
  const index_t* noise_ids;

  // Whether any of the world's terms acts (WorldTerms): else a step computes none of them.
  bool world_terms;
};

// The step's constants, and what the world's terms write for a block of boids: defined in
// kernels/world_terms.h from the lists of terms, each term adding its own slice.
template <typename Real>
struct StepParams;
template <typename Real, int Lanes, int D>
struct LaneTerms;

}  // namespace boids::kernels
