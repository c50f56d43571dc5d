#include "host/core/flock_batch.h"

#include "host/base/errors.h"

namespace boids {

std::string why_not_batched(const std::vector<SimulationConfig>& configs) {
  if (configs.empty()) return "a batch needs at least one flock";
  const SimulationConfig& first = configs.front();
  for (const SimulationConfig& c : configs) {
    if (c.backend == Backend::kReference || c.method != Method::kHashed) {
      return "flocks fly batched on the hashed method of the cpu or cuda backend only";
    }
    if (c.backend != first.backend || c.precision != first.precision ||
        c.params.model != first.params.model) {
      return "the flocks of a batch share one backend, one model and one precision";
    }
    if (c.params.dimensions != 2) {
      return "flocks fly batched in two dimensions only: a flock in three flies alone";
    }
    if (c.params.nearest > 0) return "a flock of topological neighbours (--nearest) flies alone";
    if (c.params.predators > 0) return "a flock with predators flies alone";
    if (c.params.world.open()) {
      return "a flock in open space flies alone: a batch keeps no table of its tiles, and would "
             "not fly the flock's flight bit for bit";
    }
  }
  return "";
}

bool batchable(const std::vector<SimulationConfig>& configs) {
  return why_not_batched(configs).empty();
}

std::unique_ptr<FlockBatch> make_batch(const std::vector<SimulationConfig>& configs,
                                       const std::vector<FlockState>& initial) {
  if (configs.size() != initial.size()) {
    throw InputError("a batch needs one start per flock: " + std::to_string(configs.size()) +
                     " configurations, " + std::to_string(initial.size()) + " starts");
  }
  const std::string why = why_not_batched(configs);
  if (!why.empty()) throw InputError(why);
  for (std::size_t f = 0; f < initial.size(); ++f) {
    if (initial[f].size() == 0) throw InputError("a flock needs at least one boid");
    check_dimensions(configs[f], initial[f]);
  }
  if (configs.front().backend == Backend::kCuda) return make_cuda_batch(configs, initial);
  return make_cpu_batch(configs, initial);
}

}  // namespace boids
