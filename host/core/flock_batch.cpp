#include "host/core/flock_batch.h"

#include "host/base/errors.h"

namespace boids {

bool batchable(const std::vector<SimulationConfig>& configs) {
  if (configs.empty()) return false;
  const SimulationConfig& first = configs.front();
  for (const SimulationConfig& c : configs) {
    if (c.backend == Backend::kReference || c.method != Method::kHashed ||
        c.backend != first.backend || c.precision != first.precision ||
        c.params.model != first.params.model || c.params.dimensions != 2 || c.params.nearest > 0 ||
        c.params.predators > 0) {
      return false;
    }
  }
  return true;
}

std::unique_ptr<FlockBatch> make_batch(const std::vector<SimulationConfig>& configs,
                                       const std::vector<FlockState>& initial) {
  if (configs.size() != initial.size()) {
    throw InputError("a batch needs one start per flock: " + std::to_string(configs.size()) +
                     " configurations, " + std::to_string(initial.size()) + " starts");
  }
  if (!batchable(configs)) {
    throw InputError(
        "flocks share a batch on the hashed method of the cpu or cuda backend, "
        "under one model and one precision, in two dimensions (a flock in three flies alone, "
        "as does a flock of topological neighbours)");
  }
  for (std::size_t f = 0; f < initial.size(); ++f) {
    if (initial[f].size() == 0) throw InputError("a flock needs at least one boid");
    check_dimensions(configs[f], initial[f]);
  }
  if (configs.front().backend == Backend::kCuda) return make_cuda_batch(configs, initial);
  return make_cpu_batch(configs, initial);
}

}  // namespace boids
