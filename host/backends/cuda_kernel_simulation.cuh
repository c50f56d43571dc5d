// What the per-precision files instantiate: KernelSimulation and KernelBatch on CudaExecutor.
#pragma once

#include "host/backends/cuda_executor.cuh"
#include "host/backends/cuda_simulation.cuh"
#include "host/backends/kernel_batch.h"
#include "host/backends/kernel_simulation.h"

namespace boids {

template <typename Real>
std::unique_ptr<Simulation> make_cuda_simulation_of(const SimulationConfig& config,
                                                    const FlockState& initial,
                                                    const std::string& device) {
  if (config.params.dimensions == 3) {
    return std::make_unique<KernelSimulation<Real, 3, CudaExecutor>>(config, initial, device);
  }
  return std::make_unique<KernelSimulation<Real, 2, CudaExecutor>>(config, initial, device);
}

template <typename Real>
std::unique_ptr<FlockBatch> make_cuda_batch_of(const std::vector<SimulationConfig>& configs,
                                               const std::vector<FlockState>& initial,
                                               const std::string& device) {
  return std::make_unique<KernelBatch<Real, CudaExecutor>>(configs, initial, device);
}

template <typename Real>
std::uint64_t cuda_flock_bytes(const SimulationConfig& config, std::uint64_t count) {
  if (config.params.dimensions == 3) {
    using Sim = KernelSimulation<Real, 3, CudaExecutor>;
    return Sim::bytes_needed(config.method, count, Sim::grid_for(config.params, count));
  }
  using Sim = KernelSimulation<Real, 2, CudaExecutor>;
  return Sim::bytes_needed(config.method, count, Sim::grid_for(config.params, count));
}

}  // namespace boids
