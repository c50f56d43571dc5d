// The cuda backend in double: every operation rounded on its own, as the reference rounds it.
#include "host/backends/cuda_kernel_simulation.cuh"

namespace boids {

template std::unique_ptr<Simulation> make_cuda_simulation_of<double>(const SimulationConfig&,
                                                                     const FlockState&,
                                                                     const std::string&);
template std::unique_ptr<FlockBatch> make_cuda_batch_of<double>(
    const std::vector<SimulationConfig>&, const std::vector<FlockState>&, const std::string&);
template std::uint64_t cuda_flock_bytes<double>(const SimulationConfig&, std::uint64_t);

}  // namespace boids
