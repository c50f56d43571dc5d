#include "host/core/flight_rules.h"

#include <cmath>
#include <utility>

#include "host/base/errors.h"
#include "host/base/message_text.h"
#include "host/core/value_limits.h"

namespace boids {
namespace {

void refuse_if(bool refused, const std::string& message) {
  if (refused) throw InputError(message);
}

bool finite_vector(const Vec3& v) {
  return std::isfinite(v.x) && std::isfinite(v.y) && std::isfinite(v.z);
}

// Each value as the command line's parser would have taken it: what a checkpoint's header can
// hold and no option can give.
void check_well_formed(const FlockParams& p) {
  refuse_if(p.dimensions != 2 && p.dimensions != 3,
            "--dimensions: expected 2 or 3, got " + std::to_string(p.dimensions));
  const auto positive = [](const char* option, double value) {
    refuse_if(!(std::isfinite(value) && value > 0),
              std::string(option) + ": expected a number > 0, got " + number_text(value));
  };
  const auto non_negative = [](const char* option, double value) {
    refuse_if(!(std::isfinite(value) && value >= 0),
              std::string(option) + ": expected a number >= 0, got " + number_text(value));
  };
  positive("--world", p.world.width);
  positive("--world", p.world.height);
  if (p.dimensions == 3) positive("--world", p.world.depth);
  positive("--radius", p.radius);
  positive(p.model == Model::kVicsek ? "--speed" : "--max-speed", p.max_speed);
  positive("--dt", p.dt);
  non_negative("--separation", p.separation);
  non_negative("--alignment", p.alignment);
  non_negative("--cohesion", p.cohesion);
  non_negative("--separation-radius", p.separation_radius);
  non_negative("--wall-distance", p.wall_distance);
  non_negative("--goal-weight", p.goal_weight);
  non_negative("--arrival-radius", p.arrival_radius);
  non_negative("--wander", p.wander);
  non_negative("--path-radius", p.path_radius);
  non_negative("--path-weight", p.path_weight);
  refuse_if(!(p.fov > 0 && p.fov <= 360),
            "--fov: expected a number in (0, 360], got " + number_text(p.fov));
  refuse_if(p.nearest < 0 || p.nearest > kMaxNearest, "--nearest: expected a whole number in [0, " +
                                                          std::to_string(kMaxNearest) + "], got " +
                                                          std::to_string(p.nearest));
  refuse_if(p.predators < 0 || p.predators > kMaxPredators,
            "--predators: expected a whole number in [0, " + std::to_string(kMaxPredators) +
                "], got " + std::to_string(p.predators));
  non_negative("--predator-speed", p.predator_speed);
  non_negative("--flee-radius", p.flee_radius);
  refuse_if(!(p.noise >= 0 && p.noise <= 2 * kPi),
            "--noise: expected radians in [0, 2 pi], got " + number_text(p.noise));
  refuse_if(!finite_vector(p.wind), "--wind: expected finite numbers");
  refuse_if(!finite_vector(p.goal), "--goal: expected finite numbers");
}

// Whether a point lies in the world (its first `dimensions` coordinates).
bool in_world(double x, double y, double z, const FlockParams& p) {
  return x >= 0 && x < p.world.width && y >= 0 && y < p.world.height &&
         (p.dimensions == 2 || (z >= 0 && z < p.world.depth));
}

// The in-place update: the steering lab's own loop, alone. (Options another model ignores, such
// as the weights under Vicsek, are left to the command line, which refuses them as given.)
void check_in_place(const FlockParams& p) {
  const FlockParams defaults;
  if (p.update != Update::kInPlace) return;
  refuse_if(p.dimensions == 3, "--update: not yet in three dimensions (docs/3d.md)");
  refuse_if(p.model != Model::kSteering,
            "--update in-place: only the steering lab's loop updates in place (--model steering)");
  const bool wind = p.wind.x != 0 || p.wind.y != 0 || p.wind.z != 0;
  refuse_if(p.fov != defaults.fov || p.noise != 0 || p.has_goal || wind || !p.obstacles.empty() ||
                !p.world.torus() || p.wander > 0 || !p.path.empty() || p.nearest > 0 ||
                p.predators > 0,
            "--update in-place is the steering lab's own loop, which has no field of view, "
            "noise, goal, wind, obstacles, walls, wander, path, nearest neighbours or "
            "predators");
}

// The variants' options against each other and against the world.
void check_variants(const FlockParams& p) {
  const FlockParams defaults;
  refuse_if(p.separation_radius > p.radius,
            "--separation-radius: expected a number in (0, radius = " + number_text(p.radius) +
                "], got " + number_text(p.separation_radius));
  refuse_if(p.wall_distance != 0 && p.world.torus(), "--wall-distance needs --boundary walls");
  refuse_if(!p.has_goal && p.goal_weight != defaults.goal_weight, "--goal-weight needs --goal X,Y");
  refuse_if(p.has_goal && !in_world(p.goal.x, p.goal.y, p.goal.z, p),
            "--goal: the point lies outside the world");
  refuse_if(!p.has_goal && p.arrival_radius > 0, "--arrival-radius needs --goal X,Y");
  refuse_if(p.arrival_radius > 0 && p.model != Model::kSteering,
            std::string("--arrival-radius: arrival slows the steering model alone (--model "
                        "steering); under ") +
                (p.model == Model::kVicsek ? "vicsek every boid flies at the constant speed V"
                                           : "boids the speed is held in [v_max/2, v_max]"));
  refuse_if(p.path.empty() && p.path_radius != defaults.path_radius,
            "--path-radius needs --path FILE");
  refuse_if(p.path.empty() && p.path_weight != defaults.path_weight,
            "--path-weight needs --path FILE");
  refuse_if(!p.path.empty() && p.model == Model::kVicsek,
            "--path: path following steers the boids and steering models; under vicsek a "
            "heading only aligns and turns by the noise (--noise)");
  refuse_if(p.path.size() == 1 || p.path.size() > kMaxPathPoints,
            "--path: a path has 2 to " + std::to_string(kMaxPathPoints) + " points, got " +
                std::to_string(p.path.size()));
  for (std::size_t k = 0; k < p.path.size(); ++k) {
    const Vec3& point = p.path[k];
    const std::string name = "--path: point " + std::to_string(k + 1);
    refuse_if(!in_world(point.x, point.y, point.z, p), name + ": it lies outside the world");
    refuse_if(k > 0 && point.x == p.path[k - 1].x && point.y == p.path[k - 1].y &&
                  point.z == p.path[k - 1].z,
              name + ": the same point as the one before it");
  }
  refuse_if(p.wander > 0 && p.model == Model::kVicsek,
            "--wander: wander steers the boids and steering models; under vicsek a heading "
            "only aligns and turns by the noise (--noise)");
  refuse_if(p.predators > 0 && p.model == Model::kVicsek,
            "--predators: boids flee predators under the boids and steering models; under "
            "vicsek a heading only aligns and turns by the noise (--noise)");
  refuse_if(p.predators == 0 && p.predator_speed != defaults.predator_speed,
            "--predator-speed needs --predators K");
  refuse_if(p.predators == 0 && p.flee_radius != defaults.flee_radius,
            "--flee-radius needs --predators K");
  refuse_if(p.obstacles.size() > kMaxObstacles, "--obstacles: more than " +
                                                    std::to_string(kMaxObstacles) + " obstacles (" +
                                                    std::to_string(p.obstacles.size()) + ")");
  for (std::size_t k = 0; k < p.obstacles.size(); ++k) {
    const Obstacle& o = p.obstacles[k];
    const std::string name = "--obstacles: obstacle " + std::to_string(k + 1);
    refuse_if(!in_world(o.x, o.y, o.z, p), name + ": its centre lies outside the world");
    refuse_if(!(std::isfinite(o.radius) && o.radius > 0),
              name + ": radius = " + number_text(o.radius) + " is not > 0");
  }
}

}  // namespace

void check_flight_params(const FlockParams& p, Precision precision) {
  check_well_formed(p);
  check_in_place(p);
  check_variants(p);
  check_params(p, precision);
}

void check_flight(const SimulationConfig& config) {
  check_flight_params(config.params, config.precision);
  const bool reference = config.backend == Backend::kReference;
  refuse_if(reference && config.method != Method::kNaive,
            "--method hashed: the reference backend has only the naive method");
  refuse_if(reference && config.precision != Precision::kDouble,
            "--precision float: the reference backend computes in double precision only");
  refuse_if(!reference && config.params.update == Update::kInPlace,
            "--update in-place: only the reference backend runs the lab's own loop; every other "
            "backend updates synchronously");
}

void check_steps(const std::string& what, std::uint64_t steps) {
  refuse_if(steps > kMaxSteps, what + ": " + std::to_string(steps) +
                                   " steps is more than a flight takes (at most " +
                                   std::to_string(kMaxSteps) + ", 10^18)");
}

StateTolerance start_tolerance(Precision precision) {
  // A few hundred roundings of each precision: float's speeds stray by about 1e-7.
  return {precision == Precision::kFloat ? 1e-5 : 1e-9, 0};
}

StateTolerance flight_tolerance(const SimulationConfig& config) {
  StateTolerance tolerance = start_tolerance(config.precision);
  // The kernels test an obstacle in the flight's precision, with the centre and the boid
  // rounded to it: a boid they find just outside may lie just inside by a double's test, by
  // about a rounding of the world's coordinates.
  const World& w = config.params.world;
  const double sides = w.width + w.height + (config.params.dimensions == 3 ? w.depth : 0);
  tolerance.edge = sides * (config.precision == Precision::kFloat ? 1e-5 : 1e-12);
  return tolerance;
}

}  // namespace boids
