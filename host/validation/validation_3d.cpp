// The validation's flocks in three dimensions (see validation.h): the 2D validation's cases
// carried into a box at the seed's mean neighbour count, and each variant of the 3D step.
#include <vector>

#include "host/validation/validation.h"
#include "host/validation/validation_flocks.h"

namespace boids {
namespace {

// A cube of side `side` with r = 5.
FlockParams cube(double side) {
  FlockParams p;
  p.dimensions = 3;
  p.radius = 5.0;
  p.world = World{side, side, Boundary::kTorus};
  p.world.depth = side;
  return p;
}

// 500 boids at 0.9 / r^3 (the seed's mean neighbour count, about 3.8 within r): a cube of side
// cbrt(500 r^3 / 0.9) = 41.1 at r = 5, 8 cells per axis.
constexpr double kSide = 41.1;

}  // namespace

std::vector<ValidationFlock> validation_flocks_3d() {
  // r = 16: 2 cells per axis; r = 25: 1, and r > L / 2, so offsets near +-L / 2 are neighbours.
  return standard_flocks(cube(kSide), 16, 25);
}

std::vector<ValidationFlock> variant_flocks_3d() {
  const FlockParams base = cube(kSide);
  const double mid = kSide / 2;
  VariantFlocks variants(base);
  variants.add("cone-240", [](FlockParams& p) { p.fov = 240; });
  variants.add("separation-radius-4", [](FlockParams& p) { p.separation_radius = 4; });
  variants.add("noise-1", [](FlockParams& p) { p.noise = 1.0; });
  variants.add("walls", [](FlockParams& p) { p.world.boundary = Boundary::kWalls; });
  variants.add("spheres", [&](FlockParams& p) {
    // the last across the box's corner
    p.obstacles = {Obstacle{10, 10, 6, mid}, Obstacle{30, 25, 5, 12}, Obstacle{1, 40, 4, 40}};
  });
  variants.add("goal-wind", [](FlockParams& p) {
    p.has_goal = true;
    p.goal = {8, 30, 20};
    p.goal_weight = 2;
    p.wind = {0.05, -0.03, 0.02};
  });
  variants.add("box-53x31x41", [](FlockParams& p) {
    p.world.width = 53;
    p.world.height = 31;
  });
  variants.add("steering", [](FlockParams& p) {
    p.model = Model::kSteering;
    p.separation = 1.6;
    p.cohesion = 0.9;
    p.max_speed = 30;  // half a unit a step at the lab's dt of 1/60
  });
  variants.add("steering-walls-cone-noise", [&](FlockParams& p) {
    p.model = Model::kSteering;
    p.max_speed = 30;
    p.world.boundary = Boundary::kWalls;
    p.fov = 270;
    p.noise = 0.5;
    p.obstacles = {Obstacle{mid, mid, 7, mid}};
  });
  variants.add("steering-goal-arrival", [&](FlockParams& p) {
    p.model = Model::kSteering;
    p.max_speed = 30;
    p.has_goal = true;
    p.goal = {mid, mid + 3, mid};
    p.goal_weight = 2;
    p.arrival_radius = 15;
  });
  variants.add("vicsek-noise-2", [](FlockParams& p) {
    p.model = Model::kVicsek;
    p.max_speed = 0.5;
    p.noise = 2.0;
  });
  variants.add("vicsek-walls-goal", [](FlockParams& p) {
    p.model = Model::kVicsek;
    p.max_speed = 0.5;
    p.world.boundary = Boundary::kWalls;
    p.has_goal = true;
    p.goal = {30, 20, 10};
    p.goal_weight = 0.5;
  });
  variants.add("wander-2", [](FlockParams& p) { p.wander = 2; });
  variants.add("nearest-7-fov", [](FlockParams& p) {
    p.nearest = 7;
    p.fov = 300;
  });
  variants.add("vicsek-nearest-3-walls", [](FlockParams& p) {
    p.model = Model::kVicsek;
    p.max_speed = 0.5;
    p.noise = 0.5;
    p.world.boundary = Boundary::kWalls;
    p.nearest = 3;
  });
  variants.add("steering-wander-walls", [](FlockParams& p) {
    p.model = Model::kSteering;
    p.max_speed = 30;
    p.world.boundary = Boundary::kWalls;
    p.wander = 1.5;
  });
  variants.add("path-closed", [&](FlockParams& p) {
    p.path = {{5, 5, 5}, {35, 8, mid}, {30, 35, 35}, {8, 30, mid}, {5, 5, 5}};
    p.path_radius = 4;
  });
  variants.add("steering-path-open-walls", [&](FlockParams& p) {
    p.model = Model::kSteering;
    p.max_speed = 30;
    p.world.boundary = Boundary::kWalls;
    p.path = {{4, mid, mid}, {mid, 4, mid}, {36, mid, 30}};
    p.path_weight = 2;
  });
  variants.add("steering-predators-walls", [&](FlockParams& p) {
    p.model = Model::kSteering;
    p.max_speed = 30;
    p.world.boundary = Boundary::kWalls;
    p.obstacles = {{mid, mid, 6, mid}};
    p.predators = 3;
  });
  return variants.flocks();
}

}  // namespace boids
