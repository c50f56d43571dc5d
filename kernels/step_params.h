// The constants of one step, as the kernels see them: built once on the host per run (see
// step_params_of in host/backends/flock_layout.h), the step number set before each step.
// Every variant has a switch here that makes it free when off.
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

template <typename Real>
struct StepParams {
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

  // Noise: each heading turns by an angle uniform in [-noise / 2, noise / 2] (in 3D, to a
  // direction uniform within the cone of half-angle noise / 2), drawn from (noise_key, step,
  // the boid's input index).
  bool has_noise;
  Real noise;
  // The couzin model's noise: a turn by a Gaussian angle of s.d. `noise` (noise_gaussian_turn),
  // where the others' is uniform.
  bool gaussian_noise;
  std::uint64_t noise_key;
  std::uint64_t step;
  // Where the flock is part of a larger one (a rank's boids and ghosts under MPI), the input
  // index in the whole flock of each of its boids, which keys its noise; null: its own index.
  const index_t* noise_ids;

  // The world's terms, each off unless asked for.
  bool world_terms;    // walls (pushing), obstacles, a goal, wander or a path: any of them
  Real wall_distance;  // walls push boids closer than this
  bool has_goal;
  Real goal[3], goal_weight;
  Real arrival_radius;  // the pull shortens within it of the goal (seek_goal); 0: off
  // Reynolds' wander (wander_lanes): each boid steers across its heading along a drift that
  // wanders at random, keyed by (noise_key, step, the boid's input index) as the noise is.
  // Its gain: kWanderGain * weight * v_max (boids), weight * v_max (steering). On, it is one
  // of the world's terms.
  bool has_wander;
  Real wander_gain;
  // Reynolds' path following (follow_path): a boid predicted to leave the path's radius heads
  // for the point of the path a lookahead beyond its nearest one. Off without points.
  const PathPoint<Real>* path;
  index_t path_count;  // points (0: no path)
  bool path_closed;    // the target wraps past the end to the start; else stops at the end
  Real path_radius_sq;
  Real path_gain;       // kPathGain * weight * v_max (boids), the weight (steering)
  Real path_lookahead;  // kPathLookahead * dt
  bool has_wind;
  Real wind[3];                     // added to the velocity every step, times dt
  const Obstacle<Real>* obstacles;  // all of them
  index_t obstacle_count;
  // On CPU threads, the obstacles near a block of boids (narrow_obstacles,
  // kernels/terms/obstacles.h): the only ones that can push those boids or hold them after a move
  // of at most near_travel. Null: all of them.
  const Obstacle<Real>* near_obstacles;
  index_t near_count;
  Real near_travel;
  // Predators as agents (kernels/pursuit.h): `predators` holds predator_count of them as boids
  // of the step's dimension (Boid<Real, D>, read through predators_of). Boids within
  // flee_radius of one steer away from where it will be, a world's term (evade_predators).
  const void* predators;
  index_t predator_count;  // 0: none
  Real flee_radius;
  Real evade_gain;      // kEvadeGain v_max (boids), the maximum force (steering)
  Real predator_speed;  // a predator's top speed
  Real predator_force;  // the most its steering changes its velocity, per unit of time
};

}  // namespace boids::kernels
