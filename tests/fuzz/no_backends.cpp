// The harnesses parse and resolve options but never simulate: the backends' factories, which
// simulation.cpp names, are stand-ins here so that no kernel is built with the fuzzer's
// instrumentation. So are the reference's steps, which the model registry names.
#include <cstdlib>

#include "host/core/backends.h"
#include "host/core/simulation.h"

namespace boids {

std::unique_ptr<Simulation> make_reference_simulation(const SimulationConfig&, const FlockState&) {
  std::abort();
}

std::unique_ptr<Simulation> make_cpu_simulation(const SimulationConfig&, const FlockState&) {
  std::abort();
}

MemoryNeed cpu_memory_need(const SimulationConfig&, std::uint64_t) {
  std::abort();
}

namespace reference {
#define BOIDS_NO_REFERENCE_STEP(name)                              \
  void name(FlockState&, const FlockParams&, const StepContext&) { \
    std::abort();                                                  \
  }
BOIDS_NO_REFERENCE_STEP(boids_model_step)
BOIDS_NO_REFERENCE_STEP(steering_model_step)
BOIDS_NO_REFERENCE_STEP(vicsek_model_step)
BOIDS_NO_REFERENCE_STEP(couzin_model_step)
#undef BOIDS_NO_REFERENCE_STEP
}  // namespace reference

}  // namespace boids
