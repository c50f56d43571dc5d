#include "host/core/flight_cost.h"

#include <omp.h>

#include <algorithm>
#include <cmath>
#include <cstdio>

#include "host/model/models.h"
#include "host/model/param_table.h"

namespace boids {
namespace {

constexpr double kPi = 3.14159265358979323846;

// The pairs a CPU thread visits a second in a dense flock (hashed float, 20,000 boids at 627
// neighbours: 1.6e9 a second on 2 threads, bench/results), and the reference's one thread
// (2.7e8): a step's time is judged from them, within a factor of a few.
constexpr double kPairsPerThreadSecond = 8e8;
constexpr double kReferencePairsPerSecond = 2.7e8;
// A step judged to take longer says so.
constexpr double kSlowStepSeconds = 2.0;

double reach_volume(double r, int dimensions) {
  return dimensions == 3 ? 4.0 / 3.0 * kPi * r * r * r : kPi * r * r;
}

}  // namespace

double density_of(const FlockParams& p, std::uint64_t count) {
  const World& w = p.world;
  return static_cast<double>(count) / (w.width * w.height * (p.dimensions == 3 ? w.depth : 1.0));
}

double example_density(Model model) {
  const World example = example_world(model);
  return static_cast<double>(default_count(model)) / (example.width * example.height);
}

bool far_denser_than_example(const FlockParams& p, std::uint64_t count) {
  return p.dimensions == 2 && density_of(p, count) >= 10 * example_density(p.model);
}

FlightCost flight_cost(const SimulationConfig& config, std::uint64_t count) {
  const FlockParams& p = config.params;
  const double n = static_cast<double>(count);
  FlightCost cost;
  cost.neighbors =
      std::min(std::max(n - 1, 0.0), density_of(p, count) * reach_volume(p.radius, p.dimensions));
  // The hashed method visits the cells around a boid: 9 cells of r^2, 27 of r^3.
  const double around = p.dimensions == 3 ? 27.0 : 9.0;
  const double visited =
      config.method == Method::kNaive
          ? n
          : std::min(n, cost.neighbors * around / reach_volume(1.0, p.dimensions));
  cost.candidates = n * visited;
  if (config.backend == Backend::kReference) {
    cost.step_seconds = n * n / kReferencePairsPerSecond;  // all pairs, one thread
  } else if (config.backend == Backend::kCpu) {
    cost.step_seconds = cost.candidates / (kPairsPerThreadSecond * omp_get_max_threads());
  }
  return cost;
}

std::string slow_flight_warning(const SimulationConfig& config, std::uint64_t count) {
  const FlightCost cost = flight_cost(config, count);
  if (cost.step_seconds < kSlowStepSeconds) return "";
  const FlockParams& p = config.params;
  const int threads = config.backend == Backend::kReference ? 1 : omp_get_max_threads();
  const double density = density_of(p, count);
  char text[512];
  std::snprintf(text, sizeof text,
                "%llu boids at %.4g a unit %s have about %.0f neighbours each within r = %.4g: "
                "about %.0f s a step on %d thread%s here",
                static_cast<unsigned long long>(count), density,
                p.dimensions == 3 ? "volume" : "area", cost.neighbors, p.radius, cost.step_seconds,
                threads, threads == 1 ? "" : "s");
  std::string said = text;
  // What would make it fast: the cells around a boid rather than every pair, or in 2D the
  // density of the model's example when the flock flies far denser.
  if (config.backend == Backend::kReference) {
    said +=
        " (the reference visits every pair on one thread; --backend cpu flies the same "
        "flight's model on every thread)";
  } else if (config.method == Method::kNaive) {
    said += " (the naive method visits every pair; --method hashed visits the cells around)";
  } else if (far_denser_than_example(p, count)) {
    char hint[160];
    std::snprintf(hint, sizeof hint, " (--density %g keeps the %s model's example density)",
                  example_density(p.model), to_string(p.model).c_str());
    said += hint;
  }
  return said;
}

}  // namespace boids
