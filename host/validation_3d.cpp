// The validation's flocks in three dimensions (see validation.h): the 2D validation's cases
// carried into a box at the seed's mean neighbour count, and each variant of the 3D step.
#include <cmath>
#include <string>
#include <utility>
#include <vector>

#include "host/initial_state.h"
#include "host/validation.h"

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
  const FlockParams dense = cube(kSide);
  FlockParams r16 = dense;
  r16.radius = 16.0;  // 2 cells per axis
  FlockParams r25 = dense;
  r25.radius = 25.0;  // 1 cell per axis; r > L / 2, so offsets near +-L / 2 are neighbours

  std::vector<ValidationFlock> flocks;
  flocks.push_back({"random", dense, make_initial_state(500, 1, dense)});
  flocks.push_back(
      {"flocked", dense, reference_state(make_initial_state(500, 2, dense), dense, 300)});
  flocks.push_back({"2-cells-r16", r16, make_initial_state(200, 3, r16)});
  flocks.push_back({"1-cell-r25", r25, make_initial_state(200, 4, r25)});
  return flocks;
}

std::vector<ValidationFlock> variant_flocks_3d() {
  const FlockParams base = cube(kSide);
  const double mid = kSide / 2;
  std::vector<std::pair<std::string, FlockParams>> variants;
  const auto add = [&](const std::string& name, auto&& change) {
    FlockParams p = base;
    change(p);
    variants.emplace_back(name, p);
  };
  add("cone-240", [](FlockParams& p) { p.fov = 240; });
  add("separation-radius-4", [](FlockParams& p) { p.separation_radius = 4; });
  add("noise-1", [](FlockParams& p) { p.noise = 1.0; });
  add("walls", [](FlockParams& p) { p.world.boundary = Boundary::kWalls; });
  add("spheres", [&](FlockParams& p) {
    // the last across the box's corner
    p.obstacles = {Obstacle{10, 10, 6, mid}, Obstacle{30, 25, 5, 12}, Obstacle{1, 40, 4, 40}};
  });
  add("goal-wind", [](FlockParams& p) {
    p.has_goal = true;
    p.goal = {8, 30, 20};
    p.goal_weight = 2;
    p.wind = {0.05, -0.03, 0.02};
  });
  add("box-53x31x41", [](FlockParams& p) {
    p.world.width = 53;
    p.world.height = 31;
  });
  add("steering", [](FlockParams& p) {
    p.model = Model::kSteering;
    p.separation = 1.6;
    p.cohesion = 0.9;
    p.max_speed = 30;  // half a unit a step at the lab's dt of 1/60
  });
  add("steering-walls-cone-noise", [&](FlockParams& p) {
    p.model = Model::kSteering;
    p.max_speed = 30;
    p.world.boundary = Boundary::kWalls;
    p.fov = 270;
    p.noise = 0.5;
    p.obstacles = {Obstacle{mid, mid, 7, mid}};
  });
  add("vicsek-noise-2", [](FlockParams& p) {
    p.model = Model::kVicsek;
    p.max_speed = 0.5;
    p.noise = 2.0;
  });
  add("vicsek-walls-goal", [](FlockParams& p) {
    p.model = Model::kVicsek;
    p.max_speed = 0.5;
    p.world.boundary = Boundary::kWalls;
    p.has_goal = true;
    p.goal = {30, 20, 10};
    p.goal_weight = 0.5;
  });
  std::vector<ValidationFlock> flocks;
  std::uint64_t seed = 11;
  for (auto& [name, params] : variants) {
    flocks.push_back({name, params, make_initial_state(500, seed++, params)});
  }
  return flocks;
}

}  // namespace boids
