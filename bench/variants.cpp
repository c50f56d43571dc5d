#include "bench/variants.h"

#include <algorithm>
#include <cmath>

#include "host/base/errors.h"

namespace boids::bench {
namespace {

// Twenty obstacles of radius r on a regular grid: about 6 % of the world at the seed's density
// and 10,000 boids, a fixed share at every size.
void add_obstacles(FlockParams& p) {
  const int per_side = 5;
  for (int i = 0; i < per_side; ++i) {
    for (int j = 0; j < 4; ++j) {
      p.obstacles.push_back({(i + 0.5) * p.world.width / per_side, (j + 0.5) * p.world.height / 4,
                             std::min(p.radius, 0.05 * p.world.width)});
    }
  }
}

// A closed octagon about the world's centre, 0.35 of its side across from it: every boid off
// it tests its 8 segments twice a step.
void add_path(FlockParams& p) {
  for (int k = 0; k <= 8; ++k) {
    const double angle = 2 * kPi * (k % 8) / 8;
    p.path.push_back({p.world.width * (0.5 + 0.35 * std::cos(angle)),
                      p.world.height * (0.5 + 0.35 * std::sin(angle)), 0});
  }
}

}  // namespace

const std::vector<std::string>& variant_names() {
  static const std::vector<std::string> names = {
      "seed",   "fov",  "separation-radius", "noise",     "walls",    "obstacles", "goal",   "wind",
      "wander", "path", "nearest",           "predators", "steering", "arrival",   "vicsek", "all"};
  return names;
}

void apply_variant(const std::string& name, FlockParams& p) {
  if (name == "seed") return;
  if (name == "fov" || name == "all") p.fov = 270;
  if (name == "separation-radius") p.separation_radius = 0.3 * p.radius;
  if (name == "noise" || name == "all") p.noise = 1.0;
  if (name == "walls" || name == "all") p.world.boundary = Boundary::kWalls;
  if (name == "obstacles" || name == "all") add_obstacles(p);
  if (name == "goal" || name == "all") {
    p.has_goal = true;
    p.goal = {p.world.width / 3, p.world.height / 3};
  }
  if (name == "wind" || name == "all") p.wind = {0.05 * p.max_speed, 0.02 * p.max_speed};
  if (name == "wander") p.wander = 1;
  if (name == "path") add_path(p);
  if (name == "nearest") p.nearest = 7;
  if (name == "predators") p.predators = 10;
  if (name == "steering" || name == "arrival") {
    p.model = Model::kSteering;
    p.separation = 1.6;
    p.cohesion = 0.9;
    p.max_speed = 60;  // one unit a step at the lab's dt of 1/60, like the seed's v_max
  }
  if (name == "arrival") {
    p.has_goal = true;
    p.goal = {p.world.width / 3, p.world.height / 3};
    p.arrival_radius = p.world.width / 4;
  }
  if (name == "vicsek") {
    p.model = Model::kVicsek;
    p.noise = 1.0;
  }
  const auto& names = variant_names();
  if (std::find(names.begin(), names.end(), name) == names.end()) {
    std::string list;
    for (const std::string& n : names) list += (list.empty() ? "" : ", ") + n;
    throw InputError("--variants: expected some of " + list + ", got '" + name + "'");
  }
}

std::string describe_variant(const std::string& name) {
  if (name == "seed") return "the seed's step";
  if (name == "fov") return "--fov 270";
  if (name == "separation-radius") return "--separation-radius 0.3 r";
  if (name == "noise") return "--noise 1";
  if (name == "walls") return "--boundary walls";
  if (name == "obstacles") return "20 obstacles of radius r";
  if (name == "goal") return "--goal at a third of the world";
  if (name == "wind") return "--wind 0.05,0.02 v_max";
  if (name == "wander") return "--wander 1";
  if (name == "path") return "--path: a closed octagon of 8 segments";
  if (name == "nearest") return "--nearest 7: each boid heeds its 7 nearest";
  if (name == "predators") return "--predators 10: each boid tests 10 predators";
  if (name == "arrival") return "steering with --goal at a third and --arrival-radius W/4";
  if (name == "steering") return "--model steering (v_max 60, dt 1/60)";
  if (name == "vicsek") return "--model vicsek --speed 1 --noise 1";
  return "fov, noise, walls, obstacles, goal and wind at once";
}

}  // namespace boids::bench
