// The reference backend: the seed's algorithm on one CPU thread, naive and double only.
#include "host/errors.h"
#include "host/reference.h"
#include "host/simulation.h"

namespace boids {
namespace {

class ReferenceSimulation final : public Simulation {
 public:
  ReferenceSimulation(const SimulationConfig& config, const FlockState& initial)
      : Simulation(config, initial.size()), state_(initial) {}

  void step(std::uint64_t steps) override {
    for (std::uint64_t s = 0; s < steps; ++s) stepper_.step(state_, config().params);
  }
  FlockState state() const override { return state_; }
  FlockMetrics metrics() const override { return measure_flock(state_, config().params); }
  std::string device() const override { return "CPU, one thread (reference)"; }
  std::uint64_t bytes_allocated() const override { return count() * 4 * sizeof(double) * 3 + count() * sizeof(int); }

 private:
  FlockState state_;
  ReferenceStepper stepper_;
};

}  // namespace

std::unique_ptr<Simulation> make_reference_simulation(const SimulationConfig& config, const FlockState& initial) {
  if (config.method != Method::kNaive) {
    throw InputError("the reference backend has only the naive method (all pairs, as the seed)");
  }
  if (config.precision != Precision::kDouble) {
    throw InputError("the reference backend computes in double precision only");
  }
  return std::make_unique<ReferenceSimulation>(config, initial);
}

}  // namespace boids
