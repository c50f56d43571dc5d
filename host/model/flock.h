// A flock as the host sees it: the model and its parameters, and the state of every boid in
// double precision and input order. Backends keep their own copies in their own layout.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "host/model/models.h"
#include "kernels/world_terms.h"

namespace boids {

/// What lies at the world's edges: a torus (the boids model's), walls that turn boids back, or
/// nothing: open space, where boids fly where they like and the world's sides only bound the
/// region their random start is drawn from (docs/models.md, open space).
enum class Boundary { kTorus, kWalls, kOpen };

/// How a step updates the boids: all from the same snapshot (every backend), or one after the
/// other, each seeing the new state of those before it (the steering lab's own loop; the
/// reference backend only).
enum class Update { kSynchronous, kInPlace };

std::string to_string(Boundary boundary);
std::string to_string(Update update);
/// The names to_string gives, back; nullopt for any other.
std::optional<Boundary> parse_boundary(const std::string& name);
std::optional<Update> parse_update(const std::string& name);

/// The rectangle the boids live in: positions in [0, width) x [0, height), and [0, depth) in
/// three dimensions (a box). In open space, the region a random start fills; positions are
/// then any finite numbers.
struct World {
  double width = 100.0;
  double height = 100.0;
  Boundary boundary = Boundary::kTorus;
  double depth = 100.0;  ///< in 3D only

  bool torus() const { return boundary == Boundary::kTorus; }
  bool walled() const { return boundary == Boundary::kWalls; }
  bool open() const { return boundary == Boundary::kOpen; }
  /// The side along `axis` (0: width, 1: height, 2: depth).
  double side(int axis) const { return axis == 0 ? width : axis == 1 ? height : depth; }
  /// Whether a coordinate along `axis` lies in the world: in [0, side), or in open space any
  /// finite number (how far a flight may go is the precision's: open_reach,
  /// host/core/value_limits.h).
  bool holds(int axis, double x) const;
  bool square() const { return width == height; }
};

/// A disc (a sphere, in three dimensions) no boid may enter, and a point or a vector: values of
/// the world's terms' parameters, which their files declare (kernels/param_values.h).
using Obstacle = kernels::Disc;
using Vec3 = kernels::Vec3;

/// The model's parameters; the defaults are the published example's, and every variant is off.
/// The world's terms declare their own fields (their `Params`, kernels/terms/), which it
/// derives.
struct FlockParams : kernels::TermParams {
  Model model = Model::kBoids;
  int dimensions = 2;       ///< 2, or 3: the same rules in a box (docs/3d.md)
  double radius = 10.0;     ///< perception radius r
  double separation = 1.5;  ///< weight of the separation rule
  double alignment = 1.0;   ///< weight of the alignment rule
  double cohesion = 1.0;    ///< weight of the cohesion rule
  double max_speed = 1.0;   ///< v_max; under the Vicsek model, the constant speed V
  /// The floor of the speed clamp; < 0 means the model's own: v_max / 2 (0.35 v_max under
  /// steering). The Vicsek model's speed is constant.
  double min_speed = -1;
  World world;
  /// Separation acts closer than this; 0 means the model's own: r / 2 (0.45 r for steering).
  double separation_radius = 0.0;
  double fov = 360.0;  ///< field of view in degrees, (0, 360]: neighbours ahead only
  /// Topological neighbours (Ballerini et al. 2008): each boid heeds the K boids nearest to it
  /// that it sees, however far, ties to the lower index, in place of all it sees within r
  /// (docs/models.md); 0 is off. At most kMostNearest.
  int nearest = 0;
  double noise = 0.0;      ///< eta in radians, [0, 2 pi]: headings turn by U(-eta/2, eta/2)
  double dt = 1.0 / 60.0;  ///< time step of the timed models (steering, couzin); others step by 1
  Update update = Update::kSynchronous;
  /// Couzin et al. 2002's zones (--model couzin): a neighbour closer than repulsion_radius
  /// repels; in the orientation_width beyond it, it is aligned with; in the attraction_width
  /// beyond that, approached. Its perception radius (`radius`) follows: their sum. A heading
  /// turns by at most turn_rate degrees per unit of time.
  double repulsion_radius = 1;
  double orientation_width = 2;
  double attraction_width = 14;
  double turn_rate = 40;

