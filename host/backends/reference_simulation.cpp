// The reference backend: the published algorithm on one CPU thread, naive and double only.
#include "host/base/errors.h"
#include "host/core/backends.h"
#include "host/core/particles_view.h"
#include "host/core/simulation.h"
#include "host/core/value_limits.h"
#include "host/core/viewer_access.h"
#include "host/reference/reference.h"

namespace boids {
namespace {

class ReferenceSimulation final : public Simulation, public ViewerAccess {
 public:
  ReferenceSimulation(const SimulationConfig& config, const FlockState& initial)
      : Simulation(config, initial.size()), state_(initial), stepper_(config.seed) {}

  void step(std::uint64_t steps) override {
    for (std::uint64_t s = 0; s < steps; ++s) {
      if (config().params.world.open()) check_reach();
      stepper_.step(state_, config().params);
    }
  }
  void state_into(const StateView& out) const override { copy_particles(state_, out); }
  FlockMetrics metrics() override { return measure_flock(state_, config().params); }
  Particles predators() const override { return state_.predators; }
  void set_params(const FlockParams& params) override { change_params(params); }
  std::uint64_t steps_taken() const override { return stepper_.steps_taken(); }
  std::vector<std::uint64_t> backend_order() const override { return input_order(count()); }
  void resume(const FlockState& state, const std::vector<std::uint64_t>& order,
              std::uint64_t steps_taken) override {
    check_resumable(state, order, /*keeps_input_order=*/true);
    state_ = state;
    stepper_.resume_at(steps_taken);
  }
  std::string device() const override { return "CPU, one thread (reference)"; }
  std::uint64_t bytes_allocated() const override {
    return count() * 2 * config().params.dimensions * sizeof(double) * 3 + count() * sizeof(int);
  }

  void apply_predator(const PredatorPush& p) override {
    if (state_.dimensions != 2) throw InputError("the pointer is a predator in 2D flocks only");
    reference_predator(state_, config().params, p.x, p.y, p.radius, p.strength);
  }
  void copy_render_data(float* out) override {
    const bool box = state_.dimensions == 3;
    for (std::size_t i = 0; i < state_.size(); ++i) {
      const double values[6] = {state_.x[i],  state_.y[i],  box ? state_.z[i] : 0.0,
                                state_.vx[i], state_.vy[i], box ? state_.vz[i] : 0.0};
      const int d = box ? 3 : 2;
      for (int a = 0; a < d; ++a) {
        out[2 * d * i + a] = static_cast<float>(values[a]);
        out[2 * d * i + d + a] = static_cast<float>(values[3 + a]);
      }
    }
  }
  bool copy_render_data_to_device(void*, void*) override { return false; }

 private:
  // Open space's bound (check_open_reach), as every backend checks it before a step.
  void check_reach() const { check_open_reach(state_, Precision::kDouble, config().params.radius); }

  FlockState state_;
  ReferenceStepper stepper_;
};

}  // namespace

std::unique_ptr<Simulation> make_reference_simulation(const SimulationConfig& config,
                                                      const FlockState& initial) {
  if (config.method != Method::kNaive) {
    throw InputError(
        "the reference backend has only the naive method (all pairs, as the published step)");
  }
  if (config.precision != Precision::kDouble) {
    throw InputError("the reference backend computes in double precision only");
  }
  return std::make_unique<ReferenceSimulation>(config, initial);
}

}  // namespace boids
