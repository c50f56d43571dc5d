#include "host/cli/flock_options.h"

#include "host/errors.h"
#include "host/initial_state.h"
#include "host/state_file.h"

namespace boids::cli {
namespace {

template <typename T>
T parse_choice(const std::string& option, const std::string& text, std::optional<T> parsed,
               const std::string& choices) {
  if (!parsed) throw InputError(option + ": expected one of " + choices + ", got '" + text + "'");
  return *parsed;
}

}  // namespace

void add_flock_options(OptionParser& parser, FlockOptions& o) {
  parser.add_value(
      "--count", "N", "number of boids, >= 1 (default 120)",
      [&o](const std::string& v) { o.count = parse_whole("--count", v, 1, kMaxBoids); });
  parser.add_value("--seed", "S", "random seed, an unsigned 64-bit integer (default 42)",
                   [&o](const std::string& v) { o.seed = parse_whole("--seed", v, 0); });
  parser.add_value("--radius", "R", "perception radius r, > 0 (default 10)",
                   [&o](const std::string& v) { o.params.radius = parse_positive("--radius", v); });
  parser.add_value(
      "--separation", "W", "separation weight, >= 0 (default 1.5)",
      [&o](const std::string& v) { o.params.separation = parse_non_negative("--separation", v); });
  parser.add_value(
      "--alignment", "W", "alignment weight, >= 0 (default 1)",
      [&o](const std::string& v) { o.params.alignment = parse_non_negative("--alignment", v); });
  parser.add_value(
      "--cohesion", "W", "cohesion weight, >= 0 (default 1)",
      [&o](const std::string& v) { o.params.cohesion = parse_non_negative("--cohesion", v); });
  parser.add_value(
      "--max-speed", "V", "maximum speed v_max, > 0 (default 1)",
      [&o](const std::string& v) { o.params.max_speed = parse_positive("--max-speed", v); });
  parser.add_value("--world", "L", "side of the square torus, > 0 (default 100)",
                   [&o](const std::string& v) { o.params.world = parse_positive("--world", v); });
  parser.add_value("--backend", "B",
                   "auto, reference, cpu or cuda (default auto: cuda if usable, else cpu)",
                   [&o](const std::string& v) {
                     if (v != "auto")
                       parse_choice("--backend", v, parse_backend(v), "auto, reference, cpu, cuda");
                     o.backend = v;
                   });
  parser.add_value("--method", "M", "naive or hashed (default hashed; the reference is naive)",
                   [&o](const std::string& v) {
                     o.method = parse_choice("--method", v, parse_method(v), "naive, hashed");
                   });
  parser.add_value("--precision", "P", "float or double (default float; the reference is double)",
                   [&o](const std::string& v) {
                     o.precision =
                         parse_choice("--precision", v, parse_precision(v), "float, double");
                   });
  parser.add_value("--init", "FILE",
                   "start from a state file (x,y,vx,vy); overrides --count and --seed",
                   [&o](const std::string& v) {
                     if (v.empty()) throw InputError("--init: the file name is empty");
                     o.init_file = v;
                   });
}

SimulationConfig resolve_config(const FlockOptions& o) {
  SimulationConfig config;
  config.params = o.params;
  config.backend = o.backend == "auto" ? resolve_auto_backend() : *parse_backend(o.backend);
  const bool reference = config.backend == Backend::kReference;
  config.method = o.method.value_or(reference ? Method::kNaive : Method::kHashed);
  config.precision = o.precision.value_or(reference ? Precision::kDouble : Precision::kFloat);
  if (reference && config.method != Method::kNaive) {
    throw InputError("--method hashed: the reference backend has only the naive method");
  }
  if (reference && config.precision != Precision::kDouble) {
    throw InputError("--precision float: the reference backend computes in double precision only");
  }
  return config;
}

FlockState initial_state(const FlockOptions& o) {
  if (!o.init_file.empty()) return read_state_file(o.init_file, o.params.world);
  return make_initial_state(o.count, o.seed, o.params);
}

}  // namespace boids::cli
