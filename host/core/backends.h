// The backends' entry points, each defined in its own file under host/backends/: their
// factories, the memory a flock needs on each, and whether the cuda backend can run here.
#pragma once

#include <cstdint>
#include <memory>
#include <string>

#include "host/core/simulation.h"

namespace boids {

std::unique_ptr<Simulation> make_reference_simulation(const SimulationConfig& config,
                                                      const FlockState& initial);
std::unique_ptr<Simulation> make_cpu_simulation(const SimulationConfig& config,
                                                const FlockState& initial);
std::unique_ptr<Simulation> make_cuda_simulation(const SimulationConfig& config,
                                                 const FlockState& initial);

/// Bytes a backend needs for a flock of `count` boids: on the host (including the caller's
/// FlockState of the start), and on the GPU (cuda backend).
struct MemoryNeed {
  std::uint64_t host = 0;
  std::uint64_t device = 0;
};
MemoryNeed cpu_memory_need(const SimulationConfig& config, std::uint64_t count);
MemoryNeed cuda_memory_need(const SimulationConfig& config, std::uint64_t count);

/// Whether the cuda backend can run here, and if not, why.
struct CudaAvailability {
  bool compiled = false;
  bool usable = false;
  std::string reason;       ///< why not usable, when it is not
  std::string device_name;  ///< the device that would be used
  std::uint64_t total_memory = 0;
  std::uint64_t free_memory = 0;
  int compute_capability = 0;  ///< major * 10 + minor
  /// The device code was compiled to be checked, not flown (BOIDS_CUDA_CHECK_ONLY, -O1): it
  /// runs and gives the same answers, slower.
  bool check_only = false;
};
CudaAvailability cuda_availability();

/// "auto": the cuda backend when a device is usable, else the cpu backend.
Backend resolve_auto_backend();

}  // namespace boids
