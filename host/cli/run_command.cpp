// `boids run`: simulate a flock, report its metrics, optionally save its state and history.
#include <chrono>
#include <cstdio>
#include <iostream>
#include <nlohmann/json.hpp>
#include <sstream>

#include "host/cli/commands.h"
#include "host/cli/flock_options.h"
#include "host/cli/progress.h"
#include "host/cli/python_script.h"
#include "host/cli/trajectory_option.h"
#include "host/errors.h"
#include "host/output_file.h"
#include "host/state_file.h"

namespace boids::cli {
namespace {

constexpr const char* kMetricsHeader =
    "step,polarization,flocks,largest_flock,mean_nn_distance,order,mean_neighbors";

struct RunOptions {
  FlockOptions flock;
  std::uint64_t steps = 600;
  std::string save_file, metrics_file, plot_file;
  std::uint64_t metrics_every = 0;  // 0: not given
  TrajectoryOptions trajectory;
  bool json = false;
  bool help = false;
};

OptionParser make_parser(RunOptions& o) {
  OptionParser parser(
      "Usage: boids run [options]\n"
      "Simulates a flock and prints its metrics: polarization, order, flocks, largest flock, mean\n"
      "nearest-neighbour distance and mean number of neighbours.");
  add_flock_options(parser, o.flock);
  parser.add_value("--steps", "N", "steps to simulate, >= 0 (default 600)",
                   [&o](const std::string& v) { o.steps = parse_whole("--steps", v, 0); });
  parser.add_value("--save", "FILE", "write the final state as CSV (x,y,vx,vy), in input order",
                   [&o](const std::string& v) {
                     if (v.empty()) throw InputError("--save: the file name is empty");
                     o.save_file = v;
                   });
  parser.add_value("--metrics", "FILE",
                   "write metrics as CSV (" + std::string(kMetricsHeader) + ")",
                   [&o](const std::string& v) {
                     if (v.empty()) throw InputError("--metrics: the file name is empty");
                     o.metrics_file = v;
                   });
  parser.add_value(
      "--metrics-every", "K", "metrics every K steps, >= 1 (default: start and end only)",
      [&o](const std::string& v) { o.metrics_every = parse_whole("--metrics-every", v, 1); });
  parser.add_value("--plot", "FILE.png",
                   "draw polarization, the largest flock's share and the order against the step "
                   "(needs python3-matplotlib; rows every --metrics-every steps, else 200 rows)",
                   [&o](const std::string& v) {
                     check_png_name("--plot", v);
                     o.plot_file = v;
                   });
  add_trajectory_options(parser, o.trajectory);
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

void append_metrics_row(std::string& csv, std::uint64_t step, const FlockMetrics& m) {
  csv += std::to_string(step) + "," + format_number(m.polarization) + "," +
         std::to_string(m.flocks) + "," + std::to_string(m.largest_flock) + "," +
         format_number(m.mean_nn_distance) + "," + format_number(m.order) + "," +
         format_number(m.mean_neighbors) + "\n";
}

double boid_steps_per_second(const Simulation& sim, std::uint64_t steps, double seconds) {
  return seconds > 0 ? static_cast<double>(sim.count()) * static_cast<double>(steps) / seconds
                     : 0.0;
}

// Memory the backend holds per boid (on the GPU for the cuda backend).
double bytes_per_boid(const Simulation& sim) {
  return static_cast<double>(sim.bytes_allocated()) / static_cast<double>(sim.count());
}

// The model and every variant, as `boids run --json` reports them.
nlohmann::ordered_json params_json(const FlockParams& p) {
  nlohmann::ordered_json j;
  j["model"] = to_string(p.model);
  j["radius"] = p.radius;
  j["separation"] = p.separation;
  j["alignment"] = p.alignment;
  j["cohesion"] = p.cohesion;
  j["max_speed"] = p.max_speed;
  if (p.model == Model::kSteering) j["dt"] = p.dt;
  j["world"] = p.world.square() ? nlohmann::ordered_json(p.world.width)
                                : nlohmann::ordered_json({p.world.width, p.world.height});
  j["boundary"] = to_string(p.world.boundary);
  j["separation_radius"] = p.effective_separation_radius();
  j["fov"] = p.fov;
  j["noise"] = p.noise;
  if (!p.world.torus()) j["wall_distance"] = p.effective_wall_distance();
  j["goal"] =
      p.has_goal ? nlohmann::ordered_json({p.goal.x, p.goal.y}) : nlohmann::ordered_json(nullptr);
  if (p.has_goal) j["goal_weight"] = p.goal_weight;
  j["wind"] = {p.wind.x, p.wind.y};
  j["obstacles"] = p.obstacles.size();
  j["update"] = to_string(p.update);
  return j;
}

// What a trajectory file records of the run, named as `--json` names it.
nlohmann::ordered_json run_parameters(const Simulation& sim, const RunOptions& o) {
  const auto& c = sim.config();
  nlohmann::ordered_json j;
  j["count"] = sim.count();
  j["steps"] = o.steps;
  j["seed"] = o.flock.seed;
  if (!o.flock.init_file.empty()) j["init"] = o.flock.init_file;
  j["backend"] = to_string(c.backend);
  j["method"] = to_string(c.method);
  j["precision"] = to_string(c.precision);
  j["device"] = sim.device();
  j.update(params_json(c.params));
  return j;
}

void print_summary(const Simulation& sim, const RunOptions& o, const FlockMetrics& m,
                   double seconds) {
  const auto& c = sim.config();
  std::printf("%llu boids (%s), %llu steps on %s (%s, %s): %s\n",
              static_cast<unsigned long long>(sim.count()), to_string(c.params.model).c_str(),
              static_cast<unsigned long long>(o.steps), to_string(c.backend).c_str(),
              to_string(c.method).c_str(), to_string(c.precision).c_str(), sim.device().c_str());
  std::printf("  polarization       %.6f\n", m.polarization);
  std::printf("  order              %.6f\n", m.order);
  std::printf("  flocks             %llu (largest %llu boids)\n",
              static_cast<unsigned long long>(m.flocks),
              static_cast<unsigned long long>(m.largest_flock));
  std::printf("  mean NN distance   %.6g\n", m.mean_nn_distance);
  std::printf("  mean neighbours    %.4g\n", m.mean_neighbors);
  std::printf("  stepping           %.4g s (%.4g boid-steps/s)\n", seconds,
              boid_steps_per_second(sim, o.steps, seconds));
  std::printf("  memory             %.4g MiB (%.1f bytes per boid)\n",
              static_cast<double>(sim.bytes_allocated()) / (1 << 20), bytes_per_boid(sim));
}

void print_json(const Simulation& sim, const RunOptions& o, const FlockMetrics& m, double seconds) {
  const auto& c = sim.config();
  nlohmann::ordered_json j;
  j["count"] = sim.count();
  j["steps"] = o.steps;
  j["seed"] = o.flock.seed;
  j["init"] = o.flock.init_file.empty() ? nlohmann::ordered_json(nullptr)
                                        : nlohmann::ordered_json(o.flock.init_file);
  j["backend"] = to_string(c.backend);
  j["method"] = to_string(c.method);
  j["precision"] = to_string(c.precision);
  j["device"] = sim.device();
  j.update(params_json(c.params));
  j["polarization"] = m.polarization;
  j["order"] = m.order;
  j["flocks"] = m.flocks;
  j["largest_flock"] = m.largest_flock;
  j["mean_nn_distance"] = m.mean_nn_distance;
  j["mean_neighbors"] = m.mean_neighbors;
  j["seconds"] = seconds;
  j["boid_steps_per_second"] = boid_steps_per_second(sim, o.steps, seconds);
  j["bytes_per_boid"] = bytes_per_boid(sim);
  std::cout << j.dump(2) << std::endl;
}

// Draws the metrics series with host/cli/plot_metrics.py.
void plot_metrics(const RunOptions& o, std::uint64_t count, const SimulationConfig& config,
                  const std::string& metrics_csv) {
  const std::string series = o.plot_file + ".metrics.tmp";
  write_file_atomically(series, metrics_csv);
  const std::string title = std::to_string(count) + " boids, " + to_string(config.params.model) +
                            " model, seed " + std::to_string(o.flock.seed);
  const int status =
      run_python_script(metrics_plot_script(), {series, std::to_string(count), title, o.plot_file});
  std::remove(series.c_str());
  if (status != 0) {
    throw RuntimeError("--plot: " + metrics_plot_script() + " failed (exit status " +
                       std::to_string(status) + ")");
  }
}

}  // namespace

int run_command(const std::vector<std::string>& args) {
  RunOptions o;
  const OptionParser parser = make_parser(o);
  parser.parse(args);
  if (o.help) {
    std::cout << parser.help();
    return 0;
  }
  if (o.metrics_every > 0 && o.metrics_file.empty())
    throw InputError("--metrics-every needs --metrics FILE");
  if (!o.save_file.empty()) check_writable(o.save_file, "--save");
  if (!o.metrics_file.empty()) check_writable(o.metrics_file, "--metrics");
  if (!o.plot_file.empty()) check_writable(o.plot_file, "--plot");
  const std::pair<std::string, std::string> outputs[] = {
      {"--save", o.save_file}, {"--metrics", o.metrics_file}, {"--plot", o.plot_file}};
  for (std::size_t a = 0; a < 3; ++a) {
    for (std::size_t b = a + 1; b < 3; ++b) {
      if (!outputs[a].second.empty() && outputs[a].second == outputs[b].second) {
        throw InputError(outputs[a].first + " and " + outputs[b].first + " name the same file '" +
                         outputs[a].second + "'");
      }
    }
  }
  check_trajectory_options(o.trajectory, {std::begin(outputs), std::end(outputs)});

  const SimulationConfig config = resolve_config(o.flock);
  if (!o.plot_file.empty()) check_matplotlib("--plot", metrics_plot_script());
  // A random start is checked before it is drawn; a state file once it is read.
  if (o.flock.init_file.empty()) check_memory(config, resolve_count(o.flock));
  const FlockState initial = initial_state(o.flock, config.params);
  if (!o.flock.init_file.empty()) check_memory(config, initial.size());
  const std::unique_ptr<Simulation> sim = make_simulation(config, initial);
  TrajectoryRecording trajectory(o.trajectory, o.steps);
  trajectory.start(*sim, trajectory_parameters(run_parameters(*sim, o)), BOIDS_VERSION);

  // Step in stretches between metrics rows (and progress updates); time the stepping alone.
  // A plot without --metrics-every has about 200 rows.
  std::uint64_t every = o.metrics_every;
  if (every == 0)
    every = o.plot_file.empty() ? std::max<std::uint64_t>(o.steps, 1)
                                : std::max<std::uint64_t>(o.steps / 200, 1);
  std::string metrics_csv = std::string(kMetricsHeader) + "\n";
  const bool record = !o.metrics_file.empty() || !o.plot_file.empty();
  if (record || trajectory.enabled()) {
    const FlockMetrics m = sim->metrics();
    if (record) append_metrics_row(metrics_csv, 0, m);
    trajectory.record(0, *sim, m);
  }
  ProgressBar progress(o.steps);
  double seconds = 0;
  std::uint64_t done = 0, stretch = 1;
  while (done < o.steps) {
    const std::uint64_t next_row =
        std::min((done / every + 1) * every, trajectory.next_after(done));
    const std::uint64_t until =
        std::min(o.steps, progress.enabled() ? std::min(next_row, done + stretch) : next_row);
    const auto start = std::chrono::steady_clock::now();
    sim->step(until - done);
    const double took =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    seconds += took;
    if (took < 0.05) stretch *= 2;  // keep progress updates a few per second
    done = until;
    progress.update(done);
    const bool row = record && done % every == 0;
    if ((row || trajectory.due(done)) && done < o.steps) {
      const FlockMetrics m = sim->metrics();
      if (row) append_metrics_row(metrics_csv, done, m);
      if (trajectory.due(done)) trajectory.record(done, *sim, m);
    }
  }
  progress.finish();

  const FlockMetrics final_metrics = sim->metrics();
  if (record && o.steps > 0) append_metrics_row(metrics_csv, o.steps, final_metrics);
  trajectory.record(o.steps, *sim, final_metrics);
  trajectory.finish();
  if (!o.save_file.empty()) write_state_file(o.save_file, sim->state());
  if (!o.metrics_file.empty()) write_file_atomically(o.metrics_file, metrics_csv);
  if (!o.plot_file.empty()) plot_metrics(o, sim->count(), config, metrics_csv);
  if (o.json) {
    print_json(*sim, o, final_metrics, seconds);
  } else {
    print_summary(*sim, o, final_metrics, seconds);
  }
  return 0;
}

}  // namespace boids::cli
