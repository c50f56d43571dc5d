#include "host/tools/flock_command_line.h"

#include <algorithm>
#include <tuple>
#include <utility>
#include <vector>

#include "host/base/errors.h"
#include "host/base/message_text.h"

namespace boids::tools {
namespace {

template <typename T>
T parse_choice(const std::string& option, const std::string& text, std::optional<T> parsed,
               const std::string& choices) {
  if (!parsed) throw InputError(option + ": expected one of " + choices + ", got " + quoted(text));
  return *parsed;
}

// The numbers of the comma-separated `text`: `least` to `most` of them, each read by
// read(option, field); `form` says what was expected.
template <typename Read>
std::vector<double> numbers_of(const std::string& option, const std::string& text,
                               std::size_t least, std::size_t most, const std::string& form,
                               Read read) {
  const std::vector<std::string> fields = comma_fields(text);
  if (fields.size() < least || fields.size() > most) {
    throw InputError(option + ": expected " + form + ", got " + quoted(text));
  }
  std::vector<double> numbers;
  for (const std::string& field : fields) numbers.push_back(read(option, field));
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
  parser.add_value("--nearest", "K",
                   "topological neighbours: each boid heeds the K boids nearest to it that it "
                   "sees, however far, in place of all within the radius; K in [1, " +
                       std::to_string(kMaxNearest) + "] (default 0: off)",
                   [&o](const std::string& v) {
                     o.nearest = static_cast<int>(parse_whole("--nearest", v, 0, kMaxNearest));
                   });
  parser.add_value("--predators", "K",
                   "K predators fly in the world, each pursuing the boid nearest to it; boids "
                   "near one flee it (boids and steering models; K up to " +
                       std::to_string(kMaxPredators) + ", default 0: none)",
                   [&o](const std::string& v) {
                     o.predators =
                         static_cast<int>(parse_whole("--predators", v, 0, kMaxPredators));
                   });
  parser.add_value(
      "--predator-speed", "V", "a predator's top speed (default 1.5 times the boids' --max-speed)",
      [&o](const std::string& v) { o.predator_speed = parse_positive("--predator-speed", v); });
  parser.add_value(
      "--flee-radius", "R",
      "boids closer than R to a predator steer away from where it will be, the "
      "harder the nearer (default 2 times the radius)",
      [&o](const std::string& v) { o.flee_radius = parse_positive("--flee-radius", v); });
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
  parser.add_value("--wander", "W",
                   "Reynolds' wander: each boid steers across its heading along a drift that "
                   "wanders at random, with weight W in [0, 1e6] (boids and steering models; "
                   "default 0: off)",
                   [&o](const std::string& v) { o.wander = parse_non_negative("--wander", v); });
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
      "--arrival-radius", "R",
      "within R of the goal the boids slow down, their desired speed falling with "
      "the distance (Reynolds' arrival; steering model; default 0: off)",
      [&o](const std::string& v) { o.arrival_radius = parse_positive("--arrival-radius", v); });
  parser.add_value("--path", "FILE",
                   "a polyline the boids follow (Reynolds' path following), from a CSV file with "
                   "the header x,y (x,y,z in three dimensions); closed when its last point "
                   "repeats its first",
                   [&o](const std::string& v) {
                     if (v.empty()) throw InputError("--path: the file name is empty");
                     o.path_file = v;
                   });
  parser.add_value(
      "--path-radius", "R",
      "a boid predicted farther than R from the path steers back to it (default: the radius)",
      [&o](const std::string& v) { o.path_radius = parse_positive("--path-radius", v); });
  parser.add_value(
      "--path-weight", "W", "how hard they steer back to the path, in [0, 1e6] (default 1)",
      [&o](const std::string& v) { o.path_weight = parse_non_negative("--path-weight", v); });
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
      "ends in .npy; x,y,z,vx,vy,vz or (N, 6) fly in three dimensions), velocities up to 1e250 "
      "(1e20 under --precision float); overrides --count",
      [&o](const std::string& v) {
        if (v.empty()) throw InputError("--init: the file name is empty");
        o.init_file = v;
      });
}

void refuse_flock_options(const std::vector<std::string>& given, const std::string& option,
                          const std::string& why) {
  FlockOptions unused;
  OptionParser flock_options("");
  add_flock_options(flock_options, unused);
  const std::vector<std::string> names = flock_options.names();
  for (const std::string& name : given) {
    if (std::find(names.begin(), names.end(), name) != names.end()) {
      throw InputError(name + " cannot be given with " + option + ": " + why);
    }
  }
}

}  // namespace boids::tools
