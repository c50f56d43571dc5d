// The cpu backend: the kernels on OpenMP threads (CpuExecutor), one instantiation of
// KernelSimulation per precision (batches in cpu_batch.cpp). Compiled for the kernels' instruction set
// (cmake/BoidsFloatingPoint.cmake): naive and hashed steps vectorise across boids.
#include "host/backends/cpu_executor.h"
#include "host/backends/kernel_simulation.h"

namespace boids {
namespace {

template <typename Real>
std::uint64_t cpu_flock_bytes(const SimulationConfig& config, std::uint64_t count) {
  using Sim = KernelSimulation<Real, CpuExecutor>;
  return Sim::bytes_needed(config.method, count, Sim::grid_for(config.params, count));
}

}  // namespace

MemoryNeed cpu_memory_need(const SimulationConfig& config, std::uint64_t count) {
  const std::uint64_t state = count * sizeof(double) * 4;  // the FlockState it starts from
  return {state + (config.precision == Precision::kFloat ? cpu_flock_bytes<float>(config, count)
                                                         : cpu_flock_bytes<double>(config, count)),
          0};
}

std::unique_ptr<Simulation> make_cpu_simulation(const SimulationConfig& config,
                                                const FlockState& initial) {
  if (config.precision == Precision::kFloat)
    return std::make_unique<KernelSimulation<float, CpuExecutor>>(config, initial);
  return std::make_unique<KernelSimulation<double, CpuExecutor>>(config, initial);
}

}  // namespace boids
