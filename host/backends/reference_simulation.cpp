// The reference backend: the seed's algorithm on one CPU thread, naive and double only.
#include "host/errors.h"
#include "host/reference.h"
#include "host/simulation.h"
#include "kernels/predator.h"

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

  void set_params(const FlockParams& params) override { change_params(params); }

  void apply_predator(double x, double y, double radius, double strength) override {
    const FlockParams& p = config().params;
    const auto step_params = kernels::make_step_params<double>(p.radius, p.separation, p.alignment,
                                                               p.cohesion, p.max_speed, p.world);
    const kernels::Predator<double> predator{x, y, radius * radius, strength};
    for (std::size_t i = 0; i < state_.size(); ++i) {
      kernels::flee(state_.x[i], state_.y[i], state_.vx[i], state_.vy[i], predator, step_params);
    }
  }
  FlockMetrics metrics() const override { return measure_flock(state_, config().params); }
  std::string device() const override { return "CPU, one thread (reference)"; }
  std::uint64_t bytes_allocated() const override {
    return count() * 4 * sizeof(double) * 3 + count() * sizeof(int);
  }

 private:
  FlockState state_;
  ReferenceStepper stepper_;
};

}  // namespace

std::unique_ptr<Simulation> make_reference_simulation(const SimulationConfig& config,
                                                      const FlockState& initial) {
  if (config.method != Method::kNaive) {
    throw InputError("the reference backend has only the naive method (all pairs, as the seed)");
  }
  if (config.precision != Precision::kDouble) {
    throw InputError("the reference backend computes in double precision only");
  }
  return std::make_unique<ReferenceSimulation>(config, initial);
}

}  // namespace boids
