// The cuda backend: KernelSimulation on CudaExecutor, instantiated once per precision, each in
// its own file with its own code generation (cmake/BoidsCuda.cmake): float kernels fuse
// multiply-adds and divide fast, double kernels round every operation as the reference does.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "host/flock_batch.h"
#include "host/simulation.h"

namespace boids {

template <typename Real>
std::unique_ptr<Simulation> make_cuda_simulation_of(const SimulationConfig& config,
                                                    const FlockState& initial,
                                                    const std::string& device);

template <typename Real>
std::unique_ptr<FlockBatch> make_cuda_batch_of(const std::vector<SimulationConfig>& configs,
                                               const std::vector<FlockState>& initial,
                                               const std::string& device);

// GPU memory a flock of `count` boids needs, in bytes.
template <typename Real>
std::uint64_t cuda_flock_bytes(const SimulationConfig& config, std::uint64_t count);

}  // namespace boids
