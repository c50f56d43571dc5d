// `boids sweep`: the order parameter over a grid of parameter values, each point an ensemble of
// replicas (host/core/ensemble.h). Rows reach the CSV file as points finish, so that an interrupted
// sweep loses only the points in flight, and --resume skips the points the file holds.

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <iostream>
#include <map>
#include <nlohmann/json.hpp>
#include <optional>
#include <set>

#include "host/base/errors.h"
#include "host/base/interruption.h"
#include "host/base/message_text.h"
#include "host/cli/commands.h"
#include "host/cli/sweep_csv.h"
#include "host/cli/sweep_grid.h"
#include "host/cli/sweep_report.h"
#include "host/config/flock_options.h"
#include "host/core/ensemble.h"
#include "host/core/flight_cost.h"
#include "host/core/flight_rules.h"
#include "host/core/flock_batch.h"
#include "host/io/flight_params.h"
#include "host/io/output_file.h"
#include "host/model/initial_state.h"
#include "host/tools/flock_command_line.h"
#include "host/tools/output_record.h"
#include "host/tools/progress.h"
#include "host/tools/progress_lines.h"
#include "host/tools/python_script.h"

namespace boids::cli {

using tools::add_flock_options;
using tools::check_figure_name;
using tools::check_matplotlib;
using tools::OptionParser;
using tools::parse_file_name;
using tools::parse_whole;
using tools::ProgressBar;
using tools::sweep_plot_script;
namespace {

struct SweepOptions {
  FlockOptions flock;
  std::vector<SweepParam> params;
  std::uint64_t replicas = 4, discard = 0, steps = 1000, every = 10;
  std::string csv_file, plot_file;
  bool resume = false, overwrite = false, json = false, help = false;
  EnsembleWay way = EnsembleWay::kAuto;
};

EnsembleWay parse_way(const std::string& text) {
  if (text == "auto") return EnsembleWay::kAuto;
  if (text == "alone") return EnsembleWay::kAlone;
  if (text == "side-by-side") return EnsembleWay::kSideBySide;
  if (text == "batched") return EnsembleWay::kBatched;
  throw InputError("--schedule: expected auto, alone, side-by-side or batched, got " +
                   boids::quoted(text));
}

OptionParser make_parser(SweepOptions& o) {
  OptionParser parser(
      "Usage: boids sweep --param NAME=VALUES [--param ...] [options]\n"
      "Flies --replicas flocks at every point of a grid of parameter values and reports the\n"
      "polarization's mean, standard deviation and standard error, the Binder cumulant\n"
      "U = 1 - <phi^4> / (3 <phi^2>^2), the susceptibility N (<phi^2> - <phi>^2), and the mean\n"
      "flock count, largest flock and nearest-neighbour distance. Small flocks fly in batches\n"
      "on a GPU and side by side on CPU threads; each flies as it would alone.");
  parser.add_repeated_value(
      "--param", "NAME=VALUES",
      "a parameter and its values: V1,V2,... or START:STOP:STEP; repeatable (the "
      "grid of all combinations). NAME: " +
          sweepable_list(),
      [&o](const std::string& v) { o.params.push_back(parse_sweep_param(v)); });
  parser.add_value(
      "--replicas", "K", "flocks a point, seeds --seed, --seed + 1, ... (default 4)",
      [&o](const std::string& v) { o.replicas = parse_whole("--replicas", v, 1, 100000); });
  parser.add_value(
      "--discard", "T0", "steps of transient before measuring (default 0)",
      [&o](const std::string& v) { o.discard = parse_whole("--discard", v, 0, kMaxSteps); });
  parser.add_value(
      "--steps", "T", "measured steps, a multiple of --every (default 1000)",
      [&o](const std::string& v) { o.steps = parse_whole("--steps", v, 1, kMaxSteps); });
  parser.add_value("--every", "K", "steps between samples, >= 1 (default 10)",
                   [&o](const std::string& v) { o.every = parse_whole("--every", v, 1); });
  parser.add_value("--csv", "FILE", "write a row a point, as each point finishes",
                   [&o](const std::string& v) { o.csv_file = parse_file_name("--csv", v); });
  parser.add_value("--plot", "FILE",
                   "draw the polarization (with its standard error) and the Binder cumulant "
                   "against the first parameter, a curve per value of the others, as a PNG, PDF "
                   "or SVG by FILE's ending (needs python3-matplotlib)",
                   [&o](const std::string& v) {
                     check_figure_name("--plot", v);
                     o.plot_file = v;
                   });
  parser.add_value("--schedule", "WAY",
                   "how the flocks fly: auto (batched on a GPU, side by side on CPUs, for flocks "
                   "small enough), alone (one after another), side-by-side (a flock to a "
                   "thread) or batched (many flocks as one; the hashed method)",
                   [&o](const std::string& v) { o.way = parse_way(v); });
  parser.add_flag("--resume", "skip the points --csv FILE already holds; append the others",
                  [&o] { o.resume = true; });
  parser.add_flag("--overwrite",
                  "replace what --csv FILE holds (a sweep refuses to start over a file with rows)",
                  [&o] { o.overwrite = true; });
  parser.add_flag("--json", "print one JSON object instead of a table", [&o] { o.json = true; });
  parser.add_flag("--help", "show this help", [&o] { o.help = true; });
  add_flock_options(parser, o.flock);
  return parser;
}

// The flock options of a point: the sweep's, with the point's values given.
FlockOptions point_options(const SweepOptions& o, const SweepPoint& point) {
  FlockOptions options = o.flock;
  OptionParser parser("");
  add_flock_options(parser, options);
  std::vector<std::string> args;
  for (std::size_t i = 0; i < point.size(); ++i) {
    args.push_back("--" + o.params[i].name + "=" + o.params[i].values[point[i]]);
  }
  parser.parse(args);
  return options;
}

std::vector<std::string> param_names(const SweepOptions& o) {
  std::vector<std::string> names;
  for (const SweepParam& p : o.params) names.push_back(p.name);
  return names;
}

// The points of the grid the file's rows hold, each checked against the grid: a point of this
// sweep, held once, flown as this sweep flies it (as many boids, replicas and samples, and the
// same flight: every other option, and the plan).
std::vector<PointResult> kept_points(const SweepOptions& o, const std::vector<GridPoint>& grid,
                                     const std::vector<SweepRow>& rows) {
  std::map<std::vector<double>, std::size_t> by_numbers;
  for (std::size_t p = 0; p < grid.size(); ++p) {
    std::vector<double> numbers;
    for (std::size_t i = 0; i < o.params.size(); ++i) {
      numbers.push_back(o.params[i].numbers[grid[p].point[i]]);
    }
    by_numbers[numbers] = p;
  }
  const std::string file = quoted_path(o.csv_file);
  const std::string sample_count = std::to_string(o.replicas * (o.steps / o.every));
  std::map<std::size_t, std::size_t> line_of;  // grid index -> the line that holds it
  std::vector<PointResult> kept;
  for (const SweepRow& row : rows) {
    const std::string where = "--resume: " + file + ", line " + std::to_string(row.line) + ": ";
    std::string point;
    for (std::size_t i = 0; i < o.params.size(); ++i) {
      point += (i > 0 ? ", " : "") + o.params[i].name + "=" + row.values[i];
    }
    const auto found = by_numbers.find(row.numbers);
    if (found == by_numbers.end()) {
      throw InputError(where + "its point (" + point + ") is not on this sweep's grid");
    }
    const std::size_t p = found->second;
    if (!line_of.emplace(p, row.line).second) {
      throw InputError(where + "its point (" + point + ") is held by line " +
                       std::to_string(line_of[p]) + " too");
    }
    const EnsembleStatistics& s = row.statistics;
    if (row.count != grid[p].count || s.replicas != o.replicas ||
        std::to_string(s.samples) != sample_count) {
      throw InputError(where + "its point (" + point + ") was flown with " +
                       std::to_string(row.count) + " boids, " + std::to_string(s.replicas) +
                       " replicas and " + std::to_string(s.samples) +
                       " samples; this sweep flies " + std::to_string(grid[p].count) + ", " +
                       std::to_string(o.replicas) + " and " + sample_count);
    }
    if (row.flight != grid[p].flight) {
      throw InputError(where + "its point (" + point +
                       ") was flown with other options than this sweep's: the model, weights, "
                       "world, variants, backend, method, precision, --seed, --discard, "
                       "--steps and --every must be the same");
    }
    kept.push_back({p, row.count, s, row.flight, row.seconds, true});
  }
  return kept;
}

// Refuses options that do not go together, before anything is resolved.
void check_options(const SweepOptions& o, const std::vector<std::string>& given) {
  if (o.params.empty()) throw InputError("no --param given: a sweep needs one (see --help)");
  std::set<std::string> names;
  for (const SweepParam& p : o.params) {
    if (!names.insert(p.name).second) throw InputError("--param " + p.name + " is given twice");
    for (const std::string& g : given) {
      if (g == "--" + p.name) {
        throw InputError("--" + p.name + " is given both as an option and as --param " + p.name);
      }
    }
  }
  if (names.count("density") && o.flock.given("--world")) {
    throw InputError("--param density and --world both give the world's size: give one");
  }
  check_steps("--discard + --steps", o.discard + o.steps);  // each at most 10^18: no wrap
  if (o.steps % o.every != 0) {
    throw InputError("--steps " + std::to_string(o.steps) + " is not a multiple of --every " +
                     std::to_string(o.every));
  }
  if (o.resume && o.csv_file.empty()) throw InputError("--resume needs --csv FILE");
  if (o.overwrite && o.csv_file.empty()) throw InputError("--overwrite needs --csv FILE");
  if (o.overwrite && o.resume) {
    throw InputError("--resume and --overwrite: give one (continue the file, or replace it)");
  }
  if (!o.flock.init_file.empty()) throw InputError("--init: a sweep flies random starts");
}

std::vector<GridPoint> resolve_grid(const SweepOptions& o, const EnsemblePlan& plan) {
  std::vector<GridPoint> grid;
  for (SweepPoint& point : sweep_grid(o.params)) {
    const FlockOptions options = point_options(o, point);
    GridPoint g{std::move(point), resolve_config(options), resolve_count(options), ""};
    check_memory(g.config, g.count);
    if (grid.empty() || g.count > grid.back().count)
      tools::say_if_slow("boids sweep", g.config, g.count);
    g.flight = sweep_flight(g.config, plan);
    grid.push_back(std::move(g));
  }
  return grid;
}

// Where a sweep stopped by a signal stopped: the points done, and where their rows are.
std::string stopped_after(std::size_t done, std::size_t points, const std::string& csv_file) {
  std::string where =
      "with " + std::to_string(done) + " of " + std::to_string(points) + " points done";
  if (csv_file.empty()) return where + "; nothing written";
  return where + "; their rows are in " + quoted_path(csv_file) + ", and --resume flies the rest";
}

}  // namespace

// What a sweep is, for its CSV's record and its --json: the grid and what every point flies
// (its first point's flight, whose parameters the grid's vary).
nlohmann::ordered_json sweep_description(const SweepOptions& o,
                                         const std::vector<GridPoint>& grid) {
  nlohmann::ordered_json j;
  nlohmann::ordered_json params = nlohmann::ordered_json::array();
  for (const SweepParam& p : o.params) params.push_back({{"name", p.name}, {"values", p.values}});
  j["grid"] = params;
  j["replicas"] = o.replicas;
  j["first_seed"] = o.flock.seed;
  j["discard"] = o.discard;
  j["steps"] = o.steps;
  j["every"] = o.every;
  j["first_point"] = params_to_json(grid.front().config.params, ParamForm::kReport);
  return j;
}

// What the plot's title says: the model, the density (the first point's, when the grid varies
// it), the transient, the measured steps and their samples, the replicas.
std::string plot_title(const SweepOptions& o, const std::vector<GridPoint>& grid) {
  const FlockParams& first = grid.front().config.params;
  char text[320];
  std::snprintf(text, sizeof text,
                "%s model, %d dimensions, density %.4g, %llu replicas a point\n"
                "%llu steps discarded, then %llu measured, a sample every %llu (%llu each)",
                to_string(first.model).c_str(), first.dimensions,
                density_of(first, grid.front().count), static_cast<unsigned long long>(o.replicas),
                static_cast<unsigned long long>(o.discard),
                static_cast<unsigned long long>(o.steps), static_cast<unsigned long long>(o.every),
                static_cast<unsigned long long>(o.steps / o.every));
  return text;
}

// The CSV's record (host/tools/output_record.h), written as its rows begin: which boids, the
// command, and the sweep.
void write_sweep_record(const SweepOptions& o, const std::vector<GridPoint>& grid,
                        const std::vector<std::string>& args) {
  if (!tools::gets_record(o.csv_file)) return;
  write_file_atomically(
      tools::record_path(o.csv_file),
      tools::record_text(o.csv_file, tools::made_by("sweep", args), sweep_description(o, grid)));
}

int sweep_command(const std::vector<std::string>& args) {
  SweepOptions o;
  const OptionParser parser = make_parser(o);
  const std::vector<std::string> given = parser.parse(args);
  if (o.help) {
    std::cout << parser.help();
    return 0;
  }
  check_options(o, given);
  // Every output is checked before any work: the plot is written whole at the end, the CSV
  // grows as points finish.
  OutputFiles outputs;
  if (!o.csv_file.empty()) outputs.check("--csv", o.csv_file);
  if (!o.plot_file.empty()) {
    outputs.add("--plot", o.plot_file, check_figure_name("--plot", o.plot_file));
    check_matplotlib("--plot", sweep_plot_script());
  }
  const EnsemblePlan plan{o.discard, o.steps, o.every};
  const std::vector<GridPoint> grid = resolve_grid(o, plan);
  std::optional<SweepCsv> csv;
  if (!o.csv_file.empty()) {
    csv.emplace(o.csv_file, param_names(o),
                o.resume      ? SweepCsv::Start::kResume
                : o.overwrite ? SweepCsv::Start::kOverwrite
                              : SweepCsv::Start::kNew);
  }
  std::vector<PointResult> results =
      csv ? kept_points(o, grid, csv->kept()) : std::vector<PointResult>{};
  std::vector<bool> done(grid.size(), false);
  for (const PointResult& r : results) done[r.index] = true;
  if (o.way == EnsembleWay::kBatched) {
    std::vector<SimulationConfig> configs;
    for (const GridPoint& g : grid) configs.push_back(g.config);
    const std::string why = why_not_batched(configs);
    if (!why.empty()) throw InputError("--schedule batched: " + why);
  }
  // One ensemble: the replicas of every point still to fly.
  std::vector<EnsembleFlock> flocks;
  std::vector<std::size_t> point_of, replica_of;
  for (std::size_t p = 0; p < grid.size(); ++p) {
    if (done[p]) continue;
    for (std::uint64_t k = 0; k < o.replicas; ++k) {
      SimulationConfig config = grid[p].config;
      config.seed = o.flock.seed + k;
      const std::uint64_t count = grid[p].count;
      flocks.push_back({config, count, [config, count] {
                          return make_initial_state(count, config.seed, config.params);
                        }});
      point_of.push_back(p);
      replica_of.push_back(k);
    }
  }
  const EnsembleSchedule schedule = ensemble_schedule(flocks, o.way);
  if (csv) {
    csv->begin();
    write_sweep_record(o, grid, args);
  }

  std::vector<std::uint64_t> remaining(grid.size(), o.replicas);
  // By replica, so that the statistics add in the same order however the flocks finish.
  std::vector<std::vector<std::vector<EnsembleSample>>> samples(
      grid.size(), std::vector<std::vector<EnsembleSample>>(o.replicas));
  const auto started = std::chrono::steady_clock::now();
  ProgressBar progress(flocks.size(), "flocks");
  std::uint64_t finished = 0;
  try {
    fly_ensemble(
        flocks, plan, schedule, [&](std::size_t i, const std::vector<EnsembleSample>& flown) {
          progress.update(++finished);
          const std::size_t p = point_of[i];
          samples[p][replica_of[i]] = flown;
          if (--remaining[p] > 0) return;
          // Its replicas are done: the point's row, now.
          PointResult r;
          r.index = p;
          r.count = grid[p].count;
          r.statistics = ensemble_statistics(samples[p], grid[p].count, o.every);
          r.flight = grid[p].flight;
          r.seconds =
              std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
          if (csv) {
            csv->append(sweep_csv_row(point_values(o.params, grid[p].point), r.count, r.statistics,
                                      r.flight, r.seconds));
          }
          results.push_back(std::move(r));
          samples[p] = std::vector<std::vector<EnsembleSample>>(o.replicas);
        });
  } catch (const Interrupted& stop) {
    throw Interrupted(stop.signal(), stopped_after(results.size(), grid.size(), o.csv_file));
  }
  progress.finish();
  // In the grid's order, whatever order the points finished in.
  std::sort(results.begin(), results.end(),
            [](const PointResult& a, const PointResult& b) { return a.index < b.index; });
  if (outputs.has("--plot")) {
    plot_sweep(o.params, plot_title(o, grid), grid, results, outputs);
  }
  outputs.commit();
  if (o.json) {
    nlohmann::ordered_json head;
    head["made_by"] = tools::made_by("sweep", args);
    head.update(sweep_description(o, grid));
    print_sweep_json(head, o.params, grid, results);
  } else {
    print_sweep_table(o.params, grid, results, o.csv_file);
  }
  return 0;
}

}  // namespace boids::cli
