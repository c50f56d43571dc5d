// Built instead of the CUDA sources when this build has no CUDA backend.
#include "host/backends/cuda_device_choice.h"
#include "host/base/errors.h"
#include "host/core/backends.h"
#include "host/core/flock_batch.h"
#include "host/core/simulation.h"

namespace boids {

CudaAvailability cuda_availability() {
  CudaAvailability a;
  a.reason = "this build has no CUDA backend (no CUDA compiler found, or BOIDS_ENABLE_CUDA=OFF)";
  return a;
}

int use_cuda_device_of_local_rank(int) {
  return -1;
}

MemoryNeed cuda_memory_need(const SimulationConfig&, std::uint64_t count) {
  return {count * sizeof(double) * 4, 0};
}

std::unique_ptr<Simulation> make_cuda_simulation(const SimulationConfig&, const FlockState&) {
  throw RuntimeError("the cuda backend cannot run here: " + cuda_availability().reason);
}

std::unique_ptr<FlockBatch> make_cuda_batch(const std::vector<SimulationConfig>&,
                                            const std::vector<FlockState>&) {
  throw RuntimeError("the cuda backend cannot run here: " + cuda_availability().reason);
}

}  // namespace boids
