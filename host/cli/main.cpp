// `boids`: the command line. Bad input: `boids: error: ...` on stderr and exit code 2.
#include <iostream>
#include <string>
#include <vector>

#include "host/base/errors.h"
#include "host/base/message_text.h"
#include "host/base/version.h"
#include "host/cli/commands.h"
#include "host/config/flock_host.h"
#include "host/io/tool_main.h"

namespace {

constexpr const char* kUsage =
    "Usage: boids <command> [options]\n"
    "\n"
    "Reynolds' boids for very large flocks, on CPU threads and CUDA GPUs.\n"
    "\n"
    "Commands:\n"
    "  run       simulate a flock and report its metrics (boids run --help)\n"
    "  sweep     the order parameter over a grid of parameters, replicas at each point\n"
    "  validate  check every method and precision of a backend against the reference\n"
    "  info      list the backends and devices of this machine\n"
    "  params    list every option of a flock: values, defaults, models (--markdown, --json)\n"
    "  convert   between state files, checkpoints and trajectories (.csv, .npy, .h5, .gsd, .xdmf)\n"
    "  analyse   a trajectory's g(r), correlations and number fluctuations (boids.analysis)\n"
    "  serve     watch and steer a flock in a browser, live or replayed (boids serve --help)\n"
    "\n"
    "  --help     show this help\n"
    "  --version  show the version\n";

int dispatch(const std::vector<std::string>& args) {
  if (args.empty()) {
    std::cerr << "boids: error: no command given\n\n" << kUsage;
    return 2;
  }
  const std::string& command = args[0];
  const std::vector<std::string> rest(args.begin() + 1, args.end());
  if (command == "--help" || command == "-h" || command == "help") {
    std::cout << kUsage;
    return 0;
  }
  if (command == "--version") {
    std::cout << "boids " << boids::version_text() << "\n";
    return 0;
  }
  if (command == "run") return boids::cli::run_command(rest);
  if (command == "validate") return boids::cli::validate_command(rest);
  if (command == "info") return boids::cli::info_command(rest);
  if (command == "sweep") return boids::cli::sweep_command(rest);
  if (command == "convert") return boids::cli::convert_command(rest);
  if (command == "serve") return boids::cli::serve_command(rest);
  if (command == "params") return boids::cli::params_command(rest);
  if (command == "analyse" || command == "analyze") return boids::cli::analyse_command(rest);
  throw boids::InputError(
      "unknown command " + boids::quoted(command) +
      " (commands: run, sweep, validate, info, params, convert, analyse, serve; see --help)");
}

}  // namespace

int main(int argc, char** argv) {
  const auto command = [&] {
    return boids::main_reporting_errors(
        "boids", [&] { return dispatch(std::vector<std::string>(argv + 1, argv + argc)); });
  };
  // Under mpirun, rank 0 runs the command and the other ranks carry out its flock's share
  // (host/config/flock_host.h).
  return boids::run_on_host(argc, argv, command);
}
