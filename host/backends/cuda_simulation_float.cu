// Float kernels: fused multiply-add and fast division (validated to 1e-4 after one step).
#include "host/backends/cuda_simulation.cuh"

namespace boids {

std::unique_ptr<Simulation> make_cuda_simulation_float(const SimulationConfig& config,
                                                       const FlockState& initial,
                                                       const std::string& device) {
  return std::make_unique<CudaSimulation<float>>(config, initial, device);
}

}  // namespace boids
