// What host/backends/kernel_flocks.h declares, for the generated units that instantiate it
// (cmake/BoidsInstances.cmake). Nothing else includes this.
#pragma once

#include <memory>
#include <vector>

#include "host/backends/kernel_batch.h"
#include "host/backends/kernel_flocks.h"
#include "host/backends/kernel_simulation.h"

namespace boids {

template <typename Real, int D, typename Executor, typename... ExecutorArgs>
std::unique_ptr<Simulation> make_kernel_simulation(const SimulationConfig& config,
                                                   const FlockState& initial,
                                                   ExecutorArgs... executor_args) {
  return std::make_unique<KernelSimulation<Real, D, Executor>>(config, initial, executor_args...);
}

template <typename Real, int D, typename Executor>
std::uint64_t kernel_flock_bytes(const SimulationConfig& config, std::uint64_t count) {
  using Flock = KernelSimulation<Real, D, Executor>;
  return Flock::bytes_needed(config.method, count, Flock::grid_for(config.params, count));
}

template <typename Real, typename Executor, typename... ExecutorArgs>
std::unique_ptr<FlockBatch> make_kernel_batch(const std::vector<SimulationConfig>& configs,
                                              const std::vector<FlockState>& initial,
                                              ExecutorArgs... executor_args) {
  return std::make_unique<KernelBatch<Real, Executor>>(configs, initial, executor_args...);
}

}  // namespace boids
