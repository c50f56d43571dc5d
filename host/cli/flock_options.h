// The options that choose a flock and where it runs, shared by `boids run` and `boids-viewer`,
// so that both accept and refuse them alike.
#pragma once

#include <cstdint>
#include <optional>
#include <string>

#include "host/cli/options.h"
#include "host/flock.h"
#include "host/simulation.h"

namespace boids::cli {

struct FlockOptions {
  std::uint64_t count = 120;
  std::uint64_t seed = 42;
  FlockParams params;
  std::string backend = "auto";        // auto | reference | cpu | cuda
  std::optional<Method> method;        // default: naive on the reference, else hashed
  std::optional<Precision> precision;  // default: double on the reference, else float
  std::string init_file;               // a state file; overrides count and seed
};

// Registers --count, --seed, --radius, --separation, --alignment, --cohesion, --max-speed,
// --world, --backend, --method, --precision and --init.
void add_flock_options(OptionParser& parser, FlockOptions& options);

// The backend, method and precision to run; resolves "auto" and the defaults.
SimulationConfig resolve_config(const FlockOptions& options);

// The starting state: the --init file, validated against the world, or the random start.
FlockState initial_state(const FlockOptions& options);

}  // namespace boids::cli
