// `boids sweep`: the order parameter over a grid of parameter values, each point an ensemble of
// replicas (host/core/ensemble.h). Rows reach the CSV file as points finish, so that an interrupted
// sweep loses only the points in flight, and --resume skips the points the file holds.

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <fstream>
#include <iostream>
#include <map>
#include <nlohmann/json.hpp>
#include <set>
#include <sstream>

#include "host/base/errors.h"
#include "host/base/message_text.h"
#include "host/cli/commands.h"
#include "host/cli/sweep_csv.h"
#include "host/config/flock_options.h"
#include "host/core/ensemble.h"
#include "host/core/flight_rules.h"
#include "host/core/flock_batch.h"
#include "host/io/output_file.h"
#include "host/model/initial_state.h"
#include "host/tools/flock_command_line.h"
#include "host/tools/progress.h"
#include "host/tools/python_script.h"

namespace boids::cli {

using tools::add_flock_options;
using tools::check_matplotlib;
using tools::check_png_name;
using tools::comma_fields;
using tools::OptionParser;
using tools::parse_file_name;
using tools::parse_positive;
using tools::parse_real;
using tools::parse_whole;
using tools::ProgressBar;
using tools::run_plot_script;
using tools::sweep_plot_script;
namespace {

// The options a sweep may vary: the numeric options of `boids run` but the seed (the replicas'
// seeds are --seed, --seed + 1, ...).
const std::set<std::string> kSweepable = {
    "count", "radius", "separation", "alignment", "cohesion",      "max-speed",
    "speed", "dt",     "density",    "world",     "wall-distance", "separation-radius",
    "fov",   "noise",  "goal-weight"};

constexpr std::uint64_t kMaxValues = 10000;

struct Param {
  std::string name;                 // as the option is spelled, without "--"
  std::vector<std::string> values;  // as texts the option takes
};

struct SweepOptions {
  FlockOptions flock;
  std::vector<Param> params;
  std::uint64_t replicas = 4, discard = 0, steps = 1000, every = 10;
  std::string csv_file, plot_file;
  bool resume = false, json = false, help = false;
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

// "%.12g": a range's values as people would write them (0.3, not 0.30000000000000004).
std::string value_text(double value) {
  char text[32];
  std::snprintf(text, sizeof text, "%.12g", value);
  return text;
}

// NAME=V1,V2,... or NAME=START:STOP:STEP (STOP included).
Param parse_param(const std::string& text) {
  const auto equals = text.find('=');
  if (equals == std::string::npos || equals == 0) {
    throw InputError("--param: expected NAME=V1,V2,... or NAME=START:STOP:STEP, got " +
                     boids::quoted(text));
  }
  Param p;
  p.name = text.substr(0, equals);
  for (char& c : p.name) c = c == '_' ? '-' : c;
  if (!kSweepable.count(p.name)) {
    std::string names;
    for (const std::string& n : kSweepable) names += (names.empty() ? "" : ", ") + n;
    throw InputError("--param: " + boids::quoted(text.substr(0, equals)) +
                     " is not an option a sweep can vary (" + names + ")");
  }
  const std::string spec = text.substr(equals + 1);
  const std::string option = "--param " + p.name;
  if (std::count(spec.begin(), spec.end(), ':') == 2) {
    const auto a = spec.find(':'), b = spec.find(':', a + 1);
    const double start = parse_real(option, spec.substr(0, a));
    const double stop = parse_real(option, spec.substr(a + 1, b - a - 1));
    const double step = parse_positive(option, spec.substr(b + 1));
    if (stop < start) throw InputError(option + ": the range ends before it starts");
    const double count = std::floor((stop - start) / step * (1 + 1e-12)) + 1;
    if (!(count <= kMaxValues)) {
      throw InputError(option + ": more than " + std::to_string(kMaxValues) + " values");
    }
    const auto n = static_cast<std::uint64_t>(count);
    for (std::uint64_t i = 0; i < n; ++i) {
      p.values.push_back(value_text(start + static_cast<double>(i) * step));
    }
    // The ends as given, so that a range up to an option's bound (noise to 2 pi) stays in it.
    p.values.front() = spec.substr(0, a);
    const double last = start + static_cast<double>(n - 1) * step;
    if (std::fabs(last - stop) <= 1e-9 * step) p.values.back() = spec.substr(a + 1, b - a - 1);
    return p;
  }
  if (spec.empty()) throw InputError(option + ": no values");
  for (const std::string& value : comma_fields(spec)) {
    if (value.empty()) throw InputError(option + ": an empty value in " + boids::quoted(spec));
    p.values.push_back(value);
  }
  if (p.values.size() > kMaxValues) {
    throw InputError(option + ": more than " + std::to_string(kMaxValues) + " values");
  }
  return p;
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
      "grid of all combinations). NAME: count, radius, separation, alignment, "
      "cohesion, max-speed, speed, dt, density, world, wall-distance, "
      "separation-radius, fov, noise, goal-weight",
      [&o](const std::string& v) { o.params.push_back(parse_param(v)); });
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
  parser.add_value("--plot", "FILE.png",
                   "draw the polarization (with its standard error) and the Binder cumulant "
                   "against the first parameter, a curve per value of the others (needs "
                   "python3-matplotlib)",
                   [&o](const std::string& v) {
                     check_png_name("--plot", v);
                     o.plot_file = v;
                   });
  parser.add_value("--schedule", "WAY",
                   "how the flocks fly: auto (batched on a GPU, side by side on CPUs, for flocks "
                   "small enough), alone (one after another), side-by-side (a flock to a "
                   "thread) or batched (many flocks as one; the hashed method)",
                   [&o](const std::string& v) { o.way = parse_way(v); });
  parser.add_flag("--resume", "skip the points --csv FILE already holds; append the others",
                  [&o] { o.resume = true; });
  parser.add_flag("--json", "print one JSON object instead of a table", [&o] { o.json = true; });
  parser.add_flag("--help", "show this help", [&o] { o.help = true; });
  add_flock_options(parser, o.flock);
  return parser;
}

// The grid, first parameter outermost: each point is its values, one per parameter.
std::vector<std::vector<std::string>> grid_of(const std::vector<Param>& params) {
  std::vector<std::vector<std::string>> points = {{}};
  for (const Param& p : params) {
    std::vector<std::vector<std::string>> next;
    for (const auto& point : points) {
      for (const std::string& value : p.values) {
        next.push_back(point);
        next.back().push_back(value);
      }
    }
    points = std::move(next);
  }
  return points;
}

// The flock options of a point: the sweep's, with the point's values given.
FlockOptions point_options(const SweepOptions& o, const std::vector<std::string>& point) {
  FlockOptions options = o.flock;
  OptionParser parser("");
  add_flock_options(parser, options);
  std::vector<std::string> args;
  for (std::size_t i = 0; i < point.size(); ++i) {
    args.push_back("--" + o.params[i].name + "=" + point[i]);
  }
  parser.parse(args);
  return options;
}

// A point as NAME=VALUE, ...
std::string point_text(const SweepOptions& o, const std::vector<std::string>& point) {
  std::string text;
  for (std::size_t i = 0; i < point.size(); ++i) {
    text += (i > 0 ? ", " : "") + o.params[i].name + "=" + point[i];
  }
  return text;
}

std::vector<std::string> param_names(const SweepOptions& o) {
  std::vector<std::string> names;
  for (const Param& p : o.params) names.push_back(p.name);
  return names;
}

// A point's value as JSON: a whole number as such, else a double (as the option read it).
nlohmann::ordered_json json_number(const std::string& text) {
  if (text.size() < 20 && text.find_first_not_of("0123456789") == std::string::npos) {
    return std::strtoull(text.c_str(), nullptr, 10);
  }
  return std::strtod(text.c_str(), nullptr);
}

struct PointResult {
  std::size_t index = 0;  // in the grid
  std::vector<std::string> point;
  std::uint64_t count = 0;
  EnsembleStatistics statistics;
  std::string flight;  // sweep_flight
  double seconds = 0;  // since the sweep started, when the point finished
};

void print_results(const SweepOptions& o, const std::vector<PointResult>& results) {
  if (o.json) {
    nlohmann::ordered_json j = nlohmann::ordered_json::array();
    for (const PointResult& r : results) {
      nlohmann::ordered_json row;
      for (std::size_t i = 0; i < o.params.size(); ++i) {
        row[o.params[i].name] = json_number(r.point[i]);
      }
      const EnsembleStatistics& s = r.statistics;
      row["boids"] = r.count;
      row["replicas"] = s.replicas;
      row["samples"] = s.samples;
      row["polarization"] = s.polarization_mean;
      row["polarization_std"] = s.polarization_std;
      row["polarization_sem"] = s.polarization_sem;
      row["binder"] = s.binder;
      row["susceptibility"] = s.susceptibility;
      row["flocks"] = s.groups_mean;
      row["largest_flock"] = s.largest_group_mean;
      row["mean_nn_distance"] = s.nn_distance_mean;
      j.push_back(row);
    }
    std::cout << j.dump(2) << std::endl;
    return;
  }
  for (const Param& p : o.params) std::printf("%-12s ", p.name.c_str());
  std::printf("%8s %10s %9s %8s %11s %8s\n", "boids", "phi", "+-sem", "binder", "chi", "flocks");
  for (const PointResult& r : results) {
    for (const std::string& v : r.point) std::printf("%-12s ", v.c_str());
    const EnsembleStatistics& s = r.statistics;
    std::printf("%8llu %10.6f %9.2e %8.4f %11.4g %8.2f\n", static_cast<unsigned long long>(r.count),
                s.polarization_mean, s.polarization_sem, s.binder, s.susceptibility, s.groups_mean);
  }
}

// Draws the sweep with host/cli/plot_sweep.py: every row of --csv (a resumed sweep's earlier
// points too), or this run's.
void plot_sweep(const SweepOptions& o, const std::vector<PointResult>& results,
                OutputFiles& outputs) {
  ScratchFile rows(".csv");
  if (!o.csv_file.empty()) {
    std::ifstream in(o.csv_file, std::ios::binary);
    std::ostringstream text;
    text << in.rdbuf();
    rows.write(text.str());
  } else {
    std::string text = sweep_csv_header(param_names(o)) + "\n";
    for (const PointResult& r : results) {
      text += sweep_csv_row(r.point, r.count, r.statistics, r.flight, r.seconds) + "\n";
    }
    rows.write(text);
  }
  const std::string title = to_string(o.flock.model.value_or(Model::kBoids)) + " model, " +
                            std::to_string(o.replicas) + " replicas a point, " +
                            std::to_string(o.steps / o.every) + " samples each";
  run_plot_script(
      "--plot", sweep_plot_script(),
      {rows.path(), std::to_string(o.params.size()), title, outputs.file_to_write("--plot")});
  outputs.written_externally("--plot");
}

}  // namespace

int sweep_command(const std::vector<std::string>& args) {
  SweepOptions o;
  const OptionParser parser = make_parser(o);
  const std::vector<std::string> given = parser.parse(args);
  if (o.help) {
    std::cout << parser.help();
    return 0;
  }
  if (o.params.empty()) throw InputError("no --param given: a sweep needs one (see --help)");
  std::set<std::string> names;
  for (const Param& p : o.params) {
    if (!names.insert(p.name).second) throw InputError("--param " + p.name + " is given twice");
    for (const std::string& g : given) {
      if (g == "--" + p.name) {
        throw InputError("--" + p.name + " is given both as an option and as --param " + p.name);
      }
    }
  }
  if (names.count("density") && o.flock.world) {
    throw InputError("--param density and --world both give the world's size: give one");
  }
  check_steps("--discard + --steps", o.discard + o.steps);  // each at most 10^18: no wrap
  if (o.steps % o.every != 0) {
    throw InputError("--steps " + std::to_string(o.steps) + " is not a multiple of --every " +
                     std::to_string(o.every));
  }
  if (o.resume && o.csv_file.empty()) throw InputError("--resume needs --csv FILE");
  if (!o.flock.init_file.empty()) throw InputError("--init: a sweep flies random starts");
  OutputFiles outputs;  // the plot, written whole at the end (the CSV grows as points finish)
  if (!o.plot_file.empty()) {
    outputs.add("--plot", o.plot_file, ".png");
    check_matplotlib("--plot", sweep_plot_script());
  }

  // Every point is resolved before any flies, so that a bad value stops the sweep at once.
  const auto points = grid_of(o.params);
  std::vector<SimulationConfig> configs;
  std::vector<std::uint64_t> counts;
  for (const auto& point : points) {
    const FlockOptions options = point_options(o, point);
    configs.push_back(resolve_config(options));
    counts.push_back(resolve_count(options));
    check_memory(configs.back(), counts.back());
  }
  const FinishedPoints done =
      o.resume ? finished_sweep_points(o.csv_file, param_names(o)) : FinishedPoints{};
  // A finished point must have been flown as this sweep flies it: as many boids, replicas and
  // samples, and the same flight (every other option, and the plan).
  const EnsemblePlan plan{o.discard, o.steps, o.every};
  const std::string sample_count = std::to_string(o.replicas * (o.steps / o.every));
  for (std::size_t p = 0; p < points.size(); ++p) {
    const auto row = done.find(points[p]);
    if (row == done.end()) continue;
    const std::vector<std::string>& rest = row->second;
    if (rest[kBoidsField] != std::to_string(counts[p]) ||
        rest[kReplicasField] != std::to_string(o.replicas) || rest[kSamplesField] != sample_count) {
      throw InputError("--resume: " + quoted_path(o.csv_file) + " holds a point flown with " +
                       rest[kBoidsField] + " boids, " + rest[kReplicasField] + " replicas and " +
                       rest[kSamplesField] + " samples; this sweep flies " +
                       std::to_string(counts[p]) + ", " + std::to_string(o.replicas) + " and " +
                       sample_count);
    }
    if (rest[kFlightField] != sweep_flight(configs[p], plan)) {
      throw InputError("--resume: " + quoted_path(o.csv_file) + " holds a point (" +
                       point_text(o, points[p]) +
                       ") flown with other options than this sweep's: the model, weights, "
                       "world, variants, backend, method, precision, --seed, --discard, "
                       "--steps and --every must be the same");
    }
  }
  if (o.way == EnsembleWay::kBatched && !batchable(configs)) {
    throw InputError(
        "--schedule batched: flocks fly batched on the hashed method of the cpu or "
        "cuda backend only, in two dimensions");
  }
  // One ensemble: the replicas of every point still to fly.
  std::vector<EnsembleFlock> flocks;
  std::vector<std::size_t> point_of, replica_of;
  for (std::size_t p = 0; p < points.size(); ++p) {
    if (done.count(points[p])) continue;
    for (std::uint64_t k = 0; k < o.replicas; ++k) {
      SimulationConfig config = configs[p];
      config.seed = o.flock.seed + k;
      const std::uint64_t count = counts[p];
      flocks.push_back({config, count, [config, count] {
                          return make_initial_state(count, config.seed, config.params);
                        }});
      point_of.push_back(p);
      replica_of.push_back(k);
    }
  }
  const EnsembleSchedule schedule = ensemble_schedule(flocks, o.way);
  // A new sweep starts its file; a resumed one appends to it (or starts it, if it holds no
  // header yet).
  if (!o.csv_file.empty() && !(o.resume && sweep_csv_started(o.csv_file))) {
    append_synced_line(o.csv_file, sweep_csv_header(param_names(o)), /*truncate=*/true);
  }

  std::vector<std::uint64_t> remaining(points.size(), o.replicas);
  // By replica, so that the statistics add in the same order however the flocks finish.
  std::vector<std::vector<std::vector<EnsembleSample>>> samples(
      points.size(), std::vector<std::vector<EnsembleSample>>(o.replicas));
  const auto started = std::chrono::steady_clock::now();
  std::vector<PointResult> results;
  ProgressBar progress(flocks.size(), "flocks");
  std::uint64_t finished = 0;
  fly_ensemble(
      flocks, plan, schedule, [&](std::size_t i, const std::vector<EnsembleSample>& flown) {
        progress.update(++finished);
        const std::size_t p = point_of[i];
        samples[p][replica_of[i]] = flown;
        if (--remaining[p] > 0) return;
        // Its replicas are done: the point's row, now.
        PointResult r;
        r.index = p;
        r.point = points[p];
        r.count = counts[p];
        r.statistics = ensemble_statistics(samples[p], counts[p]);
        r.flight = sweep_flight(configs[p], plan);
        r.seconds =
            std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
        if (!o.csv_file.empty()) {
          append_synced_line(o.csv_file,
                             sweep_csv_row(r.point, r.count, r.statistics, r.flight, r.seconds),
                             /*truncate=*/false);
        }
        results.push_back(std::move(r));
        samples[p] = std::vector<std::vector<EnsembleSample>>(o.replicas);
      });
  progress.finish();
  // In the grid's order, whatever order the points finished in.
  std::sort(results.begin(), results.end(),
            [](const PointResult& a, const PointResult& b) { return a.index < b.index; });
  if (outputs.has("--plot")) plot_sweep(o, results, outputs);
  outputs.commit();
  print_results(o, results);
  return 0;
}

}  // namespace boids::cli
