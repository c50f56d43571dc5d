// `boids-bench`: times the steps of every backend, method and precision over a range of flock
// sizes at a fixed density, from a random and a flocked start, and reports how far each is
// from the machine's limits. Bad input: `boids-bench: error: ...` on stderr and exit code 2.
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <ctime>
#include <iostream>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "bench/busy_neighbours.h"
#include "bench/report.h"
#include "bench/sweep.h"
#include "host/base/errors.h"
#include "host/base/message_text.h"
#include "host/base/version.h"
#include "host/core/backends.h"
#include "host/io/output_file.h"
#include "host/io/tool_main.h"
#include "host/model/param_table.h"
#include "host/model/variants.h"
#include "host/tools/options.h"
#include "host/tools/python_script.h"
#include "host/tools/reports.h"
#if BOIDS_WITH_MPI
#include "host/mpi/distributed_simulation.h"
#endif

namespace boids::bench {
namespace {

using tools::parse_positive;
using tools::parse_whole;

// Default sizes: powers of four from a thousand up to where each backend is interesting.
// Naive stops by itself where a step would take longer than --naive-limit.
const std::vector<std::uint64_t> kCpuCounts = {1000, 4000, 16000, 64000, 256000, 1024000};
const std::vector<std::uint64_t> kCudaCounts = {1000,    4000,    16000,    64000,   256000,
                                                1024000, 4096000, 16384000, 33554432};
// --quick: small enough for two CPU cores in well under a minute, wide enough (a factor 64
// for hashed, 4 to 8 for naive) that the fits see the exponents through the fixed costs of
// small flocks.
const std::vector<std::uint64_t> kQuickCounts = {1000, 2000, 4000, 8000, 16000, 32000, 64000};

struct Options {
  std::optional<std::vector<std::uint64_t>> counts;
  std::optional<double> density;  // boids per r^2 (1.2), per r^3 in 3D (0.9)
  Boundary boundary = Boundary::kTorus;
  double spread = 0;
  int dimensions = 2;
  std::optional<std::vector<Backend>> backends;
  std::vector<Method> methods = {Method::kNaive, Method::kHashed};
  std::vector<Precision> precisions = {Precision::kFloat, Precision::kDouble};
  std::vector<StartState> states = {StartState::kRandom, StartState::kFlocked};
  std::vector<std::string> variants = {"seed"};
  std::optional<std::uint64_t> repeats, flock_steps;
  std::optional<double> min_time, naive_limit;
  std::uint64_t seed = 42;
  int busy = 0;  // processes spinning beside the bench
  std::string csv, json, plot;
  bool quick = false, help = false;
};

std::vector<std::string> split_list(const std::string& option, const std::string& text) {
  std::vector<std::string> items;
  for (const std::string& item : tools::comma_fields(text)) {
    if (item.empty())
      throw InputError(option + ": expected a comma-separated list, got '" + text + "'");
    if (std::find(items.begin(), items.end(), item) != items.end()) {
      throw InputError(option + ": '" + item + "' is listed twice");
    }
    items.push_back(item);
  }
  return items;
}

template <typename T, typename Parse>
std::vector<T> parse_list(const std::string& option, const std::string& text, Parse parse,
                          const std::string& choices) {
  std::vector<T> values;
  for (const std::string& item : split_list(option, text)) {
    const std::optional<T> value = parse(item);
    if (!value) throw InputError(option + ": expected " + choices + ", got '" + item + "'");
    values.push_back(*value);
  }
  return values;
}

std::optional<Backend> parse_bench_backend(const std::string& name) {
  if (name == "cpu") return Backend::kCpu;
  if (name == "cuda") return Backend::kCuda;
  return std::nullopt;  // the reference is a correctness oracle, not benchmarked
}

std::optional<StartState> parse_state(const std::string& name) {
  if (name == "random") return StartState::kRandom;
  if (name == "flocked") return StartState::kFlocked;
  return std::nullopt;
}

tools::OptionParser make_parser(Options& o) {
  tools::OptionParser parser(
      "Usage: boids-bench [options]\n"
      "Times the step of every backend, method and precision over a range of flock sizes at a\n"
      "fixed density (the world grows with the flock), from a random and a flocked start, and\n"
      "reports how far each is from the machine's memory bandwidth or peak arithmetic.");
  parser.add_value(
      "--counts", "N,N,...",
      "flock sizes, each >= 2 (default: 1000 to 1024000 on the cpu, to 33554432 on cuda; naive "
      "stops where a step would exceed --naive-limit)",
      [&o](const std::string& v) {
        std::vector<std::uint64_t> counts;
        for (const std::string& item : split_list("--counts", v)) {
          counts.push_back(parse_whole("--counts", item, 2, kMaxBoids));
        }
        std::sort(counts.begin(), counts.end());
        if (std::adjacent_find(counts.begin(), counts.end()) != counts.end()) {
          throw InputError("--counts: a size is listed twice in '" + v + "'");
        }
        o.counts = counts;
      });
  parser.add_value("--dimensions", "D", "2, or 3: flocks in a cube (default 2; docs/3d.md)",
                   [&o](const std::string& v) {
                     if (v != "2" && v != "3") {
                       throw InputError("--dimensions: expected 2 or 3, got " + boids::quoted(v));
                     }
                     o.dimensions = v == "3" ? 3 : 2;
                   });
  parser.add_value("--density", "D",
                   "boids per r^2, > 0 (default 1.2, the published example's 120 boids in "
                   "100 x 100); per r^3 in 3D (default 0.9, the published example's mean "
                   "neighbour count)",
                   [&o](const std::string& v) { o.density = parse_positive("--density", v); });
  parser.add_value(
      "--backend", "B,...", "cpu and/or cuda (default: cpu, and cuda when a device is usable)",
      [&o](const std::string& v) {
        o.backends = parse_list<Backend>("--backend", v, parse_bench_backend, "cpu or cuda");
      });
  parser.add_value(
      "--methods", "M,...", "naive and/or hashed (default both)", [&o](const std::string& v) {
        o.methods = parse_list<Method>("--methods", v, parse_method, "naive or hashed");
      });
  parser.add_value(
      "--precisions", "P,...", "float and/or double (default both)", [&o](const std::string& v) {
        o.precisions = parse_list<Precision>("--precisions", v, parse_precision, "float or double");
      });
  parser.add_value("--states", "S,...", "random and/or flocked starts (default both)",
                   [&o](const std::string& v) {
                     o.states =
                         parse_list<StartState>("--states", v, parse_state, "random or flocked");
                   });
  const std::string boundaries = describe_values(*find_param_by_key("boundary"));
  parser.add_value(
      "--boundary", "B",
      boundaries +
          ": the world of every variant that sets none of its own (default torus; "
          "open space's start fills the same region)",
      [&o, boundaries](const std::string& v) {
        const auto b = parse_boundary(v);
        if (!b) throw InputError("--boundary: expected " + boundaries + ", got " + quoted(v));
        o.boundary = *b;
      });
  parser.add_value("--spread", "R",
                   "in open space, the start cut into 4 tiles a side, R radii apart: the same "
                   "local density over about 4 R radii (default 0: as drawn)",
                   [&o](const std::string& v) { o.spread = parse_positive("--spread", v); });
  parser.add_value("--variants", "V,...",
                   "models and variants to time beside each other, their repeats in "
                   "alternation, from the catalogue (host/model/variants.h): " +
                       variant_names() + " (default seed)",
                   [&o](const std::string& v) {
                     o.variants = split_list("--variants", v);
                     for (const std::string& name : o.variants) {
                       if (!find_variant(name)) {
                         throw InputError("--variants: expected some of " + variant_names() +
                                          ", got " + quoted(name));
                       }
                     }
                   });
  parser.add_value(
      "--repeats", "N", "timed repeats per row, >= 1; the median is reported (default 5)",
      [&o](const std::string& v) { o.repeats = parse_whole("--repeats", v, 1, 1000); });
  parser.add_value("--min-time", "S", "seconds each repeat steps for at least, > 0 (default 0.1)",
                   [&o](const std::string& v) { o.min_time = parse_positive("--min-time", v); });
  parser.add_value(
      "--flock-steps", "N", "steps that form the flocked start, >= 1 (default 300)",
      [&o](const std::string& v) { o.flock_steps = parse_whole("--flock-steps", v, 1, 1000000); });
  parser.add_value(
      "--naive-limit", "S",
      "skip naive where a step would take more seconds, > 0 (default 2; a series keeps its "
      "two smallest sizes unless they would take ten times that)",
      [&o](const std::string& v) { o.naive_limit = parse_positive("--naive-limit", v); });
  parser.add_value("--seed", "S", "random seed of the starts (default 42)",
                   [&o](const std::string& v) { o.seed = parse_whole("--seed", v, 0); });
  parser.add_value(
      "--busy", "K",
      "time beside K processes that each spin on a core, as on a shared machine "
      "(default 0)",
      [&o](const std::string& v) { o.busy = static_cast<int>(parse_whole("--busy", v, 0, 256)); });
  parser.add_value("--csv", "FILE", "write the rows as CSV",
                   [&o](const std::string& v) { o.csv = tools::parse_file_name("--csv", v); });
  parser.add_value("--json", "FILE", "write the rows, the machine and the fits as JSON",
                   [&o](const std::string& v) { o.json = tools::parse_file_name("--json", v); });
  parser.add_value("--plot", "FILE.png",
                   "draw ms per step against boids, log-log (needs python3-matplotlib)",
                   [&o](const std::string& v) {
                     tools::check_png_name("--plot", v);
                     o.plot = v;
                   });
  parser.add_flag("--quick",
                  "a small sweep for a first look and CI: 1000 to 64000 boids, 3 repeats of >= "
                  "0.02 s, 100 flocking steps, naive limit 0.25 s",
                  [&o] { o.quick = true; });
  parser.add_flag("--help", "show this help", [&o] { o.help = true; });
  return parser;
}

SweepSettings resolve(const Options& o) {
  SweepSettings s;
  if (o.backends) {
    s.backends = *o.backends;
  } else {
    s.backends = {Backend::kCpu};
    const CudaAvailability cuda = cuda_availability();
    if (cuda.usable && !cuda.check_only) s.backends.push_back(Backend::kCuda);
  }
  for (Backend b : s.backends) {
    if (b != Backend::kCuda) continue;
    const CudaAvailability cuda = cuda_availability();
    if (!cuda.usable) throw RuntimeError("--backend cuda: " + cuda.reason);
    if (cuda.check_only) {
      throw RuntimeError(
          "--backend cuda: this build's device code was compiled to be checked, not timed "
          "(BOIDS_CUDA_CHECK_ONLY); configure with -DBOIDS_CUDA_CHECK_ONLY=OFF");
    }
  }
  for (Backend b : s.backends) {
    s.counts[b] = o.counts              ? *o.counts
                  : o.quick             ? kQuickCounts
                  : b == Backend::kCuda ? kCudaCounts
                                        : kCpuCounts;
  }
  s.methods = o.methods;
  s.precisions = o.precisions;
  s.states = o.states;
  s.variants = o.variants;
  s.dimensions = o.dimensions;
  s.density = o.density.value_or(o.dimensions == 3 ? 0.9 : 1.2);
  s.boundary = o.boundary;
  s.spread = o.spread;
  s.seed = o.seed;
  s.repeats = o.repeats.value_or(o.quick ? 3 : 5);
  s.min_repeat_seconds = o.min_time.value_or(o.quick ? 0.02 : 0.1);
  s.flock_steps = o.flock_steps.value_or(o.quick ? 100 : 300);
  s.naive_limit_seconds = o.naive_limit.value_or(o.quick ? 0.25 : 2.0);
  if (o.quick) {
    s.bandwidth_bytes = std::uint64_t{128} << 20;
    s.flops_seconds = 0.1;
  }
  return s;
}

// Checks every output, and makes its temporary file, before anything is measured.
void add_outputs(const Options& o, OutputFiles& outputs) {
  if (!o.csv.empty()) outputs.add("--csv", o.csv);
  if (!o.json.empty()) outputs.add("--json", o.json);
  if (!o.plot.empty()) outputs.add("--plot", o.plot, ".png");
}

// Draws the rows with bench/plot.py into the --plot output.
void plot(const std::string& json_text, OutputFiles& outputs) {
  ScratchFile report(".json");
  report.write(json_text);
  tools::run_plot_script("--plot", BOIDS_BENCH_PLOT_SCRIPT,
                         {report.path(), outputs.file_to_write("--plot")});
  outputs.written_externally("--plot");
}

std::string utc_now() {
  const std::time_t now = std::time(nullptr);
  std::tm utc{};
  gmtime_r(&now, &utc);
  char text[32];
  std::strftime(text, sizeof text, "%Y-%m-%dT%H:%M:%SZ", &utc);
  return text;
}

// A one-line progress bar on stderr when it is a terminal; a line per row otherwise.
class Progress {
 public:
  explicit Progress(std::uint64_t total) : total_(total), tty_(isatty(STDERR_FILENO) != 0) {}
  void start(const std::string& what) {
    what_ = what;
    if (tty_) {
      draw();
    } else {
      std::fprintf(stderr, "boids-bench: [%llu/%llu] %s\n", static_cast<unsigned long long>(done_),
                   static_cast<unsigned long long>(total_), what.c_str());
    }
  }
  void advance() { ++done_; }
  // Clears the bar before something else is printed on the terminal.
  void clear() {
    if (tty_ && drawn_) std::fprintf(stderr, "\r\033[K");
    drawn_ = false;
  }
  void redraw() {
    if (tty_) draw();
  }

