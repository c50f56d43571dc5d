// A user's program against the installed package: a random flock on the cpu backend, stepped
// and measured; and naive double on the cpu backend against the reference, which must agree
// bit for bit. Exit 1, saying what is wrong, when anything does not hold.
#include <cstdint>
#include <iostream>

#include "host/boids.h"
#include "host/io/tool_main.h"

namespace {

constexpr std::uint64_t kCount = 120;
constexpr std::uint64_t kSteps = 100;

bool same_bits(const boids::FlockState& a, const boids::FlockState& b) {
  return a.x == b.x && a.y == b.y && a.vx == b.vx && a.vy == b.vy;
}

int run() {
  const boids::FlockParams params;  // the published example: r 10, world 100
  const boids::FlockState start = boids::make_initial_state(kCount, 42, params);

  boids::SimulationConfig config;  // cpu, hashed, float
  config.params = params;
  const auto sim = boids::make_simulation(config, start);
  sim->step(kSteps);
  const boids::FlockMetrics m = sim->metrics();
  std::cout << "boids consumer: " << sim->count() << " boids, " << sim->steps_taken()
            << " steps on " << sim->device() << ": polarization " << m.polarization << ", "
            << m.flocks << " flocks, the largest " << m.largest_flock << "\n";
  if (sim->count() != kCount || sim->steps_taken() != kSteps || sim->state().size() != kCount ||
      !(m.polarization >= 0 && m.polarization <= 1) || m.flocks < 1 || m.flocks > kCount ||
      m.largest_flock < 1 || m.largest_flock > kCount) {
    std::cerr << "boids consumer: the flock or its metrics are out of range\n";
    return 1;
  }

  config.method = boids::Method::kNaive;
  config.precision = boids::Precision::kDouble;
  const auto cpu = boids::make_simulation(config, start);
  config.backend = boids::Backend::kReference;
  const auto reference = boids::make_simulation(config, start);
  cpu->step(kSteps);
  reference->step(kSteps);
  if (!same_bits(cpu->state(), reference->state())) {
    std::cerr << "boids consumer: naive double on the cpu backend differs from the reference\n";
    return 1;
  }
  std::cout << "boids consumer: naive double equals the reference bit for bit\n";
  return 0;
}

}  // namespace

int main() {
  return boids::main_reporting_errors("boids consumer", run);
}
