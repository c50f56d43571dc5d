#include "host/config/flock_options.h"

#include <unistd.h>

#include <algorithm>
#include <cmath>
#include <utility>
#include <vector>

#include "host/base/errors.h"
#include "host/base/message_text.h"
#include "host/core/backends.h"
#include "host/core/flight_rules.h"
#include "host/io/obstacle_file.h"
#include "host/io/path_file.h"
#include "host/io/state_file.h"
#include "host/model/initial_state.h"

namespace boids {
namespace {

// The density in three dimensions that gives the seed's mean neighbour count, 0.9 / r^3
// (docs/3d.md): the default world of a 3D flock is the cube that holds it at that density.
constexpr double kSeedNeighbourVolumeDensity = 0.9;

// The defaults of each model: seed 000's example, seed 002's lab (its canvas taken as
// 800 x 600), and Vicsek's figure 2a at density 4 (N = 400, L = 10).
struct ModelDefaults {
  std::uint64_t count;
  double radius, separation, alignment, cohesion, max_speed, world;
  double world_height;
};
ModelDefaults defaults_of(Model model) {
  switch (model) {
    case Model::kSteering:
      return {220, 44, 1.6, 1.0, 0.9, 110, 800, 600};
    case Model::kVicsek:
      return {400, 1, 0, 0, 0, 0.03, 10, 10};
    case Model::kBoids:
      break;
  }
  return {120, 10, 1.5, 1.0, 1.0, 1.0, 100, 100};
}

// Options that do not go together, or not with this model, refused by name as they were
// given; what the resolved parameters must obey is check_flight_params's
// (host/core/flight_rules.h), which checkpoints go through too.
void check_combinations(const FlockOptions& o, Model model, int dimensions) {
  const auto refuse = [](bool given, const std::string& message) {
    if (given) throw InputError(message);
  };
  if (model == Model::kVicsek) {
    for (const auto& [given, name] :
         {std::pair{o.separation.has_value(), "--separation"},
          std::pair{o.alignment.has_value(), "--alignment"},
          std::pair{o.cohesion.has_value(), "--cohesion"},
          std::pair{o.separation_radius.has_value(), "--separation-radius"}}) {
      refuse(given, std::string(name) +
                        ": the Vicsek model has no separation, alignment or cohesion weights "
                        "(it aligns with every neighbour; see --noise)");
    }
    refuse(o.max_speed.has_value(), "--max-speed: the Vicsek model moves at a constant --speed");
  } else {
    refuse(o.speed.has_value(),
           "--speed: only the Vicsek model moves at a constant speed "
           "(use --max-speed)");
  }
  refuse(o.dt.has_value() && model != Model::kSteering,
         "--dt: only the steering model has a time step (boids and Vicsek step by 1)");
  refuse(o.density.has_value() && o.world.has_value(),
         "--density and --world both give the world's size: give one");
  refuse(o.goal_weight.has_value() && !o.goal.has_value(), "--goal-weight needs --goal X,Y");
  refuse(o.arrival_radius.has_value() && !o.goal.has_value(), "--arrival-radius needs --goal X,Y");
  refuse(dimensions == 2 && o.world_sides == 3, "--world W,H,D needs --dimensions 3");
  refuse(dimensions == 3 && o.world_sides == 2,
         "--world: in three dimensions expected L (a cube) or W,H,D");
  for (const auto& [values, name] :
       {std::pair{o.goal_values, "--goal"}, std::pair{o.wind_values, "--wind"}}) {
    refuse(values == 3 && dimensions == 2, std::string(name) + " X,Y,Z needs --dimensions 3");
    refuse(values == 2 && dimensions == 3,
           std::string(name) + ": in three dimensions expected X,Y,Z");
  }
  refuse(dimensions == 3 && o.update.has_value(),
         "--update: not yet in three dimensions (docs/3d.md)");
  const bool path = !o.path_file.empty() || o.path.has_value();
  refuse(o.path_radius.has_value() && !path, "--path-radius needs --path FILE");
  refuse(o.path_weight.has_value() && !path, "--path-weight needs --path FILE");
  refuse(o.path.has_value() && !o.path->empty() && o.path_dimensions != dimensions,
         dimensions == 3 ? "path: in three dimensions expected rows (x, y, z)"
                         : "path: rows (x, y, z) are for dimensions 3");
  refuse(o.obstacles.has_value() && !o.obstacles->empty() && o.obstacle_dimensions != dimensions,
         dimensions == 3 ? "obstacles: in three dimensions expected rows (x, y, z, radius)"
                         : "obstacles: rows (x, y, z, radius) are spheres, for dimensions 3");
}

const char* dimensions_name(int dimensions) {
  return dimensions == 3 ? "three dimensions (x,y,z,vx,vy,vz)" : "two dimensions (x,y,vx,vy)";
}

// The flock's dimensions: a state file's (its header or its shape), --dimensions, else 2.
int resolve_dimensions(const FlockOptions& o) {
  if (o.init_file.empty()) return o.dimensions.value_or(2);
  const int in_file = state_file_dimensions(o.init_file);
  if (o.dimensions && *o.dimensions != in_file) {
    throw InputError("--dimensions " + std::to_string(*o.dimensions) + ": state file " +
                     quoted_path(o.init_file) + " holds boids in " + dimensions_name(in_file));
  }
  return in_file;
}

// Where the obstacles came from, for a start they leave no room for.
std::string obstacles_given(const FlockOptions& o) {
  return o.obstacle_file.empty() ? "obstacles" : "--obstacles " + quoted_path(o.obstacle_file);
}

}  // namespace

FlockParams model_defaults(Model model, std::uint64_t count) {
  const ModelDefaults d = defaults_of(model);
  FlockParams p;
  p.model = model;
  p.radius = d.radius;
  p.separation = d.separation;
  p.alignment = d.alignment;
  p.cohesion = d.cohesion;
  p.max_speed = d.max_speed;
  const double scale = std::sqrt(static_cast<double>(count) / static_cast<double>(d.count));
  p.world = World{d.world * scale, d.world_height * scale, Boundary::kTorus};
  return p;
}

std::uint64_t resolve_count(const FlockOptions& o) {
  return o.count.value_or(defaults_of(o.model.value_or(Model::kBoids)).count);
}

// Whether the flock flies on the reference (else "auto" is the cuda or cpu backend).
bool on_reference(const FlockOptions& o) {
  return o.backend == "reference";
}

Precision resolve_precision(const FlockOptions& o) {
  return o.precision.value_or(on_reference(o) ? Precision::kDouble : Precision::kFloat);
}

FlockParams resolve_params(const FlockOptions& o) {
  const Model model = o.model.value_or(Model::kBoids);
  const int dimensions = resolve_dimensions(o);
  check_combinations(o, model, dimensions);
  const ModelDefaults d = defaults_of(model);
  FlockParams p;
  p.model = model;
  p.radius = o.radius.value_or(d.radius);
  p.separation = o.separation.value_or(d.separation);
  p.alignment = o.alignment.value_or(d.alignment);
  p.cohesion = o.cohesion.value_or(d.cohesion);
  p.max_speed =
      model == Model::kVicsek ? o.speed.value_or(d.max_speed) : o.max_speed.value_or(d.max_speed);
  if (o.dt) p.dt = *o.dt;
  p.dimensions = dimensions;
  const bool box = p.dimensions == 3;
  if (o.world) {
    p.world = *o.world;
  } else if (o.density || box) {
    // --init overrides --count, and the file's boids fill the world too.
    const std::uint64_t count =
        o.init_file.empty() ? resolve_count(o) : state_file_rows(o.init_file);
    const double density =
        o.density.value_or(kSeedNeighbourVolumeDensity / (p.radius * p.radius * p.radius));
    const double boids = static_cast<double>(count);
    const double side = box ? std::cbrt(boids / density) : std::sqrt(boids / density);
    if (!(side > 0 && std::isfinite(side))) {
      throw InputError(box ? "--density: the world's side cbrt(count / density) is not a "
                             "positive number"
                           : "--density: the world's side sqrt(count / density) is not a "
                             "positive number");
    }
    p.world = World{side, side, Boundary::kTorus};
    p.world.depth = side;
  } else {
    p.world = World{d.world, d.world_height, Boundary::kTorus};
  }
  p.world.boundary = o.boundary.value_or(Boundary::kTorus);
  if (o.separation_radius) p.separation_radius = *o.separation_radius;
  if (o.fov) p.fov = *o.fov;
  if (o.nearest) p.nearest = *o.nearest;
  if (o.predators) p.predators = *o.predators;
  if (o.predator_speed) p.predator_speed = *o.predator_speed;
  if (o.flee_radius) p.flee_radius = *o.flee_radius;
  if (o.noise) p.noise = *o.noise;
  if (o.wander) p.wander = *o.wander;
  if (o.wall_distance) p.wall_distance = *o.wall_distance;
  if (o.goal) {
    p.has_goal = true;
    p.goal = *o.goal;
    p.goal_weight = o.goal_weight.value_or(1.0);
    p.arrival_radius = o.arrival_radius.value_or(0.0);
  }
  if (o.wind) p.wind = *o.wind;
  if (!o.obstacle_file.empty()) {
    p.obstacles = read_obstacle_file(o.obstacle_file, p.world, p.dimensions);
  }
  if (o.obstacles) {
    p.obstacles = checked_obstacles(*o.obstacles, p.world, "obstacles", p.dimensions);
  }
  if (!o.path_file.empty()) p.path = read_path_file(o.path_file, p.world, p.dimensions);
  if (o.path) p.path = checked_path(*o.path, p.world, "path", p.dimensions);
  if (!p.path.empty()) {
    p.path_radius = o.path_radius.value_or(0.0);
    p.path_weight = o.path_weight.value_or(1.0);
  }
  p.update = o.update.value_or(Update::kSynchronous);
  check_flight_params(p, resolve_precision(o));
  return p;
}

SimulationConfig resolve_config(const FlockOptions& o) {
  SimulationConfig config;
  config.params = resolve_params(o);
  config.seed = o.seed;
  config.backend = on_reference(o)       ? Backend::kReference
                   : o.backend == "auto" ? resolve_auto_backend()
                                         : *parse_backend(o.backend);
  const bool reference = config.backend == Backend::kReference;
  config.method = o.method.value_or(reference ? Method::kNaive : Method::kHashed);
  config.precision = resolve_precision(o);
  check_flight(config);
  return config;
}

namespace {

// The predators of a flight from a state file: those `--save` wrote beside it
// (predator_state_path), where that file is; else drawn from the seed.
Particles initial_predators(const FlockOptions& o, const FlockParams& params) {
  const std::string beside = predator_state_path(o.init_file);
  if (params.predators == 0 || access(beside.c_str(), F_OK) != 0) {
    return make_initial_predators(o.seed, params);
  }
  const FlockState read = read_state_file(beside, params.world);
  try {
    check_predator_state(read, params, start_tolerance(resolve_precision(o)));
  } catch (const InputError& e) {
    throw InputError("--init: the predators' file " + quoted_path(beside) + ": " + e.what());
  }
  return read;
}

}  // namespace

FlockState initial_state(const FlockOptions& o, const FlockParams& params) {
  if (o.init_file.empty()) {
    try {
      return make_initial_state(resolve_count(o), o.seed, params);
    } catch (const InputError& e) {  // what the obstacles leave no room for
      throw InputError(obstacles_given(o) + ": " + e.what());
    }
  }
  FlockState state = read_state_file(o.init_file, params.world);
  check_start_file(state, o.init_file, resolve_precision(o), params);
  state.predators = initial_predators(o, params);
  return state;
}

void check_start_file(const FlockState& state, const std::string& path, Precision precision,
                      const FlockParams& params, std::uint64_t first) {
  check_state_values(state, precision, path, first);
  try {
    check_start(state, params, start_tolerance(precision), first);
  } catch (const InputError& e) {
    throw InputError("state file " + quoted_path(path) + ": " + e.what());
  }
}

}  // namespace boids
