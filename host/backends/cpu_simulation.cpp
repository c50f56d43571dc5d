// The cpu backend: the kernels on OpenMP threads (CpuExecutor), one instantiation of
// KernelSimulation per precision and dimension (batches in cpu_batch.cpp). Compiled for the
// kernels' instruction set (cmake/BoidsFloatingPoint.cmake): naive and hashed steps vectorise
// across boids.
#include "host/backends/cpu_executor.h"
#include "host/backends/kernel_simulation.h"

namespace boids {
namespace {

template <typename Real, int D>
std::uint64_t cpu_flock_bytes(const SimulationConfig& config, std::uint64_t count) {
  using Sim = KernelSimulation<Real, D, CpuExecutor>;
  return Sim::bytes_needed(config.method, count, Sim::grid_for(config.params, count));
}

template <typename Real>
std::uint64_t cpu_flock_bytes(const SimulationConfig& config, std::uint64_t count) {
  return config.params.dimensions == 3 ? cpu_flock_bytes<Real, 3>(config, count)
                                       : cpu_flock_bytes<Real, 2>(config, count);
}

template <typename Real>
std::unique_ptr<Simulation> make_cpu_simulation_of(const SimulationConfig& config,
                                                   const FlockState& initial) {
  if (config.params.dimensions == 3)
    return std::make_unique<KernelSimulation<Real, 3, CpuExecutor>>(config, initial);
  return std::make_unique<KernelSimulation<Real, 2, CpuExecutor>>(config, initial);
}

}  // namespace

MemoryNeed cpu_memory_need(const SimulationConfig& config, std::uint64_t count) {
  const std::uint64_t state =  // the FlockState it starts from
      count * sizeof(double) * 2 * static_cast<std::uint64_t>(config.params.dimensions);
  return {state + (config.precision == Precision::kFloat ? cpu_flock_bytes<float>(config, count)
                                                         : cpu_flock_bytes<double>(config, count)),
          0};
}

std::unique_ptr<Simulation> make_cpu_simulation(const SimulationConfig& config,
                                                const FlockState& initial) {
  if (config.precision == Precision::kFloat) return make_cpu_simulation_of<float>(config, initial);
  return make_cpu_simulation_of<double>(config, initial);
}

}  // namespace boids
