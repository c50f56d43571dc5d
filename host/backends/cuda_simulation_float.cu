// The cuda backend in float: fused multiply-add and fast division (validated to 1e-4 after one
// step).
#include "host/backends/cuda_kernel_simulation.cuh"

namespace boids {

template std::unique_ptr<Simulation> make_cuda_simulation_of<float>(const SimulationConfig&,
                                                                    const FlockState&,
                                                                    const std::string&);
template std::unique_ptr<FlockBatch> make_cuda_batch_of<float>(const std::vector<SimulationConfig>&,
                                                               const std::vector<FlockState>&,
                                                               const std::string&);
template std::uint64_t cuda_flock_bytes<float>(const SimulationConfig&, std::uint64_t);

}  // namespace boids
