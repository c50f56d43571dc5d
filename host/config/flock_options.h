// The options that choose a flock and where it runs, as given (on a command line, to Python),
// and the one place they become a flight: the model's defaults, the options that do not go
// together, the world, the backend. `boids run`, `boids-viewer`, `boids-bench` and the Python
// module all resolve them here, so that they accept and refuse them alike.
#pragma once

#include <cstdint>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "host/core/config.h"
#include "host/model/flock.h"
#include "host/model/param_table.h"

namespace boids {

// What was given on the command line or to Python; what was not takes the model's default
// (see resolve_params). The flock's parameters are given by the rows of the table
// (host/model/param_table.h): `values` holds those given, `named` their flags.
struct FlockOptions {
  std::optional<std::uint64_t> count;
  std::uint64_t seed = 42;
  std::string init_file;               // a state file; overrides --count
  std::string backend = "auto";        // auto | reference | cpu | cuda
  std::optional<Method> method;        // default: naive on the reference, else hashed
  std::optional<Precision> precision;  // default: double on the reference, else float
  std::optional<double> density;       // the world's size from the count instead of --world

  FlockParams values;
  std::set<std::string> named;
  int world_sides = 0;                   // how many sides --world gave
  int goal_values = 0, wind_values = 0;  // how many coordinates each gave
  std::string obstacle_file;
  // Obstacles given in memory instead of a file (the Python module), checked as a file's rows:
  // discs (x, y, radius) or, with obstacle_dimensions 3, spheres (x, y, z, radius).
  std::optional<std::vector<Obstacle>> obstacles;
  int obstacle_dimensions = 2;
  // A path (--path FILE), or its points in memory (the Python module), rows (x, y) or, with
  // path_dimensions 3, (x, y, z), checked as a file's lines.
  std::string path_file;
  std::optional<std::vector<Vec3>> path;
  int path_dimensions = 2;

  // Whether the option `flag` ("--radius") was given.
  bool given(const std::string& flag) const { return named.count(flag) > 0; }
};

// The model's parameters: what was given, the rest the model's defaults (the published example for
// boids, the lab's for steering, Vicsek's figure 2a at density 4 for vicsek). Throws InputError
// for options that do not go together. Reads the obstacle file.
FlockParams resolve_params(const FlockOptions& options);

// The model: --model, or boids.
Model resolve_model(const FlockOptions& options);

// The number of boids: --count, or the model's default.
std::uint64_t resolve_count(const FlockOptions& options);

// The precision to run in: --precision, or the backend's default.
Precision resolve_precision(const FlockOptions& options);

// The backend, method, precision, parameters and seed to run; resolves "auto" and the defaults.
SimulationConfig resolve_config(const FlockOptions& options);

// The starting state: the --init file, validated against the world, the obstacles and the
// model, or the random start.
FlockState initial_state(const FlockOptions& options, const FlockParams& params);

// The checks of a start read from the state file `path` beyond its rows' own: its values
// within `precision`'s range, and the start's rules under `params`. `first`: the index of the
// state's first boid in the file (a rank of an MPI run checks its own rows).
void check_start_file(const FlockState& state, const std::string& path, Precision precision,
                      const FlockParams& params, std::uint64_t first = 0);

}  // namespace boids
