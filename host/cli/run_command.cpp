// `boids run`: simulate a flock, report its metrics, optionally save its state and history.
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <iostream>
#include <nlohmann/json.hpp>
#include <optional>
#include <sstream>

#include "host/base/errors.h"
#include "host/base/interruption.h"
#include "host/base/message_text.h"
#include "host/base/version.h"
#include "host/cli/commands.h"
#include "host/cli/flight_change.h"
#include "host/config/flock_host.h"
#include "host/config/flock_options.h"
#include "host/core/flight_cost.h"
#include "host/core/flight_rules.h"
#include "host/io/checkpoint.h"
#include "host/io/flight_params.h"
#include "host/io/output_file.h"
#include "host/io/state_file.h"
#include "host/model/initial_state.h"
#include "host/model/param_table.h"
#include "host/tools/flock_command_line.h"
#include "host/tools/output_record.h"
#include "host/tools/progress_lines.h"
#include "host/tools/python_script.h"
#include "host/tools/reports.h"
#include "host/tools/trajectory_option.h"

namespace boids::cli {

using tools::add_flock_options;
using tools::add_record;
using tools::add_trajectory_options;
using tools::check_figure_name;
using tools::check_matplotlib;
using tools::check_trajectory_options;
using tools::made_by;
using tools::metrics_json;
using tools::metrics_plot_script;
using tools::OptionParser;
using tools::parse_file_name;
using tools::parse_non_negative;
using tools::parse_whole;
using tools::ProgressLines;
using tools::run_plot_script;
using tools::trajectory_parameters;
using tools::TrajectoryOptions;
using tools::TrajectoryRecording;
using tools::write_record;
namespace {

constexpr const char* kMetricsHeader =
    "step,polarization,flocks,largest_flock,mean_nn_distance,order,mean_neighbors,milling";
// The output beside --save that holds the predators.
constexpr const char* kSavePredators = "--save (predators)";
// The column a flight with predators adds.
constexpr const char* kPredatorColumn = ",within_reach";

// The most steps between two looks at the clock and at a stop signal.
constexpr std::uint64_t kLongestStretch = std::uint64_t{1} << 40;

struct RunOptions {
  FlockOptions flock;
  std::uint64_t steps = 600;
  std::string save_file, metrics_file, plot_file, checkpoint_file, resume_file;
  std::uint64_t metrics_every = 0;     // 0: not given
  std::uint64_t checkpoint_every = 0;  // 0: at the end only
  double progress_seconds = 5;         // --progress: a line every so many seconds, 0: none
  TrajectoryOptions trajectory;
  bool new_flight = false;  // --new-flight: --resume with parameters changed
  bool json = false;
  bool help = false;
};

OptionParser make_parser(RunOptions& o) {
  OptionParser parser(
      "Usage: boids run [options]\n"
      "Simulates a flock and prints its metrics: polarization, order, flocks, largest flock, mean\n"
      "nearest-neighbour distance and mean number of neighbours.");
  add_flock_options(parser, o.flock);
  parser.add_epilogue(
      "Examples:\n"
      "  boids run                                         the published example: 120 boids, 600 "
      "steps\n"
      "  boids run --count 1e6 --density 0.012 --steps 100 --json   a million at the example's "
      "density\n"
      "  boids run --model vicsek --noise 2.5 --density 4 --count 4000 --metrics m.csv\n"
      "  boids run --dimensions 3 --count 100000 --trajectory flight.h5 --trajectory-every 10\n"
      "  boids run --fov 270 --boundary walls --obstacles examples/rocks.csv --goal 20,80\n"
      "More: docs/running.md; every parameter, its range and default: boids params.\n");
  parser.add_heading("The run and its outputs");
  parser.add_value(
      "--steps", "N", "steps to simulate, from 0 to 10^18 (default 600)",
      [&o](const std::string& v) { o.steps = parse_whole("--steps", v, 0, kMaxSteps); });
  parser.add_value("--save", "FILE",
                   "write the final state as CSV (x,y,vx,vy), in input order; as NumPy float64 of "
                   "shape (N, 4) when FILE ends in .npy",
                   [&o](const std::string& v) { o.save_file = parse_file_name("--save", v); });
  parser.add_value(
      "--metrics", "FILE",
      "write metrics as CSV (" + std::string(kMetricsHeader) + "; with --predators, within_reach)",
      [&o](const std::string& v) { o.metrics_file = parse_file_name("--metrics", v); });
  parser.add_value(
      "--metrics-every", "K", "metrics every K steps, >= 1 (default: start and end only)",
      [&o](const std::string& v) { o.metrics_every = parse_whole("--metrics-every", v, 1); });
  parser.add_value("--plot", "FILE",
                   "draw polarization, the largest flock's share and the order against the step "
                   "as a PNG, PDF or SVG, by FILE's ending (needs python3-matplotlib); it measures "
                   "the flock every --metrics-every steps, else at 200 steps, and the summary "
                   "says what the measures cost",
                   [&o](const std::string& v) {
                     check_figure_name("--plot", v);
                     o.plot_file = v;
                   });
  parser.add_value(
      "--checkpoint", "FILE",
      "write a checkpoint (every option of the flight, its step, its state) at the "
      "end, and every --checkpoint-every steps; --resume continues it",
      [&o](const std::string& v) { o.checkpoint_file = parse_file_name("--checkpoint", v); });
  parser.add_value(
      "--checkpoint-every", "K",
      "a checkpoint every K steps of the flight, >= 1 (default: at the end only)",
      [&o](const std::string& v) { o.checkpoint_every = parse_whole("--checkpoint-every", v, 1); });
  parser.add_value("--resume", "FILE",
                   "continue the flight of a checkpoint, bit for bit as if it had not stopped: "
                   "its options come from the checkpoint (give none of them), and --steps is "
                   "the step to end at, counted from the flight's start",
                   [&o](const std::string& v) { o.resume_file = parse_file_name("--resume", v); });
  parser.add_flag("--new-flight",
                  "with --resume: change the flight from the checkpoint's step by the model's "
                  "options given (a quench, an anneal): a new flight, the change recorded in "
                  "its checkpoints' history",
                  [&o] { o.new_flight = true; });
  add_trajectory_options(parser, o.trajectory);
  parser.add_value(
      "--progress", "SECONDS",
      "a line on stderr every SECONDS of a run (default 5; 0: none), as LAMMPS' "
      "thermo output: the step, the steps a second, the observables and the time "
      "left; never more often than ten times a measure of the flock takes",
      [&o](const std::string& v) { o.progress_seconds = parse_non_negative("--progress", v); });
  parser.add_flag("--json", "print one JSON object instead of a summary", [&o] { o.json = true; });
  parser.add_flag("--help", "show this help", [&o] { o.help = true; });
  return parser;
}

std::string format_number(double value) {
  std::ostringstream out;
  out.precision(17);
  out << value;
  return out.str();
}

void append_metrics_row(std::string& csv, std::uint64_t step, const FlockMetrics& m,
                        bool predators) {
  csv += std::to_string(step) + "," + format_number(m.polarization) + "," +
         std::to_string(m.flocks) + "," + std::to_string(m.largest_flock) + "," +
         format_number(m.mean_nn_distance) + "," + format_number(m.order) + "," +
         format_number(m.mean_neighbors) + "," + format_number(m.milling) +
         (predators ? "," + std::to_string(m.within_reach) : std::string()) + "\n";
}

double boid_steps_per_second(const Simulation& sim, std::uint64_t steps, double seconds) {
  return seconds > 0 ? static_cast<double>(sim.count()) * static_cast<double>(steps) / seconds
                     : 0.0;
}

// Memory the backend holds per boid (on the GPU for the cuda backend).
double bytes_per_boid(const Simulation& sim) {
  return static_cast<double>(sim.bytes_allocated()) / static_cast<double>(sim.count());
}

// The steps a run took: from `first` (0, or a checkpoint's step) to `last`.
struct Flight {
  std::uint64_t first = 0, last = 0;
  double seconds = 0;    // stepping alone
  double measuring = 0;  // the measures of the flock: metrics rows, frames, progress lines
  std::uint64_t measures = 0;
  std::uint64_t steps() const { return last - first; }
};

// The flock's metrics, their time counted apart from the stepping's.
FlockMetrics measured(Simulation& sim, Flight& flight, double* took = nullptr) {
  const auto start = std::chrono::steady_clock::now();
  FlockMetrics m = sim.metrics();
  const double seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  flight.measuring += seconds;
  ++flight.measures;
  if (took) *took = seconds;
  return m;
}

// The run as `--json` reports it before its results, and as a trajectory's /parameters
// record it: the steps it takes from its first (0, or a checkpoint's step), where it started,
// where it runs, and the model with every variant.
nlohmann::ordered_json run_parameters(const Simulation& sim, const RunOptions& o,
                                      std::uint64_t first_step) {
  const auto& c = sim.config();
  const auto file_or_null = [](const std::string& file) {
    return file.empty() ? nlohmann::ordered_json(nullptr) : nlohmann::ordered_json(file);
  };
  nlohmann::ordered_json j = tools::provenance();
  j["count"] = sim.count();
  j["steps"] = o.steps - first_step;
  j["first_step"] = first_step;
  j["seed"] = c.seed;
  j["init"] = file_or_null(o.flock.init_file);
  j["resume"] = file_or_null(o.resume_file);
  j["backend"] = to_string(c.backend);
  j["method"] = to_string(c.method);
  j["precision"] = to_string(c.precision);
  j["device"] = sim.device();
  j.update(params_to_json(c.params, ParamForm::kReport));
  if (!c.history.empty()) j["history"] = history_json(c.history);  // --new-flight
  return j;
}

void print_summary(const Simulation& sim, const Flight& flight, const FlockMetrics& m) {
  const auto& c = sim.config();
  std::printf("%llu boids (%s), %llu steps on %s (%s, %s): %s\n",
              static_cast<unsigned long long>(sim.count()), to_string(c.params.model).c_str(),
              static_cast<unsigned long long>(flight.steps()), to_string(c.backend).c_str(),
              to_string(c.method).c_str(), to_string(c.precision).c_str(), sim.device().c_str());
  const World& w = c.params.world;
  const bool box = c.params.dimensions == 3;
  char sides[96];
  if (box) {
    std::snprintf(sides, sizeof sides, "3D, %.6g x %.6g x %.6g", w.width, w.height, w.depth);
  } else {
    std::snprintf(sides, sizeof sides, "2D, %.6g x %.6g", w.width, w.height);
  }
  const double density = density_of(c.params, sim.count());
  std::printf("  world              %s (%s), %.4g boids per unit %s, r = %.4g\n", sides,
              w.torus()    ? "a torus"
              : w.walled() ? "walled"
                           : "open space: the start's region",
              density, box ? "volume" : "area", c.params.radius);
  // The default world is the published model's whatever the count: a flock much larger than
  // its model's example flies that much denser, which --count alone may not have meant.
  if (far_denser_than_example(c.params, sim.count())) {
    const double example = example_density(c.params.model);
    std::printf(
        "                     %.0f times the %s model's example density; --density %g "
        "keeps the example's\n",
        density / example, to_string(c.params.model).c_str(), example);
  }
  if (flight.first > 0) {
    std::printf("  resumed at step %llu, now at step %llu\n",
                static_cast<unsigned long long>(flight.first),
                static_cast<unsigned long long>(flight.last));
  }
  for (const FlightChange& change : c.history) {  // a new flight, changed on its way
    std::printf("  changed            at step %llu: %s\n",
                static_cast<unsigned long long>(change.step), describe_change(change).c_str());
  }
  std::printf("  polarization       %.6f\n", m.polarization);
  std::printf("  order              %.6f\n", m.order);
  std::printf("  milling            %.6f\n", m.milling);
  std::printf("  flocks             %llu (largest %llu boids)\n",
              static_cast<unsigned long long>(m.flocks),
              static_cast<unsigned long long>(m.largest_flock));
  std::printf("  mean NN distance   %.6g\n", m.mean_nn_distance);
  std::printf("  mean neighbours    %.4g\n", m.mean_neighbors);
  if (sim.config().params.predators > 0) {
    std::printf("  within reach       %llu boids of %d predators\n",
                static_cast<unsigned long long>(m.within_reach), sim.config().params.predators);
  }
  std::printf("  stepping           %.4g s (%.4g boid-steps/s)\n", flight.seconds,
              boid_steps_per_second(sim, flight.steps(), flight.seconds));
  std::printf("  measuring          %.4g s (%llu measures of every metric)\n", flight.measuring,
              static_cast<unsigned long long>(flight.measures));
  std::printf("  memory             %.4g MiB (%.1f bytes per boid)\n",
              static_cast<double>(sim.bytes_allocated()) / (1 << 20), bytes_per_boid(sim));
}

void print_json(const Simulation& sim, const RunOptions& o, const Flight& flight,
                const FlockMetrics& m) {
  nlohmann::ordered_json j = run_parameters(sim, o, flight.first);
  j.update(metrics_json(m, sim.config().params.predators > 0));
  j["seconds"] = flight.seconds;
  j["measuring_seconds"] = flight.measuring;
  j["measures"] = flight.measures;
  j["boid_steps_per_second"] = boid_steps_per_second(sim, flight.steps(), flight.seconds);
  j["bytes_per_boid"] = bytes_per_boid(sim);
  std::cout << j.dump(2) << std::endl;
}

// Draws the metrics series with host/cli/plot_metrics.py into the --plot output, a new
// flight's changes from `first` on marked at their steps.
void plot_metrics(std::uint64_t count, const SimulationConfig& config, std::uint64_t first,
                  const std::string& metrics_csv, OutputFiles& outputs) {
  ScratchFile series(".csv");
  series.write(metrics_csv);
  const std::string title = std::to_string(count) + " boids, " + to_string(config.params.model) +
                            " model, seed " + std::to_string(config.seed);
  std::vector<std::string> arguments{series.path(), std::to_string(count), title,
                                     outputs.file_to_write("--plot")};
  for (const FlightChange& change : config.history) {
    if (change.step >= first) {
      arguments.push_back(std::to_string(change.step) + "=" + describe_change(change));
    }
  }
  run_plot_script("--plot", metrics_plot_script(), arguments);
  outputs.written_externally("--plot");
}

// Where a run stopped by a signal stopped, and what it kept: "at step 300 of 1000; kept: the
// checkpoint of step 200, the trajectory's 4 frames, to step 300". The outputs written at the
// end were not written, and their temporary files are removed as the run unwinds.
std::string stopped_at(std::uint64_t step, const Flight& flight,
                       std::optional<std::uint64_t> checkpointed,
                       const TrajectoryRecording& trajectory) {
  std::vector<std::string> kept;
  if (checkpointed) kept.push_back("the checkpoint of step " + std::to_string(*checkpointed));
  if (std::string frames = trajectory.kept(); !frames.empty()) kept.push_back(std::move(frames));
  std::string where =
      "at step " + std::to_string(step) + " of " + std::to_string(flight.last) + "; ";
  if (kept.empty()) return where + "no output written";
  where += "kept: " + kept[0];
  for (std::size_t i = 1; i < kept.size(); ++i) where += ", " + kept[i];
  return where;
}

// The checkpoint to continue, checked against the rest of the command line: it holds every
// option of its flight, so none may be given beside it, unless --new-flight changes some.
ResumedFlight checkpoint_to_resume(const RunOptions& o, const std::vector<std::string>& given,
                                   const std::vector<std::string>& args) {
  if (!o.new_flight) {
    tools::refuse_flock_options(given, "--resume",
                                "the checkpoint holds every option of its flight (--new-flight "
                                "changes the model's parameters from its step)");
  }
  if (std::find(given.begin(), given.end(), "--steps") == given.end()) {
    throw InputError("--resume needs --steps N, the step the flight ends at");
  }
  ResumedFlight checkpoint = flock_host().read_resumed(o.resume_file);
  if (o.steps < checkpoint.head.step) {
    throw InputError("--steps " + std::to_string(o.steps) + " is before the checkpoint's step " +
                     std::to_string(checkpoint.head.step) + " in " + quoted_path(o.resume_file) +
                     " (with --resume, --steps counts from the flight's start)");
  }
  if (o.new_flight) {
    checkpoint.head.config = changed_flight(checkpoint.head.config, checkpoint.head.step, o.flock,
                                            given, made_by("run", args));
    if (checkpoint.whole) {
      // The boids must fit the changed flight as a checkpoint's must fit its own (a Vicsek
      // flock moves at its --speed, taken to a changed one; predators no faster than theirs):
      // else a checkpoint of it could not be read back. The ranks of an MPI run do the same
      // with their own boids.
      checkpoint.whole->config = checkpoint.head.config;
      take_changed_speed(checkpoint.head, checkpoint.whole->state);
      try {
        check_checkpoint_boids(checkpoint.head, checkpoint.whole->state, 0, o.resume_file);
        check_predator_state(checkpoint.whole->state.predators, checkpoint.head.config.params,
                             flight_tolerance(checkpoint.head.config));
      } catch (const InputError& e) {
        throw InputError(std::string("--new-flight: the checkpoint's boids do not fit the ") +
                         "changed flight: " + e.what());
      }
    }
    if (!o.json) {  // said before it flies, on the summary's stream (--json: in its history)
      std::printf("a new flight from step %llu: %s (its checkpoints record it)\n",
                  static_cast<unsigned long long>(checkpoint.head.step),
                  describe_change(checkpoint.head.config.history.back()).c_str());
      std::fflush(stdout);
    }
  }
  return checkpoint;
}

}  // namespace

int run_command(const std::vector<std::string>& args) {
  RunOptions o;
  const OptionParser parser = make_parser(o);
  const std::vector<std::string> given = parser.parse(args);
  if (o.help) {
    std::cout << parser.help();
    return 0;
  }
  if (o.metrics_every > 0 && o.metrics_file.empty() && o.plot_file.empty())
    throw InputError("--metrics-every needs --metrics FILE or --plot FILE");
  if (o.checkpoint_every > 0 && o.checkpoint_file.empty())
    throw InputError("--checkpoint-every needs --checkpoint FILE");
  if (o.new_flight && o.resume_file.empty())
    throw InputError("--new-flight needs --resume FILE, the flight to change");
  std::optional<ResumedFlight> resumed;
  if (!o.resume_file.empty()) resumed = checkpoint_to_resume(o, given, args);
  const SimulationConfig config = resumed ? resumed->head.config : resolve_config(o.flock);
  // Every output is checked, and its temporary file made, before any work.
  OutputFiles outputs;
  if (!o.save_file.empty()) {
    outputs.add("--save", o.save_file);
    if (config.params.predators > 0) {  // beside the boids, committed with them
      outputs.add(kSavePredators, predator_state_path(o.save_file));
    } else {  // an earlier save's predators go with it
      outputs.retire(predator_state_path(o.save_file));
    }
  }
  if (!o.metrics_file.empty()) outputs.add("--metrics", o.metrics_file);
  // Beside each table, what made it (host/tools/output_record.h).
  if (!o.save_file.empty()) add_record(outputs, "--save", o.save_file);
  if (!o.metrics_file.empty()) add_record(outputs, "--metrics", o.metrics_file);
  if (!o.plot_file.empty())
    outputs.add("--plot", o.plot_file, check_figure_name("--plot", o.plot_file));
  if (!o.checkpoint_file.empty()) outputs.add("--checkpoint", o.checkpoint_file);
  check_trajectory_options(o.trajectory, config.params.dimensions, outputs);
  if (!o.plot_file.empty()) check_matplotlib("--plot", metrics_plot_script());
  // A random start is checked before it is drawn; a state file once it is read.
  FlockHost& host = flock_host();
  std::unique_ptr<Simulation> sim;
  if (o.flock.init_file.empty() && !resumed) {
    check_memory(config, host.held_share(resolve_count(o.flock)));
    tools::say_if_slow("boids", config, resolve_count(o.flock));
    sim = host.drawn(config, o.flock);
  } else if (!resumed) {
    sim = host.read(config, o.flock);
  } else {
    check_memory(config, host.held_share(resumed->head.count));
    tools::say_if_slow("boids", config, resumed->head.count);
    sim = host.resumed(*resumed, o.resume_file);
  }
  TrajectoryRecording trajectory(
      o.trajectory, o.steps,
      [&host](TrajectoryWriter& writer, Simulation& flock, std::uint64_t step, double time,
              const FlockMetrics& metrics) {
        host.append_frame(writer, flock, step, time, metrics);
      });
  trajectory.start(*sim, trajectory_parameters(run_parameters(*sim, o, sim->steps_taken())),
                   version());

  // Step in stretches between metrics rows, checkpoints, frames (and progress updates); time
  // the stepping alone.
  Flight flight{sim->steps_taken(), o.steps};
  // Rows at multiples of --metrics-every; a plot without it has about 200; else the start
  // and the end only.
  std::uint64_t every = o.metrics_every;
  if (every == 0)
    every = o.plot_file.empty() ? UINT64_MAX : std::max<std::uint64_t>(flight.steps() / 200, 1);
  const std::uint64_t checkpoint_every = o.checkpoint_every > 0 ? o.checkpoint_every : UINT64_MAX;
  const bool hunted = sim->config().params.predators > 0;
  std::string metrics_csv = std::string(kMetricsHeader) + (hunted ? kPredatorColumn : "") + "\n";
  const bool record = !o.metrics_file.empty() || !o.plot_file.empty();
  if (record || trajectory.enabled()) {
    const FlockMetrics m = measured(*sim, flight);
    if (record) append_metrics_row(metrics_csv, flight.first, m, hunted);
    trajectory.record(flight.first, *sim, m);
  }
  ProgressLines progress(flight.first, flight.last, o.progress_seconds, hunted);
  std::uint64_t done = flight.first, stretch = 1;
  std::optional<std::uint64_t> checkpointed;  // the step of this run's last checkpoint
  const auto next_multiple = [&](std::uint64_t k) {
    return k == UINT64_MAX ? UINT64_MAX : (done / k + 1) * k;
  };
  while (done < flight.last) {
    const std::uint64_t until =
        std::min({flight.last, next_multiple(every), next_multiple(checkpoint_every),
                  trajectory.next_after(done), done + stretch});
    const auto start = std::chrono::steady_clock::now();
    sim->step(until - done);
    const double took =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    flight.seconds += took;
    // Stretches of a few hundredths of a second at least: progress updates a few times a
    // second, and a stop soon after it is asked for.
    if (took < 0.05 && stretch < kLongestStretch) stretch *= 2;
    done = until;
    const bool row = record && done % every == 0;
    const bool line = progress.due();
    if ((row || line || trajectory.due(done)) && done < flight.last) {
      double measuring = 0;
      const FlockMetrics m = measured(*sim, flight, &measuring);
      if (row) append_metrics_row(metrics_csv, done, m, hunted);
      if (trajectory.due(done)) trajectory.record(done, *sim, m);
      if (line) progress.print(done, m, measuring);
    }
    if (done % checkpoint_every == 0 && done < flight.last) {
      save_checkpoint(*sim, o.checkpoint_file);
      checkpointed = done;
    }
    if (stop_requested() && done < flight.last) {
      throw Interrupted(stop_signal(), stopped_at(done, flight, checkpointed, trajectory));
    }
  }

  const FlockMetrics final_metrics = measured(*sim, flight);
  if (record && flight.steps() > 0)
    append_metrics_row(metrics_csv, flight.last, final_metrics, hunted);
  trajectory.record(flight.last, *sim, final_metrics);
  trajectory.finish();
  // The outputs are committed together, once each is whole.
  if (outputs.has("--save")) host.write_save(*sim, outputs, o.save_file);
  if (outputs.has("--metrics")) outputs.write("--metrics", metrics_csv);
  if (outputs.has("--plot"))
    plot_metrics(sim->count(), sim->config(), flight.first, metrics_csv, outputs);
  if (outputs.has("--checkpoint")) host.write_checkpoint(*sim, outputs, o.checkpoint_file);
  const nlohmann::ordered_json made = made_by("run", args);
  nlohmann::ordered_json flown;
  flown["flight"] = run_parameters(*sim, o, flight.first);
  flown["step"] = flight.last;
  write_record(outputs, "--save", o.save_file, made, flown);
  flown["metrics_every"] = o.metrics_every;
  write_record(outputs, "--metrics", o.metrics_file, made, flown);
  outputs.commit();
  if (o.json) {
    print_json(*sim, o, flight, final_metrics);
  } else {
    print_summary(*sim, flight, final_metrics);
  }
  return 0;
}

}  // namespace boids::cli
