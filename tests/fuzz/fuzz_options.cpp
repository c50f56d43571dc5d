// The option parser with the flock's options (those of `boids run`, `boids validate` and the
// viewer that resolve_config checks against each other; each tool's own options are file
// names and whole numbers, parsed by the same parse_* functions): argv is the input split at
// NUL bytes. Any argv is accepted, or refused with a clean InputError; nothing else may
// escape, and what resolve_config accepts is a flock the engine can run.
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

#include "host/base/errors.h"
#include "host/config/flock_options.h"
#include "host/tools/flock_command_line.h"
#include "host/tools/options.h"
#include "tests/fuzz/fuzz_support.h"

namespace {

std::vector<std::string> split_at_nul(const std::uint8_t* data, std::size_t size) {
  std::vector<std::string> args(1);
  for (std::size_t i = 0; i < size; ++i) {
    if (data[i] == 0) {
      args.emplace_back();
    } else {
      args.back() += static_cast<char>(data[i]);
    }
  }
  return args;
}

void check_config(const boids::SimulationConfig& config) {
  const boids::FlockParams& p = config.params;
  const bool sane = p.radius > 0 && std::isfinite(p.radius) && p.max_speed > 0 &&
                    p.world.width > 0 && p.world.height > 0 && std::isfinite(p.world.width) &&
                    std::isfinite(p.world.height);
  if (!sane) {
    std::fprintf(stderr, "resolve_config accepted a flock without a radius, speed or world\n");
    std::abort();
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace boids;
  std::vector<std::string> args = split_at_nul(data, size);
  if (size == 0) args.clear();
  FlockOptions options;
  tools::OptionParser parser("Usage: boids run [options]");
  tools::add_flock_options(parser, options);
  try {
    parser.parse(args);
    check_config(resolve_config(options));
  } catch (const InputError& e) {
    // File names are echoed whole, so the length is bounded only by the input's.
    fuzz::check_message(e.what(), 1000 + 4 * size);
  }
  return 0;
}
