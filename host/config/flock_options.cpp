#include "host/config/flock_options.h"

#include <unistd.h>

#include <algorithm>
#include <cmath>
#include <string>
#include <utility>
#include <vector>

#include "host/base/errors.h"
#include "host/base/message_text.h"
#include "host/core/backends.h"
#include "host/core/flight_rules.h"
#include "host/core/value_limits.h"
#include "host/io/obstacle_file.h"
#include "host/io/path_file.h"
#include "host/io/state_file.h"
#include "host/model/initial_state.h"

namespace boids {
namespace {

// The density in three dimensions that gives the published example's mean neighbour count, 0.9 /
// r^3 (docs/3d.md): the default world of a 3D flock is the cube that holds it at that density.
constexpr double kSeedNeighborVolumeDensity = 0.9;

// Options that do not go together, or not with these dimensions, refused by name as they were
// given; what the resolved parameters must obey is check_flight_params's
// (host/core/flight_rules.h), which checkpoints go through too.
void check_combinations(const FlockOptions& o, int dimensions) {
  const auto refuse = [](bool given, const std::string& message) {
    if (given) throw InputError(message);
  };
  refuse(o.density.has_value() && o.given("--world"),
         "--density and --world both give the world's size: give one");
  refuse(dimensions == 2 && o.world_sides == 3, "--world W,H,D needs --dimensions 3");
  refuse(dimensions == 3 && o.world_sides == 2,
         "--world: in three dimensions expected L (a cube) or W,H,D");
  for (const auto& [values, name] :
       {std::pair{o.goal_values, "--goal"}, std::pair{o.wind_values, "--wind"}}) {
    refuse(values == 3 && dimensions == 2, std::string(name) + " X,Y,Z needs --dimensions 3");
    refuse(values == 2 && dimensions == 3,
           std::string(name) + ": in three dimensions expected X,Y,Z");
  }
  refuse(dimensions == 3 && o.given("--update"),
         "--update: not yet in three dimensions (docs/3d.md)");
  refuse(o.path.has_value() && !o.path->empty() && o.path_dimensions != dimensions,
         dimensions == 3 ? "path: in three dimensions expected rows (x, y, z)"
                         : "path: rows (x, y, z) are for dimensions 3");
  refuse(o.obstacles.has_value() && !o.obstacles->empty() && o.obstacle_dimensions != dimensions,
         dimensions == 3 ? "obstacles: in three dimensions expected rows (x, y, z, radius)"
                         : "obstacles: rows (x, y, z, radius) are spheres, for dimensions 3");
}

// Options given that need another one off in the flight (a goal's weight without a goal), then
// those the model does not take (--dt under boids).
void check_needs_and_models(const FlockOptions& o, const FlockParams& p) {
  for (const ParamSpec& row : param_table()) {
    if (o.given(row.flag) && row.needs.on && !row.needs.on(p)) {
      throw InputError(std::string(row.flag) + " needs " + row.needs.as_given);
    }
  }
  for (const ParamSpec& row : param_table()) {
    const std::string refusal = row.refusal_under(p.model);
    if (o.given(row.flag) && !row.applies(p.model, p.dimensions) && !refusal.empty()) {
      throw InputError(std::string(row.flag) + ": " + refusal);
    }
  }
}

// The parameters given, over `p`: each row's value as the table keeps it.
void take_given(const FlockOptions& o, FlockParams& p) {
  for (const ParamSpec& row : param_table()) {
    if (!o.given(row.flag)) continue;
    switch (row.kind) {
      case ParamKind::kNumber:
        p.*row.number = o.values.*row.number;
        break;
      case ParamKind::kWhole:
        p.*row.whole = o.values.*row.whole;
        break;
      case ParamKind::kPoint:
        p.has_goal = true;
        p.goal = o.values.goal;
        break;
      case ParamKind::kVector:
        p.wind = o.values.wind;
        break;
      default:  // the model, the dimensions, the world and the rows: resolve_params's own
        break;
    }
  }
  if (o.given("--boundary")) p.world.boundary = o.values.world.boundary;
  if (o.given("--update")) p.update = o.values.update;
}

const char* dimensions_name(int dimensions) {
  return dimensions == 3 ? "three dimensions (x,y,z,vx,vy,vz)" : "two dimensions (x,y,vx,vy)";
}

// The flock's dimensions: a state file's (its header or its shape), --dimensions, else 2.
int resolve_dimensions(const FlockOptions& o) {
  const bool given = o.given("--dimensions");
  if (o.init_file.empty()) return given ? o.values.dimensions : 2;
  const int in_file = state_file_dimensions(o.init_file);
  if (given && o.values.dimensions != in_file) {
    throw InputError("--dimensions " + std::to_string(o.values.dimensions) + ": state file " +
                     quoted_path(o.init_file) + " holds boids in " + dimensions_name(in_file));
  }
  return in_file;
}

// Where the obstacles came from, for a start they leave no room for.
std::string obstacles_given(const FlockOptions& o) {
  return o.obstacle_file.empty() ? "obstacles" : "--obstacles " + quoted_path(o.obstacle_file);
}

}  // namespace

Model resolve_model(const FlockOptions& o) {
  return o.given("--model") ? o.values.model : Model::kBoids;
}

std::uint64_t resolve_count(const FlockOptions& o) {
  return o.count.value_or(default_count(resolve_model(o)));
}

// Whether the flock flies on the reference (else "auto" is the cuda or cpu backend).
bool on_reference(const FlockOptions& o) {
  return o.backend == "reference";
}

Precision resolve_precision(const FlockOptions& o) {
  return o.precision.value_or(on_reference(o) ? Precision::kDouble : Precision::kFloat);
}

FlockParams resolve_params(const FlockOptions& o) {
  const Model model = resolve_model(o);
  const int dimensions = resolve_dimensions(o);
  check_combinations(o, dimensions);
  FlockParams p = model_defaults(model, default_count(model));
  p.dimensions = dimensions;
  take_given(o, p);
  settle_model(p);
  const bool box = p.dimensions == 3;
  if (o.given("--world")) {
    p.world.width = o.values.world.width;
    p.world.height = o.values.world.height;
    p.world.depth = o.values.world.depth;
  } else if (o.density || box) {
    // --init overrides --count, and the file's boids fill the world too.
    const std::uint64_t count =
        o.init_file.empty() ? resolve_count(o) : state_file_rows(o.init_file);
    const double density =
        o.density.value_or(kSeedNeighborVolumeDensity / (p.radius * p.radius * p.radius));
    const double boids = static_cast<double>(count);
    const double side = box ? std::cbrt(boids / density) : std::sqrt(boids / density);
    if (!o.density) {
      // The default box follows the radius: a side too large for it names the radius, which
      // was given, not --world or --density, which were not.
      check_world_side("--radius " + number_text(p.radius) +
                           ": the default world (give --world for another), the cube at the "
                           "published example's neighbour count, would have side",
                       side, resolve_precision(o));
    }
    if (!(side > 0 && std::isfinite(side))) {
      throw InputError(box ? "--density: the world's side cbrt(count / density) is not a "
                             "positive number"
                           : "--density: the world's side sqrt(count / density) is not a "
                             "positive number");
    }
    p.world.width = p.world.height = p.world.depth = side;
  }
  if (!o.obstacle_file.empty()) {
    p.obstacles = read_obstacle_file(o.obstacle_file, p.world, p.dimensions);
  }
  if (o.obstacles) {
    p.obstacles = checked_obstacles(*o.obstacles, p.world, "obstacles", p.dimensions);
  }
  if (!o.path_file.empty()) {
    p.path = read_path_file(o.path_file, p.world, p.dimensions, resolve_precision(o));
  }
  if (o.path) p.path = checked_path(*o.path, p.world, "path", p.dimensions, resolve_precision(o));
  check_needs_and_models(o, p);
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
