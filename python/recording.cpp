#include "python/recording.h"

#include "host/base/version.h"
#include "host/io/flight_params.h"
#include "host/io/output_file.h"
#include "host/tools/output_record.h"

namespace boids::python {

nlohmann::ordered_json flight_record(const Simulation& sim) {
  const SimulationConfig& c = sim.config();
  nlohmann::ordered_json j = tools::provenance();
  j["count"] = sim.count();
  j["seed"] = c.seed;
  j["backend"] = to_string(c.backend);
  j["method"] = to_string(c.method);
  j["precision"] = to_string(c.precision);
  j["device"] = sim.device();
  j.update(params_to_json(c.params, ParamForm::kReport));
  return j;
}

namespace {

tools::TrajectoryOptions options_of(const std::string& path, std::uint64_t every, int layout,
                                    const Simulation& sim) {
  tools::TrajectoryOptions o;
  o.file = path;
  o.every = every;
  o.layout_dimensions = layout;
  OutputFiles unused;  // checked alone: the trajectory is the only output
  tools::check_trajectory_options(o, sim.config().params.dimensions, unused);
  return o;
}

}  // namespace

FlockRecording::FlockRecording(const std::string& path, std::uint64_t every, std::uint64_t last,
                               int layout, const Simulation& sim)
    : recording_(options_of(path, every, layout, sim), last) {
  recording_.start(sim, tools::trajectory_parameters(flight_record(sim)), version());
}

bool FlockRecording::record(Simulation& sim, bool always, FlockMetrics& measured) {
  const std::uint64_t step = sim.steps_taken();
  if (!always && !recording_.due(step)) return false;
  measured = sim.metrics();
  recording_.record(step, sim, measured);
  return true;
}

}  // namespace boids::python