  /// The defaults that follow from the other parameters, which 0 stands for in the fields
  /// above, and the values in effect.
  double model_separation_radius() const {
    return model == Model::kSteering ? radius * 0.45 : radius / 2;
  }
  double model_predator_speed() const { return 1.5 * max_speed; }
  double model_min_speed() const {
    return model == Model::kSteering ? max_speed * 0.35 : max_speed / 2;
  }
  double effective_min_speed() const { return min_speed >= 0 ? min_speed : model_min_speed(); }
  double model_flee_radius() const { return 2 * radius; }
  double effective_separation_radius() const {
    return separation_radius > 0 ? separation_radius : model_separation_radius();
  }
  double effective_wall_distance() const { return wall_distance > 0 ? wall_distance : radius; }
  double effective_path_radius() const { return path_radius > 0 ? path_radius : radius; }
  double effective_predator_speed() const {
    return predator_speed > 0 ? predator_speed : model_predator_speed();
  }
  double effective_flee_radius() const {
    return flee_radius > 0 ? flee_radius : model_flee_radius();
  }
  /// Whether the path returns to its start (its last point repeats its first).
  bool path_closed() const {
    return path.size() > 2 && path.front().x == path.back().x && path.front().y == path.back().y &&
           path.front().z == path.back().z;
  }
  /// A step's length in time: dt under a timed model (steering, couzin), else 1.
  double time_step() const { return spec_of(model).timed ? dt : 1.0; }
  /// Whether every option has its default, so that the step is exactly the published step.
  bool seed_model() const;
};

/// How far one step reaches, which the world's smaller side bounds (host/core/value_limits.h).
/// A step must stay below the side by kMoveMargin, so that rounding (of the parameters to float,
/// of the clamp, of the noise's rotation) cannot stretch it to the side.
inline constexpr double kMoveMargin = 1 + 0x1.0p-16;

/// The world's smallest side: of the box, in three dimensions.
double smaller_side(const FlockParams& params);

/// The wind's length.
double wind_length(const FlockParams& params);

/// The farthest one step can move a boid along an axis: v_max (boids: wind and the world's
/// terms act before the clamp), v_max * dt (steering), V + |wind| (Vicsek: wind drifts the
/// particles after their heading is set).
double furthest_move(const FlockParams& params);

/// Positions in the world and velocities, one entry per particle (structure of arrays, as in the
/// published step). In three dimensions z and vz too; in two they stay empty.
struct Particles {
  std::vector<double> x, y, vx, vy;
  std::vector<double> z, vz;
  int dimensions = 2;

  std::size_t size() const { return x.size(); }
  /// Its columns in the order files store them: x, y[, z], vx, vy[, vz].
  std::vector<std::vector<double>*> columns() {
    if (dimensions == 3) return {&x, &y, &z, &vx, &vy, &vz};
    return {&x, &y, &vx, &vy};
  }
  std::vector<const std::vector<double>*> columns() const {
    if (dimensions == 3) return {&x, &y, &z, &vx, &vy, &vz};
    return {&x, &y, &vx, &vy};
  }
  void resize(std::size_t count) {
    x.resize(count);
    y.resize(count);
    vx.resize(count);
    vy.resize(count);
    if (dimensions == 3) {
      z.resize(count);
      vz.resize(count);
    }
  }
};

/// A flock's state: its boids, in input order, and the predators that hunt them (as many as
/// FlockParams::predators; none without).
struct FlockState : Particles {
  Particles predators;
};

inline constexpr double kPi = 3.141592653589793;

/// Largest flock the engine accepts: indices are 32-bit on every backend.
inline constexpr std::uint64_t kMaxBoids = 2147483647;

/// Most obstacles a flight takes: every boid near an obstacle tests it each step, and a
/// checkpoint's header holds them all.
inline constexpr std::uint64_t kMaxObstacles = 100000;

/// Most points a path takes: every boid tests every segment each step.
inline constexpr std::uint64_t kMaxPathPoints = 100000;

/// The most topological neighbours a boid heeds (--nearest).
inline constexpr int kMaxNearest = 32;

/// The most predators a flight takes: every boid tests every predator each step.
inline constexpr int kMaxPredators = 1000;

/// Most steps a flight takes, counted from its start (10^18; a step of a single boid takes a
/// nanosecond, so no flight comes near it): the step counter, its sums with a run's or a
/// Python call's steps, and H5MD's int64 `step` stay far from wrapping.
inline constexpr std::uint64_t kMaxSteps = 1000000000000000000ULL;

}  // namespace boids
