#include "host/core/simulation.h"

#include <chrono>

#include "host/base/errors.h"
#include "host/base/memory.h"
#include "host/core/backends.h"

namespace boids {

void Simulation::quantised_into(const QuantisedView& out) const {
  FlockState boids;
  boids.dimensions = config().params.dimensions;
  boids.resize(count());
  state_into(StateView::of(boids));
  quantise_particles(boids, world_region(config().params.world, boids.dimensions), out);
}

void check_dimensions(const SimulationConfig& config, const FlockState& initial) {
  const int d = config.params.dimensions;
  if (d != 2 && d != 3) {
    throw InputError("a flock flies in 2 or 3 dimensions, not " + std::to_string(d));
  }
  if (initial.dimensions != d) {
    throw InputError("a start in " + std::to_string(initial.dimensions) +
                     " dimensions cannot fly in " + std::to_string(d));
  }
}

std::unique_ptr<Simulation> make_simulation(const SimulationConfig& config,
                                            const FlockState& initial) {
  if (initial.size() == 0) throw InputError("a flock needs at least one boid");
  if (initial.size() > kMaxBoids) {
    throw InputError("a flock has at most " + std::to_string(kMaxBoids) + " boids");
  }
  check_dimensions(config, initial);
  if (initial.predators.size() != static_cast<std::size_t>(config.params.predators) ||
      (initial.predators.size() > 0 && initial.predators.dimensions != config.params.dimensions)) {
    throw InputError("the flight has " + std::to_string(config.params.predators) +
                     " predators, its start " + std::to_string(initial.predators.size()) +
                     " (make_initial_predators draws them)");
  }
  switch (config.backend) {
    case Backend::kReference:
      return make_reference_simulation(config, initial);
    case Backend::kCpu:
      return make_cpu_simulation(config, initial);
    case Backend::kCuda:
      return make_cuda_simulation(config, initial);
  }
  throw InputError("unknown backend");
}

double Simulation::timed_step(std::uint64_t steps) {
  const auto start = std::chrono::steady_clock::now();
  step(steps);
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

double Simulation::timed_step(std::uint64_t steps, std::vector<StageSeconds>& stages) {
  stages.clear();
  return timed_step(steps);
}

void Simulation::change_params(const FlockParams& params) {
  const World& now = config_.params.world;
  if (params.world.width != now.width || params.world.height != now.height ||
      params.world.boundary != now.boundary) {
    throw InputError("the world's size and boundary cannot change while boids are in it");
  }
  if (params.model != config_.params.model) {
    throw InputError("the model cannot change while boids fly it: start a new flock");
  }
  if (params.dimensions != config_.params.dimensions ||
      (params.dimensions == 3 && params.world.depth != now.depth)) {
    throw InputError("the world's dimensions cannot change while boids are in it");
  }
  if (params.predators != config_.params.predators) {
    throw InputError("the number of predators cannot change in flight: start a new flock");
  }
  config_.params = params;
}

void Simulation::check_resumable(const FlockState& state, const std::vector<std::uint64_t>& order,
                                 bool keeps_input_order) const {
  if (state.size() != count_ || order.size() != count_) {
    throw InputError("a checkpoint of " + std::to_string(state.size()) +
                     " boids cannot continue a flock of " + std::to_string(count_));
  }
  if (!is_permutation(order) || (keeps_input_order && order != input_order(count_))) {
    throw InputError("the checkpoint's order of the boids is not one this backend keeps");
  }
  if (state.predators.size() != static_cast<std::size_t>(config_.params.predators)) {
    throw InputError("a checkpoint with " + std::to_string(state.predators.size()) +
                     " predators cannot continue a flight with " +
                     std::to_string(config_.params.predators));
  }
}

bool is_permutation(const std::vector<std::uint64_t>& order) {
  std::vector<bool> seen(order.size(), false);
  for (std::uint64_t k : order) {
    if (k >= order.size() || seen[k]) return false;
    seen[k] = true;
  }
  return true;
}

FlockState Simulation::state() const {
  FlockState state;
  state.dimensions = config_.params.dimensions;
  state.resize(count_);
  state_into(StateView::of(state));
  state.predators = predators();
  return state;
}

std::vector<std::uint64_t> input_order(std::uint64_t count) {
  std::vector<std::uint64_t> order(count);
  for (std::uint64_t k = 0; k < count; ++k) order[k] = k;
  return order;
}

namespace {

MemoryNeed reference_memory_need(std::uint64_t count) {
  // The state and the reference's six scratch arrays, and the caller's starting state.
  return {count * (4 * sizeof(double) * 2 + 6 * sizeof(double) + sizeof(int)), 0};
}

}  // namespace

void check_memory(const SimulationConfig& config, std::uint64_t count) {
  MemoryNeed need;
  switch (config.backend) {
    case Backend::kReference:
      need = reference_memory_need(count);
      break;
    case Backend::kCpu:
      need = cpu_memory_need(config, count);
      break;
    case Backend::kCuda:
      need = cuda_memory_need(config, count);
      break;
  }
  const std::string what = "a flock of " + std::to_string(count) + " boids (" +
                           to_string(config.backend) + ", " + to_string(config.method) + ", " +
                           to_string(config.precision) + ")";
  check_memory_fits(need.host, available_host_memory(), what, "host memory", host_memory_holder());
  const CudaAvailability cuda =
      need.device > 0 ? cuda_availability() : CudaAvailability{};  // unusable: said later
  if (cuda.usable) {
    check_memory_fits(need.device, cuda.free_memory, what, "GPU memory", cuda.device_name);
  }
}

Backend resolve_auto_backend() {
  return cuda_availability().usable ? Backend::kCuda : Backend::kCpu;
}

}  // namespace boids
