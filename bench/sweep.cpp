#include "bench/sweep.h"

#include <algorithm>
#include <cmath>
#include <optional>
#include <tuple>

#include "bench/model.h"
#include "bench/neighborhood.h"
#include "host/base/interruption.h"
#include "host/metrics/metrics.h"
#include "host/model/initial_state.h"
#include "host/model/variants.h"
#if BOIDS_WITH_MPI
#include "host/mpi/distributed_simulation.h"
#endif

namespace boids::bench {
namespace {

// Pair interactions per second assumed for the first naive size of a series, before any has
// been timed: generous for the hardware, so that a first size that is far too large is skipped.
double assumed_pair_rate(Backend backend) {
  return backend == Backend::kCuda ? 2e12 : 2e9;
}

FlockParams params_for(const SweepSettings& s, std::uint64_t count) {
  FlockParams params;  // the published example's weights and speed
  params.radius = s.radius;
  params.dimensions = s.dimensions;
  const double cells = static_cast<double>(count) / s.density;
  const double side = (s.dimensions == 3 ? std::cbrt(cells) : std::sqrt(cells)) * s.radius;
  params.world = World{side, side, s.boundary};
  params.world.depth = side;
  return params;
}

// Every (variant, precision, start) of the sweep: the series a naive row may stop in.
std::vector<std::tuple<std::string, Precision, StartState>> all_series(const SweepSettings& s) {
  std::vector<std::tuple<std::string, Precision, StartState>> series;
  for (const std::string& v : s.variants) {
    for (Precision p : s.precisions) {
      for (StartState st : s.states) series.emplace_back(v, p, st);
    }
  }
  return series;
}

double median(std::vector<double> values) {
  std::sort(values.begin(), values.end());
  const std::size_t n = values.size();
  return n % 2 == 1 ? values[n / 2] : 0.5 * (values[n / 2 - 1] + values[n / 2]);
}

// The start of a row and what the host measured of it.
struct Start {
  FlockState state;
  double neighbors = 0;
  std::map<Precision, double> candidates;
  std::map<Precision, std::uint64_t> cells;
};

// What the host measures of a start on the grid of one precision: candidates, neighbours
// (in 3D; the 2D neighbours come from the host's metrics) and cells.
template <typename Real, int D>
void measure_on_grid(Start& start, const FlockState& state, const FlockParams& params,
                     Precision precision) {
  const World& w = params.world;
  double sides[D];
  for (int a = 0; a < D; ++a) sides[a] = a == 0 ? w.width : (a == 1 ? w.height : w.depth);
  const auto grid = kernels::make_cell_grid<Real, D>(
      params.radius, sides, static_cast<kernels::index_t>(state.size()), true);
  start.candidates[precision] = candidates_per_boid(state, grid);
  start.cells[precision] = grid.cells();
  if constexpr (D == 3) start.neighbors = neighbors_per_boid(state, grid, params);
}

Start describe(FlockState state, const SweepSettings& s, const FlockParams& params) {
  Start start;
  if (s.dimensions == 2) start.neighbors = mean_neighbor_count(state, params.radius, params.world);
  for (Precision p : s.precisions) {
    const bool box = s.dimensions == 3;
    if (p == Precision::kFloat) {
      box ? measure_on_grid<float, 3>(start, state, params, p)
          : measure_on_grid<float, 2>(start, state, params, p);
    } else {
      box ? measure_on_grid<double, 3>(start, state, params, p)
          : measure_on_grid<double, 2>(start, state, params, p);
    }
  }
  start.state = std::move(state);
  return start;
}

// The start cut into tiles moved `spread` radii apart (SweepSettings::spread).
void spread_out(FlockState& state, const SweepSettings& s, const World& w) {
  std::vector<double>* axes[3] = {&state.x, &state.y, &state.z};
  for (int a = 0; a < s.dimensions; ++a) {
    const double tile = w.side(a) / 4, gap = s.spread * s.radius;
    for (double& x : *axes[a]) x += std::min(std::floor(x / tile), 3.0) * gap;
  }
}

// A simulation ready to be timed, and its timings so far.
struct Timing {
  std::unique_ptr<Simulation> sim;
  std::uint64_t steps = 1;  // per repeat
  std::vector<double> seconds_per_step;
  std::vector<StageSeconds> stages;  // a repeat's, timed by stage
};

// Warm-up: one step (first touch, lazy initialisation, the first sort from input order), then
// one timed step to size the repeats, then one repeat's worth untimed.
Timing prepare(const SweepSettings& s, const SimulationConfig& config, const Start& start) {
  Timing t;
  FlockState state = start.state;  // with the variant's predators, drawn as a flight draws them
  state.predators = make_initial_predators(s.seed, config.params);
  if (s.spread > 0 && config.params.world.open()) spread_out(state, s, config.params.world);
#if BOIDS_WITH_MPI
  t.sim = mpi::make_simulation_over_ranks(config, state);  // one process's without mpirun
#else
  t.sim = make_simulation(config, state);
#endif
  t.sim->step(1);
  const double first = std::max(t.sim->timed_step(1), 1e-9);
  t.steps = static_cast<std::uint64_t>(
      std::clamp(std::ceil(s.min_repeat_seconds / first), 1.0, 100000.0));
  if (t.steps > 1) t.sim->step(t.steps);
  return t;
}

void repeat(Timing& t) {
  throw_if_stopped();  // between measurements: a bench of hours stops at Ctrl-C
  t.seconds_per_step.push_back(t.sim->timed_step(t.steps) / static_cast<double>(t.steps));
}

// One more repeat, each stage timed (its time is not the row's: on a GPU each launch is then
// waited for).
void repeat_by_stage(Timing& t) {
  throw_if_stopped();
  t.sim->timed_step(t.steps, t.stages);
}

Row finish_row(const SimulationConfig& config, StartState state, const std::string& variant,
               const Start& start, const Limits& limits, const Timing& t) {
  const Simulation& sim = *t.sim;
  const auto n = static_cast<double>(sim.count());
  Row row{};
  row.backend = config.backend;
  row.method = config.method;
  row.precision = config.precision;
  row.state = state;
  row.variant = variant;
  row.count = sim.count();
  row.device = sim.device();
  row.world = config.params.world.width;
  row.dimensions = config.params.dimensions;
  row.steps_per_repeat = t.steps;
  row.seconds_per_step = t.seconds_per_step;
  const double seconds = median(row.seconds_per_step);
  row.ms_per_step = 1e3 * seconds;
  row.ms_min = 1e3 * *std::min_element(row.seconds_per_step.begin(), row.seconds_per_step.end());
  row.ms_max = 1e3 * *std::max_element(row.seconds_per_step.begin(), row.seconds_per_step.end());
  row.boid_steps_per_second = n / seconds;
  row.neighbors_per_boid = start.neighbors;
  row.bytes_per_boid = static_cast<double>(sim.bytes_allocated()) / n;
  if (config.method == Method::kNaive) {
    row.candidates_per_boid = n - 1;
    row.pair_interactions_per_second = n * (n - 1) / seconds;
    row.traffic_bytes_per_boid = naive_traffic_bytes(config.precision, row.dimensions);
    row.limit = "arithmetic";
    const double peak =
        config.precision == Precision::kFloat ? limits.float_flops : limits.double_flops;
    row.limit_ms_per_step = 1e3 * n * (n - 1) * flops_per_pair(row.dimensions) / peak;
  } else {
    row.candidates_per_boid = start.candidates.at(config.precision);
    row.pair_interactions_per_second = n * row.candidates_per_boid / seconds;
    row.traffic_bytes_per_boid =
        hashed_traffic_bytes(config.backend, config.precision, row.count,
                             start.cells.at(config.precision), row.dimensions);
    row.limit = "memory";
    row.limit_ms_per_step = 1e3 * n * row.traffic_bytes_per_boid / limits.memory_bytes_per_s;
  }
  row.fraction_of_limit = row.limit_ms_per_step / row.ms_per_step;
  for (const StageSeconds& stage : t.stages) {
    row.stage_ms.emplace_back(stage.stage, 1e3 * stage.seconds / static_cast<double>(t.steps));
  }
  return row;
}

}  // namespace

std::string to_string(StartState state) {
  return state == StartState::kRandom ? "random" : "flocked";
}

std::uint64_t planned_rows(const SweepSettings& s) {
  std::uint64_t rows = 0;
  for (Backend b : s.backends) {
    rows += s.counts.at(b).size() * s.states.size() * s.methods.size() * s.precisions.size() *
            s.variants.size();
  }
  return rows;
}

SweepResult run_sweep(const SweepSettings& s, const Observer& observer) {
  SweepResult result;
  for (Backend backend : s.backends) {
    if (observer.on_start)
      observer.on_start("measuring the limits of the " + boids::to_string(backend));
    const Limits limits = backend == Backend::kCuda
                              ? measure_gpu(s.bandwidth_bytes)
                              : measure_cpu(s.bandwidth_bytes, s.flops_seconds);
    result.limits[backend] = limits;
    if (observer.on_limits) observer.on_limits(backend, limits);

    // The last timed naive size of each series: (count, seconds per step).
    using Series = std::tuple<std::string, Precision, StartState>;
    std::map<Series, std::pair<double, double>> last_naive;
    std::map<Series, bool> naive_stopped;
    std::map<Series, int> naive_timed;  // sizes timed so far
    for (std::uint64_t count : s.counts.at(backend)) {
      const FlockParams params = params_for(s, count);
      const double n = static_cast<double>(count);
      // Which naive rows run at this size: estimated from the previous size's time.
      std::map<Series, double> naive_estimate;
      bool anything =
          std::find(s.methods.begin(), s.methods.end(), Method::kHashed) != s.methods.end();
      for (const Series& key : all_series(s)) {
        const auto last = last_naive.find(key);
        const double estimate =
            last != last_naive.end()
                ? last->second.second * (n / last->second.first) * (n / last->second.first)
                : n * (n - 1) / assumed_pair_rate(backend);
        naive_estimate[key] = estimate;
        // A series keeps its first two sizes, so that it can be fitted, unless even those
        // would take ten times the limit.
        const double limit = s.naive_limit_seconds * (naive_timed[key] < 2 ? 10 : 1);
        if (estimate > limit) naive_stopped[key] = true;
        if (!naive_stopped[key] &&
            std::find(s.methods.begin(), s.methods.end(), Method::kNaive) != s.methods.end()) {
          anything = true;
        }
      }

      std::optional<FlockState> random;
      if (anything) random = make_initial_state(count, s.seed, params);
      for (StartState st : s.states) {
        std::optional<Start> start;
        for (Method m : s.methods) {
          for (Precision p : s.precisions) {
            // The variants of one configuration, timed in alternation (a repeat of each in
            // turn), so that drift in the machine's speed leaves their ratios alone.
            std::vector<std::string> variants;
            for (const std::string& variant : s.variants) {
              const Series key{variant, p, st};
              if (m == Method::kNaive && naive_stopped[key]) {
                const Skip skip{backend, m, p, st, variant, count, naive_estimate[key]};
                result.skipped.push_back(skip);
                if (observer.on_skip) observer.on_skip(skip);
              } else {
                variants.push_back(variant);
              }
            }
            if (variants.empty()) continue;
            if (!start) {
              if (st == StartState::kRandom) {
                if (observer.on_start)
                  observer.on_start("measuring the random start of " + std::to_string(count));
                start = describe(*random, s, params);
              } else {
                if (observer.on_start) {
                  observer.on_start("forming flocks of " + std::to_string(count) + " boids (" +
                                    std::to_string(s.flock_steps) + " steps)");
                }
                SimulationConfig warm{backend, Method::kHashed, Precision::kFloat, params};
                const std::unique_ptr<Simulation> sim = make_simulation(warm, *random);
                sim->step(s.flock_steps);
                start = describe(sim->state(), s, params);
              }
            }
            std::vector<SimulationConfig> configs;
            std::vector<Timing> timings;
            for (const std::string& variant : variants) {
              if (observer.on_start) {
                observer.on_start(boids::to_string(backend) + " " + boids::to_string(m) + " " +
                                  boids::to_string(p) + " " + to_string(st) + " " + variant + " " +
                                  std::to_string(count));
              }
              configs.push_back(
                  SimulationConfig{backend, m, p, variant_params(*find_variant(variant), params)});
              timings.push_back(prepare(s, configs.back(), *start));
            }
            for (std::uint64_t r = 0; r < s.repeats; ++r) {
              for (Timing& t : timings) repeat(t);
            }
            for (Timing& t : timings) repeat_by_stage(t);
            for (std::size_t v = 0; v < variants.size(); ++v) {
              Row row = finish_row(configs[v], st, variants[v], *start, limits, timings[v]);
              if (m == Method::kNaive) {
                const Series key{variants[v], p, st};
                last_naive[key] = {n, row.ms_per_step * 1e-3};
                ++naive_timed[key];
              }
              timings[v].sim.reset();
              result.rows.push_back(row);
              if (observer.on_row) observer.on_row(result.rows.back());
            }
          }
        }
      }
    }
  }
  return result;
}

}  // namespace boids::bench
