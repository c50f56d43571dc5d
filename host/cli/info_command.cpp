// `boids info`: what this machine can run.
#include <omp.h>

#include <iostream>

#include "host/base/version.h"
#include "host/cli/commands.h"
#include "host/core/backends.h"
#include "host/core/simulation.h"
#include "host/tools/options.h"
#include "host/tools/reports.h"

namespace boids::cli {

using tools::info_json;
using tools::OptionParser;

int info_command(const std::vector<std::string>& args) {
  bool help = false, json = false;
  OptionParser parser(
      "Usage: boids info [--json]\nLists the backends and devices of this machine.");
  parser.add_flag("--json", "print one JSON object instead of a list", [&json] { json = true; });
  parser.add_flag("--help", "show this help", [&help] { help = true; });
  parser.parse(args);
  if (help) {
    std::cout << parser.help();
    return 0;
  }
  if (json) {
    std::cout << info_json().dump(2) << std::endl;
    return 0;
  }
  std::cout << "boids " << version_text() << "\n\n";
  std::cout << "reference  available: the published algorithm, double precision, one CPU thread\n";
  std::cout << "cpu        available: " << omp_get_max_threads()
            << " OpenMP threads; naive, hashed; float, double (idle threads: "
            << tools::omp_wait_policy() << ")\n";
  const CudaAvailability cuda = cuda_availability();
  if (!cuda.compiled) {
    std::cout << "cuda       not compiled: " << cuda.reason << "\n";
  } else if (!cuda.usable) {
    std::cout << "cuda       compiled, not usable: " << cuda.reason << "\n";
  } else {
    std::cout << "cuda       available: " << cuda.device_name << ", compute capability "
              << cuda.compute_capability / 10 << "." << cuda.compute_capability % 10 << ", "
              << (cuda.total_memory >> 20) << " MiB (" << (cuda.free_memory >> 20)
              << " MiB free); naive, hashed; float, double\n";
  }
  if (cuda.check_only) {
    std::cout
        << "           device code compiled to be checked, not flown (BOIDS_CUDA_CHECK_ONLY): "
           "it runs slower\n";
  }
  std::cout << "\nauto       " << to_string(resolve_auto_backend()) << "\n";
  return 0;
}

}  // namespace boids::cli
