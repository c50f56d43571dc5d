// boids-snapshot-bench: what a snapshot for `boids serve`'s pages costs the stepping thread,
// made where the flock lives (Simulation::quantised_into: the 16-bit positions, heading bytes
// and speeds written at each boid's input index) against the state copied out in double
// precision and quantised on the host (the way before it).
//   boids-snapshot-bench [REPEATS [COUNT,DIMENSIONS ...]]   (default 5; 1e6 and 1e7, 2D and 3D)
// Prints CSV: count, dimensions, backend, method, precision, way, ms a snapshot (best of the
// repeats), and the bytes a boid it writes.
#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "bench/flock_cases.h"
#include "host/core/backends.h"
#include "host/core/simulation.h"
#include "host/core/state_view.h"
#include "host/model/initial_state.h"
#include "host/serve/frame.h"

namespace {

using namespace boids;

double best_ms(int repeats, const std::function<void()>& make) {
  double best = 1e30;
  for (int r = 0; r < repeats + 1; ++r) {  // the first warms up (fresh pages)
    const auto start = std::chrono::steady_clock::now();
    make();
    const double ms =
        std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
    if (r > 0) best = std::min(best, ms);
  }
  return best;
}

}  // namespace

int main(int argc, char** argv) {
  bench::FlockCases cases;
  if (!bench::read_flock_cases(argc, argv, "boids-snapshot-bench", cases)) return 2;
  const int repeats = cases.repeats;
  std::printf("count,dimensions,backend,method,precision,way,ms,bytes_written_per_boid\n");
  for (const auto& [count, dimensions] : cases.flocks) {
    FlockParams params;
    params.dimensions = dimensions;
    // The published example's density: 1.2 boids per r^2 in 2D, its neighbours' count in 3D.
    const auto boids = static_cast<double>(count);
    const double side = dimensions == 2 ? std::sqrt(boids / 0.012) : std::cbrt(boids / 0.0009);
    params.world.width = params.world.height = params.world.depth = side;
    const SimulationConfig config{Backend::kCpu, Method::kHashed, Precision::kFloat, params};
    const auto sim = make_simulation(config, make_initial_state(count, 1, params));
    sim->step(2);  // the hashed order, not the input's
    serve::Snapshot snapshot;
    FlockState state;
    state.dimensions = dimensions;
    const double quantised =
        best_ms(repeats, [&] { serve::make_snapshot_into(snapshot, *sim, 1, false); });
    const double copied = best_ms(repeats, [&] {
      state.resize(sim->count());
      sim->state_into(StateView::of(state));
      serve::make_snapshot_into(snapshot, state, params.world, 0, 1, false);
    });
    const int quantised_bytes = dimensions == 2 ? 9 : 12;
    const int copied_bytes = (dimensions == 2 ? 32 : 48) + quantised_bytes;
    std::printf("%llu,%d,cpu,hashed,float,quantised where it lives,%.2f,%d\n",
                static_cast<unsigned long long>(count), dimensions, quantised, quantised_bytes);
    std::printf("%llu,%d,cpu,hashed,float,state copied then quantised,%.2f,%d\n",
                static_cast<unsigned long long>(count), dimensions, copied, copied_bytes);
    std::fflush(stdout);
  }
  return 0;
}
