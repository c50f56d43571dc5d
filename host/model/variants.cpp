#include "host/model/variants.h"

#include <algorithm>

#include "host/model/param_table.h"

namespace boids {
namespace {

// A point at fractions of the world's sides (z read in three dimensions only).
Vec3 at(const FlockParams& p, double fx, double fy, double fz) {
  return {fx * p.world.width, fy * p.world.height, p.dimensions == 3 ? fz * p.world.depth : 0.0};
}

// A disc (a sphere) at fractions of the sides, its radius a fraction of the smaller side.
Obstacle disc(const FlockParams& p, double fx, double fy, double fz, double size) {
  const Vec3 c = at(p, fx, fy, fz);
  return Obstacle{c.x, c.y, size * smaller_side(p), c.z};
}

// Three obstacles of different sizes, the last across the world's corner.
void three_obstacles(FlockParams& p) {
  p.obstacles = {disc(p, 0.3, 0.3, 0.5, 0.08), disc(p, 0.7, 0.55, 0.3, 0.12),
                 disc(p, 0.02, 0.98, 0.98, 0.06)};
}

void goal_at(FlockParams& p, double fx, double fy, double fz, double weight) {
  p.has_goal = true;
  p.goal = at(p, fx, fy, fz);
  p.goal_weight = weight;
}

void walls(FlockParams& p) {
  p.world.boundary = Boundary::kWalls;
}

void open_space(FlockParams& p) {
  p.world.boundary = Boundary::kOpen;
}

std::vector<Variant> make_catalogue() {
  const Model boids = Model::kBoids, steering = Model::kSteering, vicsek = Model::kVicsek,
              couzin = Model::kCouzin;
  return {
      {"seed", boids, "the published step", [](FlockParams&) {}},
      {"fov", boids, "--fov 240", [](FlockParams& p) { p.fov = 240; }},
      {"separation-radius", boids, "--separation-radius 0.8 r",
       [](FlockParams& p) { p.separation_radius = 0.8 * p.radius; }},
      {"noise", boids, "--noise 1", [](FlockParams& p) { p.noise = 1; }},
      {"walls", boids, "--boundary walls", walls},
      {"obstacles", boids, "three obstacles, one across the world's corner", three_obstacles},
      {"goal-wind", boids, "a goal of weight 2 and a wind of 0.05 v_max",
       [](FlockParams& p) {
         goal_at(p, 0.2, 0.8, 0.5, 2);
         p.wind = {0.05 * p.max_speed, -0.03 * p.max_speed, 0.02 * p.max_speed};
       }},
      {"rectangle", boids, "a world 1.3 times as wide and 0.7 times as high",
       [](FlockParams& p) {
         p.world.width *= 1.3;
         p.world.height *= 0.7;
       }},
      {"wander", boids, "--wander 2", [](FlockParams& p) { p.wander = 2; }},
      {"path-closed", boids, "a closed path of four segments, --path-radius 1.2 r",
       [](FlockParams& p) {
         p.path = {at(p, 0.2, 0.2, 0.12), at(p, 0.8, 0.25, 0.5), at(p, 0.7, 0.85, 0.85),
                   at(p, 0.15, 0.7, 0.5), at(p, 0.2, 0.2, 0.12)};
         p.path_radius = 1.2 * p.radius;
       }},
      {"nearest-7-fov", boids, "--nearest 7 --fov 300",
       [](FlockParams& p) {
         p.nearest = 7;
         p.fov = 300;
       }},
      {"predators-walls-obstacle", boids, "--predators 4 between walls, around an obstacle",
       [](FlockParams& p) {
         p.predators = 4;
         walls(p);
         p.obstacles = {disc(p, 0.5, 0.5, 0.5, 0.1)};
       }},
      {"all", boids, "fov, noise, walls, obstacles, goal and wind at once",
       [](FlockParams& p) {
         p.fov = 270;
         p.noise = 1;
         walls(p);
         three_obstacles(p);
         goal_at(p, 1.0 / 3, 1.0 / 3, 1.0 / 3, 1);
         p.wind = {0.05 * p.max_speed, 0.02 * p.max_speed, 0};
       }},
      {"steering", steering, "the steering model", [](FlockParams&) {}},
      {"steering-walls-fov-noise", steering, "walls, --fov 270, --noise 0.5 and an obstacle",
       [](FlockParams& p) {
         walls(p);
         p.fov = 270;
         p.noise = 0.5;
         p.obstacles = {disc(p, 0.5, 0.5, 0.5, 0.1)};
       }},
      {"steering-goal-arrival", steering, "a goal of weight 2 and an arrival radius",
       [](FlockParams& p) {
         goal_at(p, 0.55, 0.45, 0.5, 2);
         p.arrival_radius = 0.3 * smaller_side(p);  // most of the flock slowed by its distance
       }},
      {"steering-wander-walls", steering, "--wander 1.5 between walls",
       [](FlockParams& p) {
         walls(p);
         p.wander = 1.5;
       }},
      {"steering-path-open-walls", steering, "an open path of weight 2 between walls",
       [](FlockParams& p) {
         walls(p);
         p.path = {at(p, 0.1, 0.5, 0.5), at(p, 0.5, 0.2, 0.5), at(p, 0.9, 0.6, 0.75)};
         p.path_weight = 2;
       }},
      {"steering-predators", steering, "--predators 2 --flee-radius 6 r",
       [](FlockParams& p) {
         p.predators = 2;
         p.flee_radius = 6 * p.radius;
       }},
      {"vicsek", vicsek, "the Vicsek model with --noise 2", [](FlockParams& p) { p.noise = 2; }},
      {"vicsek-walls-goal", vicsek, "walls and a goal of weight 0.5",
       [](FlockParams& p) {
         walls(p);
         goal_at(p, 0.6, 0.4, 0.25, 0.5);
       }},
      {"vicsek-nearest-3-walls", vicsek, "--nearest 3 --noise 0.5 between walls",
       [](FlockParams& p) {
         walls(p);
         p.noise = 0.5;
         p.nearest = 3;
       }},
      // New variants go last, so that those before keep their validation flocks' seeds.
      {"min-speed", boids, "--min-speed 0.1 v_max and --noise 2: slow boids kept slow",
       [](FlockParams& p) {
         p.min_speed = 0.1 * p.max_speed;
         p.noise = 2;
       }},
      {"steering-min-speed", steering, "--min-speed 0 (no floor) between walls",
       [](FlockParams& p) {
         p.min_speed = 0;
         walls(p);
       }},
      {"couzin", couzin, "the couzin model's published zones, turn, blind angle and noise",
       [](FlockParams&) {}},
      {"couzin-walls-turn", couzin, "between walls, --noise 0.4 --turn-rate 300 --fov 360",
       [](FlockParams& p) {
         walls(p);
         p.noise = 0.4;
         p.turn_rate = 300;
         p.fov = 360;
       }},
      {"couzin-no-orientation", couzin, "--orientation-width 0: repulsion and attraction alone",
       [](FlockParams& p) {
         p.attraction_width += p.orientation_width;
         p.orientation_width = 0;
       }},
      {"open", boids, "--boundary open: no edges, the start drawn in the world's region",
       open_space},
      {"open-obstacles-goal", boids, "open space around an obstacle, a goal and --noise 1",
       [](FlockParams& p) {
         open_space(p);
         p.obstacles = {disc(p, 0.5, 0.5, 0.5, 0.1)};
         goal_at(p, 1.5, -0.5, 0.5, 1);
         p.noise = 1;
       }},
      {"steering-open-wander", steering, "open space with --wander 1.5",
       [](FlockParams& p) {
         open_space(p);
         p.wander = 1.5;
       }},
      {"vicsek-open", vicsek, "open space with --noise 1",
       [](FlockParams& p) {
         open_space(p);
         p.noise = 1;
       }},
      {"couzin-open", couzin, "open space, the published zones", open_space},
  };
}

}  // namespace

const std::vector<Variant>& variant_catalogue() {
  static const std::vector<Variant> catalogue = make_catalogue();
  return catalogue;
}

const Variant* find_variant(const std::string& name) {
  for (const Variant& v : variant_catalogue()) {
    if (name == v.name) return &v;
  }
  return nullptr;
}

std::string variant_names() {
  std::string names;
  for (const Variant& v : variant_catalogue())
    names += (names.empty() ? "" : ", ") + std::string(v.name);
  return names;
}

FlockParams variant_params(const Variant& variant, const FlockParams& base) {
  FlockParams p = base;
  p.model = variant.model;
  if (variant.model == Model::kSteering) {
    p.separation = 1.6;
    p.cohesion = 0.9;
    p.max_speed = 30 * base.max_speed;  // half a unit of r = 1 a step at the lab's dt of 1/60
  }
  if (variant.model == Model::kVicsek) p.max_speed = base.max_speed / 2;
  if (variant.model == Model::kCouzin) {  // the published zones, turn and noise, within r
    const FlockParams published = model_defaults(Model::kCouzin, 1);
    p.repulsion_radius = base.radius / 5;
    p.orientation_width = 0.3 * base.radius;
    p.attraction_width = 0.5 * base.radius;
    p.max_speed = published.max_speed;
    p.dt = published.dt;
    p.turn_rate = published.turn_rate;
    p.fov = published.fov;
    p.noise = published.noise;
  }
  variant.apply(p);
  settle_model(p);
  return p;
}

}  // namespace boids
