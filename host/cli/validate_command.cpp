// `boids validate`: every method and precision of a backend against the reference.
// Exit code 0 when every case passes, 1 when any fails (or the backend cannot run here).
#include <cstdio>
#include <iostream>
#include <nlohmann/json.hpp>
#include <sstream>

#include "host/base/errors.h"
#include "host/base/message_text.h"
#include "host/cli/commands.h"
#include "host/core/backends.h"
#include "host/tools/options.h"
#include "host/tools/reports.h"
#include "host/validation/validation.h"

namespace boids::cli {

using tools::OptionParser;
using tools::validation_json;
namespace {

struct ValidateOptions {
  std::string backend = "auto";
  int dimensions = 2;
  bool json = false;
  bool help = false;
};

OptionParser make_parser(ValidateOptions& o) {
  OptionParser parser(
      "Usage: boids validate [options]\n"
      "Runs every method (naive, hashed) and precision (double, float) of a backend on a few "
      "small\n"
      "flocks and compares each boid with the reference: naive double must agree bit for bit "
      "after\n"
      "10 steps, hashed double within 1e-9 after 10 steps, float within 1e-4 after one step.\n"
      "With --dimensions 3 the flocks fly in a box, against the 3D reference.");
  parser.add_value("--backend", "B", "cpu or cuda (default: cuda if usable, else cpu)",
                   [&o](const std::string& v) {
                     if (v != "auto" && v != "cpu" && v != "cuda") {
                       throw InputError("--backend: expected one of cpu, cuda, got " + quoted(v));
                     }
                     o.backend = v;
                   });
  parser.add_value("--dimensions", "D", "2, or 3: flocks in a box (default 2; docs/3d.md)",
                   [&o](const std::string& v) {
                     if (v != "2" && v != "3") {
                       throw InputError("--dimensions: expected 2 or 3, got " + quoted(v));
                     }
                     o.dimensions = v == "3" ? 3 : 2;
                   });
  parser.add_flag("--json", "print one JSON object instead of a table", [&o] { o.json = true; });
  parser.add_flag("--help", "show this help", [&o] { o.help = true; });
  return parser;
}

std::string format_error(double value) {
  char text[32];
  std::snprintf(text, sizeof text, value == 0 ? "0" : "%.2e", value);
  return text;
}

std::string format_tolerance(const ValidationTolerance& t) {
  if (t.bitwise) return "exact";
  char text[32];
  std::snprintf(text, sizeof text, "%.0e", t.max_error);
  return text;
}

std::string format_neighbors(const ValidationCase& c) {
  std::string text = std::to_string(c.neighbor_mismatches);
  if (c.rounding_boids > 0) text += " (" + std::to_string(c.rounding_boids) + " by rounding)";
  return text;
}

void print_table(const ValidationReport& report) {
  std::printf("Validating the %s backend (%s) against the reference, in %d dimensions\n\n",
              to_string(report.backend).c_str(), report.device.c_str(), report.dimensions);
  std::printf("%-7s %-9s %-24s %5s %5s %-9s %-11s %-11s %-17s %s\n", "method", "precision", "flock",
              "boids", "steps", "tolerance", "max pos err", "max vel err", "nbr mismatches",
              "verdict");
  std::size_t failed = 0;
  for (const ValidationCase& c : report.cases) {
    std::printf("%-7s %-9s %-24s %5llu %5llu %-9s %-11s %-11s %-17s %s\n",
                to_string(c.method).c_str(), to_string(c.precision).c_str(), c.state.c_str(),
                static_cast<unsigned long long>(c.count), static_cast<unsigned long long>(c.steps),
                format_tolerance(c.tolerance).c_str(), format_error(c.max_position_error).c_str(),
                format_error(c.max_velocity_error).c_str(), format_neighbors(c).c_str(),
                c.pass ? "PASS" : ("FAIL: " + c.failure).c_str());
    failed += !c.pass;
  }
  std::printf("\n");
  if (failed == 0) {
    std::printf("PASS: all %zu cases of the %s backend agree with the reference\n",
                report.cases.size(), to_string(report.backend).c_str());
  } else {
    std::printf("FAIL: %zu of %zu cases of the %s backend disagree with the reference\n", failed,
                report.cases.size(), to_string(report.backend).c_str());
  }
}

void print_json(const ValidationReport& report) {
  std::cout << validation_json(report).dump(2) << std::endl;
}

}  // namespace

int validate_command(const std::vector<std::string>& args) {
  ValidateOptions o;
  const OptionParser parser = make_parser(o);
  parser.parse(args);
  if (o.help) {
    std::cout << parser.help();
    return 0;
  }
  Backend backend = Backend::kCpu;
  if (o.backend == "auto") {
    backend = resolve_auto_backend();
  } else {
    backend = *parse_backend(o.backend);
  }
  if (backend == Backend::kCuda) {
    const CudaAvailability cuda = cuda_availability();
    if (!cuda.usable)
      throw RuntimeError("--backend cuda: the cuda backend cannot run here: " + cuda.reason);
  }
  const ValidationReport report = validate_backend(backend, o.dimensions);
  if (o.json) {
    print_json(report);
  } else {
    print_table(report);
  }
  return report.pass() ? 0 : 1;
}

}  // namespace boids::cli
