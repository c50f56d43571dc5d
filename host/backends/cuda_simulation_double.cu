// Double kernels: compiled with --fmad=false, so every operation rounds on its own as in the
// reference, and naive double on a GPU agrees with it bit for bit.
#include "host/backends/cuda_simulation.cuh"

namespace boids {

std::unique_ptr<Simulation> make_cuda_simulation_double(const SimulationConfig& config,
                                                        const FlockState& initial,
                                                        const std::string& device) {
  return std::make_unique<CudaSimulation<double>>(config, initial, device);
}

}  // namespace boids
