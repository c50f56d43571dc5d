#include "host/cli/flock_options.h"

#include <algorithm>
#include <cmath>
#include <tuple>
#include <utility>
#include <vector>

#include "host/base/errors.h"
#include "host/model/initial_state.h"
#include "host/base/message_text.h"
#include "host/io/state_file.h"
#include "host/model/value_limits.h"

namespace boids::cli {
namespace {

template <typename T>
T parse_choice(const std::string& option, const std::string& text, std::optional<T> parsed,
               const std::string& choices) {
  if (!parsed) throw InputError(option + ": expected one of " + choices + ", got " + quoted(text));
  return *parsed;
}

std::optional<Model> parse_model(const std::string& name) {
  if (name == "boids") return Model::kBoids;
  if (name == "steering") return Model::kSteering;
  if (name == "vicsek") return Model::kVicsek;
  return std::nullopt;
}

std::optional<Boundary> parse_boundary(const std::string& name) {
  if (name == "torus") return Boundary::kTorus;
  if (name == "walls") return Boundary::kWalls;
  return std::nullopt;
}

std::optional<Update> parse_update(const std::string& name) {
  if (name == "synchronous") return Update::kSynchronous;
  if (name == "in-place") return Update::kInPlace;
  return std::nullopt;
}

// The numbers of the comma-separated `text`: `least` to `most` of them, each read by
// read(option, field); `form` says what was expected.
template <typename Read>
std::vector<double> numbers_of(const std::string& option, const std::string& text,
                               std::size_t least, std::size_t most, const std::string& form,
                               Read read) {
  const auto count = static_cast<std::size_t>(std::count(text.begin(), text.end(), ',')) + 1;
  if (count < least || count > most) {
    throw InputError(option + ": expected " + form + ", got " + quoted(text));
  }
  std::vector<double> numbers;
  for (std::size_t start = 0; numbers.size() < count;) {
    const auto comma = text.find(',', start);
    numbers.push_back(read(option, text.substr(start, comma - start)));
    start = comma + 1;
  }
  return numbers;
}

// "X,Y" or "X,Y,Z": finite numbers, and how many were given.
std::pair<Vec3, int> parse_vector(const std::string& option, const std::string& text) {
  const std::vector<double> v =
      numbers_of(option, text, 2, 3, "two numbers X,Y (three in three dimensions)", parse_real);
  return {Vec3{v[0], v[1], v.size() == 3 ? v[2] : 0.0}, static_cast<int>(v.size())};
}

// "L" (a square, or a cube), "W,H" or "W,H,D": positive sides, and how many were given.
std::pair<World, int> parse_world(const std::string& text) {
  const std::vector<double> sides =
      numbers_of("--world", text, 1, 3, "L, W,H or W,H,D", parse_positive);
  World world{sides[0], sides.size() > 1 ? sides[1] : sides[0], Boundary::kTorus};
  world.depth = sides.size() == 3 ? sides[2] : sides[0];
  return {world, static_cast<int>(sides.size())};
}

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

// Options that do not go together, or not with this model, refused by name.
void check_combinations(const FlockOptions& o, Model model) {
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
  const int dimensions = o.dimensions.value_or(2);
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
  refuse(o.obstacles.has_value() && !o.obstacles->empty() && o.obstacle_dimensions != dimensions,
         dimensions == 3 ? "obstacles: in three dimensions expected rows (x, y, z, radius)"
                         : "obstacles: rows (x, y, z, radius) are spheres, for dimensions 3");
  refuse(o.wall_distance.has_value() && o.boundary != Boundary::kWalls,
         "--wall-distance needs --boundary walls");
  if (o.update == Update::kInPlace) {
    refuse(model != Model::kSteering,
           "--update in-place: only the steering lab's loop updates in place (--model steering)");
    refuse(o.fov || o.noise || o.goal || o.wind || !o.obstacle_file.empty() || o.obstacles ||
               o.boundary == Boundary::kWalls,
           "--update in-place is the steering lab's own loop, which has no field of view, "
           "noise, goal, wind, obstacles or walls");
  }
}

}  // namespace

void add_flock_options(OptionParser& parser, FlockOptions& o) {
  parser.add_value(
      "--model", "M", "boids, steering or vicsek (default boids)", [&o](const std::string& v) {
        o.model = parse_choice("--model", v, parse_model(v), "boids, steering, vicsek");
      });
  parser.add_value(
      "--count", "N", "number of boids, >= 1 (default 120; steering 220, vicsek 400)",
      [&o](const std::string& v) { o.count = parse_whole("--count", v, 1, kMaxBoids); });
  parser.add_value(
      "--seed", "S",
      "random seed of the start and the noise, an unsigned 64-bit integer (default 42)",
      [&o](const std::string& v) { o.seed = parse_whole("--seed", v, 0); });
  parser.add_value("--radius", "R",
                   "perception radius r, a length (default 10; steering 44, vicsek 1)",
                   [&o](const std::string& v) { o.radius = parse_positive("--radius", v); });
  parser.add_value(
      "--separation", "W", "separation weight, in [0, 1e6] (default 1.5; steering 1.6)",
      [&o](const std::string& v) { o.separation = parse_non_negative("--separation", v); });
  parser.add_value(
      "--alignment", "W", "alignment weight, in [0, 1e6] (default 1)",
      [&o](const std::string& v) { o.alignment = parse_non_negative("--alignment", v); });
  parser.add_value(
      "--cohesion", "W", "cohesion weight, in [0, 1e6] (default 1; steering 0.9)",
      [&o](const std::string& v) { o.cohesion = parse_non_negative("--cohesion", v); });
  parser.add_value("--max-speed", "V",
                   "maximum speed v_max, a length, below the world's smaller side (times --dt: "
                   "below it under steering) (default 1; steering 110)",
                   [&o](const std::string& v) { o.max_speed = parse_positive("--max-speed", v); });
  parser.add_value("--speed", "V",
                   "the Vicsek model's constant speed, a length; with |wind|, below the world's "
                   "smaller side (default 0.03)",
                   [&o](const std::string& v) { o.speed = parse_positive("--speed", v); });
  parser.add_value("--dt", "T",
                   "the steering model's time step, > 0, in the lengths' range (default 1/60)",
                   [&o](const std::string& v) { o.dt = parse_positive("--dt", v); });
  parser.add_value(
      "--world", "L|W,H|W,H,D",
      "the world: a square (a cube) of side L, a W x H rectangle or a W x H x D box; "
      "lengths, numbers with "
      "their nonzero magnitudes in [1e-60, 1e60] ([1e-9, 1e9] under --precision "
      "float), as every length, speed, wind, goal and obstacle (default 100; "
      "steering 800,600, vicsek 10)",
      [&o](const std::string& v) { std::tie(o.world, o.world_sides) = parse_world(v); });
  parser.add_value("--density", "RHO",
                   "boids per unit area, > 0: a square world of side sqrt(count / RHO); per unit "
                   "volume in three dimensions, a cube of side cbrt(count / RHO) (not with "
                   "--world)",
                   [&o](const std::string& v) { o.density = parse_positive("--density", v); });
  parser.add_value("--dimensions", "D",
                   "2, or 3: the seed's rules in a box (default 2; docs/3d.md)",
                   [&o](const std::string& v) {
                     if (v != "2" && v != "3") {
                       throw InputError("--dimensions: expected 2 or 3, got " + quoted(v));
                     }
                     o.dimensions = v == "3" ? 3 : 2;
                   });
  parser.add_value("--boundary", "B", "torus or walls (default torus)", [&o](const std::string& v) {
    o.boundary = parse_choice("--boundary", v, parse_boundary(v), "torus, walls");
  });
  parser.add_value(
      "--wall-distance", "D", "walls push boids closer than D, > 0 (default: the radius)",
      [&o](const std::string& v) { o.wall_distance = parse_positive("--wall-distance", v); });
  parser.add_value("--separation-radius", "R",
                   "separation acts closer than R, in (0, radius] (default radius / 2; steering "
                   "0.45 radius)",
                   [&o](const std::string& v) {
                     o.separation_radius = parse_positive("--separation-radius", v);
                   });
  parser.add_value("--fov", "DEGREES",
                   "field of view, in (0, 360]: neighbours count only within half of it of the "
                   "heading (default 360)",
                   [&o](const std::string& v) {
                     const double fov = parse_positive("--fov", v);
                     if (fov > 360)
                       throw InputError("--fov: expected a number in (0, 360], got " + quoted(v));
                     o.fov = fov;
                   });
  parser.add_value("--noise", "ETA",
                   "each step every heading turns by an angle uniform in [-ETA/2, ETA/2], ETA in "
                   "[0, 2 pi] radians (default 0)",
                   [&o](const std::string& v) {
                     const double eta = parse_non_negative("--noise", v);
                     if (eta > 2 * kPi) {
                       throw InputError("--noise: expected radians in [0, 2 pi], got " + quoted(v));
                     }
                     o.noise = eta;
                   });
  parser.add_value("--obstacles", "FILE",
                   "discs no boid enters, from a CSV file with the header x,y,radius",
                   [&o](const std::string& v) {
                     if (v.empty()) throw InputError("--obstacles: the file name is empty");
                     o.obstacle_file = v;
                   });
  parser.add_value(
      "--goal", "X,Y|X,Y,Z", "a point in the world the boids steer towards",
      [&o](const std::string& v) { std::tie(o.goal, o.goal_values) = parse_vector("--goal", v); });
  parser.add_value(
      "--goal-weight", "W", "how hard they steer to the goal, in [0, 1e6] (default 1)",
      [&o](const std::string& v) { o.goal_weight = parse_non_negative("--goal-weight", v); });
  parser.add_value(
      "--wind", "WX,WY|WX,WY,WZ", "a velocity added to every boid each step (times dt)",
      [&o](const std::string& v) { std::tie(o.wind, o.wind_values) = parse_vector("--wind", v); });
  parser.add_value("--update", "U",
                   "synchronous or in-place (the steering lab's own loop; reference backend only; "
                   "default synchronous)",
                   [&o](const std::string& v) {
                     o.update =
                         parse_choice("--update", v, parse_update(v), "synchronous, in-place");
                   });
  parser.add_value("--backend", "B",
                   "auto, reference, cpu or cuda (default auto: cuda if usable, else cpu)",
                   [&o](const std::string& v) {
                     if (v != "auto")
                       parse_choice("--backend", v, parse_backend(v), "auto, reference, cpu, cuda");
                     o.backend = v;
                   });
  parser.add_value("--method", "M", "naive or hashed (default hashed; the reference is naive)",
                   [&o](const std::string& v) {
                     o.method = parse_choice("--method", v, parse_method(v), "naive, hashed");
                   });
  parser.add_value("--precision", "P", "float or double (default float; the reference is double)",
                   [&o](const std::string& v) {
                     o.precision =
                         parse_choice("--precision", v, parse_precision(v), "float, double");
                   });
  parser.add_value(
      "--init", "FILE",
      "start from a state file (CSV x,y,vx,vy, or NumPy float64 of shape (N, 4) when FILE "
      "ends in .npy), velocities up to 1e250 (1e20 under --precision float); overrides --count",
      [&o](const std::string& v) {
        if (v.empty()) throw InputError("--init: the file name is empty");
        o.init_file = v;
      });
}

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
  check_combinations(o, model);
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
  p.dimensions = o.dimensions.value_or(2);
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
  if (o.separation_radius) {
    if (*o.separation_radius > p.radius) {
      throw InputError("--separation-radius: expected a number in (0, radius = " +
                       std::to_string(p.radius) + "]");
    }
    p.separation_radius = *o.separation_radius;
  }
  if (o.fov) p.fov = *o.fov;
  if (o.noise) p.noise = *o.noise;
  if (o.wall_distance) p.wall_distance = *o.wall_distance;
  if (o.goal) {
    if (!(o.goal->x >= 0 && o.goal->x < p.world.width && o.goal->y >= 0 &&
          o.goal->y < p.world.height &&
          (p.dimensions == 2 || (o.goal->z >= 0 && o.goal->z < p.world.depth)))) {
      throw InputError("--goal: the point lies outside the world");
    }
    p.has_goal = true;
    p.goal = *o.goal;
    p.goal_weight = o.goal_weight.value_or(1.0);
  }
  if (o.wind) p.wind = *o.wind;
  if (!o.obstacle_file.empty()) {
    p.obstacles = read_obstacle_file(o.obstacle_file, p.world, p.dimensions);
  }
  if (o.obstacles) {
    p.obstacles = checked_obstacles(*o.obstacles, p.world, "obstacles", p.dimensions);
  }
  p.update = o.update.value_or(Update::kSynchronous);
  check_params(p, resolve_precision(o));
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
  if (reference && config.method != Method::kNaive) {
    throw InputError("--method hashed: the reference backend has only the naive method");
  }
  if (reference && config.precision != Precision::kDouble) {
    throw InputError("--precision float: the reference backend computes in double precision only");
  }
  if (!reference && config.params.update == Update::kInPlace) {
    throw InputError(
        "--update in-place: only the reference backend runs the lab's own loop; "
        "every other backend updates synchronously");
  }
  return config;
}

FlockState initial_state(const FlockOptions& o, const FlockParams& params) {
  if (o.init_file.empty()) return make_initial_state(resolve_count(o), o.seed, params);
  try {  // before the values, which a world of other dimensions would refuse less clearly
    check_start_dimensions(state_file_dimensions(o.init_file), params);
  } catch (const InputError& e) {
    throw InputError("state file " + quoted_path(o.init_file) + ": " + e.what());
  }
  FlockState state = read_state_file(o.init_file, params.world);
  check_state_values(state, resolve_precision(o), o.init_file);
  try {
    check_start(state, params);
  } catch (const InputError& e) {
    throw InputError("state file " + quoted_path(o.init_file) + ": " + e.what());
  }
  return state;
}

}  // namespace boids::cli
