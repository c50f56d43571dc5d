// The sweep: flock sizes x states x methods x precisions on each backend, at a fixed density.
#pragma once

#include <cstdint>
#include <functional>
#include <map>
#include <string>
#include <vector>

#include "bench/machine.h"
#include "host/core/simulation.h"

namespace boids::bench {

enum class StartState { kRandom, kFlocked };
std::string to_string(StartState state);

struct SweepSettings {
  std::vector<Backend> backends;
  std::vector<Method> methods;
  std::vector<Precision> precisions;
  std::vector<StartState> states;
  std::vector<std::string> variants = {"seed"};          // bench/variants.h
  std::map<Backend, std::vector<std::uint64_t>> counts;  // ascending, per backend
  int dimensions = 2;                                    // 2, or 3: flocks in a cube
  double density = 1.2;  // boids per r^2 (per r^3 in a cube; 0.9 gives the published
                         // example's neighbours)
  double radius = 10.0;  // r; the world side is (count / density)^(1 / dimensions) * r
  Boundary boundary = Boundary::kTorus;  // of every variant that sets none of its own
  // In open space, the start cut into 4 tiles a side (4 x 4, or 4 x 4 x 4), moved apart so
  // that `spread` radii lie between neighbouring tiles: the same local density over an
  // extent of about 4 spread radii. 0: the start as drawn.
  double spread = 0;
  std::uint64_t seed = 42;
  std::uint64_t repeats = 5;         // timed repeats per row; the median is reported
  double min_repeat_seconds = 0.1;   // each repeat steps long enough to take at least this
  std::uint64_t flock_steps = 300;   // warm-up steps (hashed float) that form the flocked state
  double naive_limit_seconds = 2.0;  // naive stops where a step would take longer than this
  std::uint64_t bandwidth_bytes = std::uint64_t{512}
                                  << 20;  // copy size of the bandwidth measurement
  double flops_seconds = 0.3;             // duration of the CPU peak measurement
};

// One timed configuration.
struct Row {
  Backend backend;
  Method method;
  Precision precision;
  StartState state;
  std::string variant;
  std::uint64_t count;
  std::string device;  // Simulation::device()
  double world;        // side of the torus
  int dimensions;      // 2, or 3 (a cube of side `world`)
  std::uint64_t steps_per_repeat;
  std::vector<double> seconds_per_step;  // one entry per repeat
  double ms_per_step;                    // median
  double ms_min, ms_max;
  double boid_steps_per_second;
  double pair_interactions_per_second;
  double candidates_per_boid;
  double neighbors_per_boid;
  double bytes_per_boid;          // memory held: Simulation::bytes_allocated() / count
  double traffic_bytes_per_boid;  // memory traffic per boid and step (model.h)
  std::string limit;              // "memory" (hashed) or "arithmetic" (naive)
  double limit_ms_per_step;       // the step's time at the machine's limit
  double fraction_of_limit;       // limit_ms_per_step / ms_per_step
  // Milliseconds a step spends in each stage (kernels/stages.h), from one more repeat with
  // every launch timed (on a GPU, each waited for); empty where the backend does not say.
  std::vector<std::pair<std::string, double>> stage_ms;
};

// A row not run because naive would take too long there.
struct Skip {
  Backend backend;
  Method method;
  Precision precision;
  StartState state;
  std::string variant;
  std::uint64_t count;
  double estimated_seconds_per_step;
};

struct Observer {
  std::function<void(Backend, const Limits&)> on_limits;
  std::function<void(const std::string& what)> on_start;  // something slow begins
  std::function<void(const Row&)> on_row;
  std::function<void(const Skip&)> on_skip;
};

// The number of rows the sweep plans (run or skipped), for progress.
std::uint64_t planned_rows(const SweepSettings& settings);

struct SweepResult {
  std::map<Backend, Limits> limits;
  std::vector<Row> rows;
  std::vector<Skip> skipped;
};

SweepResult run_sweep(const SweepSettings& settings, const Observer& observer);

}  // namespace boids::bench
