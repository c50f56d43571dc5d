// The cpu backend's batches (host/flock_batch.h): KernelBatch on CpuExecutor, one instantiation
// per precision, in a file of its own, so that the single flock's step in cpu_simulation.cpp is
// compiled as it was before batches (its hashed step is also the batch's, instantiated apart).
#include "host/backends/cpu_executor.h"
#include "host/backends/kernel_batch.h"

namespace boids {

std::unique_ptr<FlockBatch> make_cpu_batch(const std::vector<SimulationConfig>& configs,
                                           const std::vector<FlockState>& initial) {
  if (configs.front().precision == Precision::kFloat)
    return std::make_unique<KernelBatch<float, CpuExecutor>>(configs, initial);
  return std::make_unique<KernelBatch<double, CpuExecutor>>(configs, initial);
}

}  // namespace boids