 private:
  void draw() {
    constexpr int kWidth = 30;
    const int filled = total_ ? static_cast<int>(kWidth * done_ / total_) : kWidth;
    const double elapsed =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - start_).count();
    std::fprintf(stderr, "\r\033[K[%s%s] %llu/%llu rows, %.0f s: %s",
                 std::string(filled, '#').c_str(), std::string(kWidth - filled, '.').c_str(),
                 static_cast<unsigned long long>(done_), static_cast<unsigned long long>(total_),
                 elapsed, what_.c_str());
    std::fflush(stderr);
    drawn_ = true;
  }
  std::uint64_t total_, done_ = 0;
  bool tty_, drawn_ = false;
  std::string what_;
  std::chrono::steady_clock::time_point start_ = std::chrono::steady_clock::now();
};

int bench_main(const std::vector<std::string>& args) {
  Options o;
  const tools::OptionParser parser = make_parser(o);
  parser.parse(args);
  if (o.help) {
    std::cout << parser.help();
    return 0;
  }
  const SweepSettings settings = resolve(o);
  OutputFiles outputs;
  add_outputs(o, outputs);
  if (!o.plot.empty()) tools::check_matplotlib("--plot", BOIDS_BENCH_PLOT_SCRIPT);

  RunInfo info{utc_now(), boids::source_commit(), boids::version(), o.busy,
               tools::omp_wait_policy()};
  std::printf("boids-bench %s, commit %s, %s\n", info.version.c_str(),
              info.commit.empty() ? "unknown" : info.commit.c_str(), info.date.c_str());
  std::printf("%d busy processes beside it; idle OpenMP threads: %s\n", info.busy,
              info.wait_policy.c_str());
  const BusyNeighbours neighbours(o.busy);
  std::printf(
      "%d dimensions, density %.4g boids per r^%d (r = %.4g), %llu repeats of >= %.3g s, flocked "
      "= %llu hashed float steps\n",
      settings.dimensions, settings.density, settings.dimensions, settings.radius,
      static_cast<unsigned long long>(settings.repeats), settings.min_repeat_seconds,
      static_cast<unsigned long long>(settings.flock_steps));
  std::fflush(stdout);

  Progress progress(planned_rows(settings));
  auto print = [&](const std::string& text) {
    progress.clear();
    std::fputs(text.c_str(), stdout);
    std::fflush(stdout);
    progress.redraw();
  };
  Observer observer;
  observer.on_start = [&](const std::string& what) { progress.start(what); };
  observer.on_limits = [&](Backend backend, const Limits& limits) {
    print("\n" + describe_limits(backend, limits) + "\n" + table_header());
  };
  observer.on_row = [&](const Row& row) {
    progress.advance();
    print(table_row(row));
  };
  observer.on_skip = [&](const Skip& skip) {
    progress.advance();
    print(table_skip(skip));
  };
  const SweepResult result = run_sweep(settings, observer);
  progress.clear();
  std::fputs(describe_fits(result.rows).c_str(), stdout);
  std::fputs(describe_variant_costs(result.rows).c_str(), stdout);
  std::fflush(stdout);

  const std::string json_text = json_report(settings, result, info).dump(2) + "\n";
  // The outputs are committed together, once each is whole.
  if (outputs.has("--csv")) outputs.write("--csv", csv_text(result));
  if (outputs.has("--json")) outputs.write("--json", json_text);
  if (outputs.has("--plot")) plot(json_text, outputs);
  outputs.commit();
  return 0;
}

}  // namespace
}  // namespace boids::bench

int main(int argc, char** argv) {
  const auto command = [&] {
    return boids::main_reporting_errors("boids-bench", [&] {
      return boids::bench::bench_main(std::vector<std::string>(argv + 1, argv + argc));
    });
  };
#if BOIDS_WITH_MPI
  // Under mpirun every flock timed is spread over the ranks: the rates are the ranks'
  // together, exchanges included (bench/mpi_scaling.py measures strong and weak scaling).
  return boids::mpi::run_over_ranks(argc, argv, command);
#else
  return command();
#endif
}
