// The cpu backend: the kernels on OpenMP threads (CpuExecutor). Its flocks and batches are
// instantiated apart, one precision and dimension a unit (host/CMakeLists.txt), and compiled
// for the kernels' instruction set (cmake/BoidsFloatingPoint.cmake): naive and hashed steps
// vectorise across boids.
#include "host/backends/kernel_flocks.h"
#include "host/core/backends.h"

namespace boids {

class CpuExecutor;

MemoryNeed cpu_memory_need(const SimulationConfig& config, std::uint64_t count) {
  const std::uint64_t state =  // the FlockState it starts from
      count * sizeof(double) * 2 * static_cast<std::uint64_t>(config.params.dimensions);
  return {state + with_flock_types(config,
                                   [&](auto real, auto d) {
                                     return kernel_flock_bytes<decltype(real), d(), CpuExecutor>(
                                         config, count);
                                   }),
          0};
}

std::unique_ptr<Simulation> make_cpu_simulation(const SimulationConfig& config,
                                                const FlockState& initial) {
  return with_flock_types(config, [&](auto real, auto d) {
    return make_kernel_simulation<decltype(real), d(), CpuExecutor>(config, initial);
  });
}

std::unique_ptr<FlockBatch> make_cpu_batch(const std::vector<SimulationConfig>& configs,
                                           const std::vector<FlockState>& initial) {
  if (configs.front().precision == Precision::kFloat)
    return make_kernel_batch<float, CpuExecutor>(configs, initial);
  return make_kernel_batch<double, CpuExecutor>(configs, initial);
}

}  // namespace boids
