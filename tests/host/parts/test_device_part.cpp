// A part split, edged and merged where a device holds it (host/backends/device_part_passes.h),
// flown on CPU threads on the GPU's path (tests/support/gpu_path_executor.h: its arrays reached
// only by upload and download, its selections' sinks called out of order), against the same
// parts on the cpu backend, whose passes run on the host: the same edges, the same flight bit
// for bit, the same metrics. Without noise: its turn's sine and cosine, taken one lane at a
// time on the GPU's path and vectorised on the cpu backend, may differ in the last bit in
// double (each executor's flight is its own, within the hashed method's tolerance).
#include <gtest/gtest.h>

#include <memory>
#include <string>
#include <vector>

#include "host/backends/kernel_flocks.h"
#include "tests/support/gpu_path_executor.h"
#include "tests/support/side_by_side_parts.h"
#include "tests/support/test_support.h"

namespace {

using namespace boids;
using test_support::bit_identical;
using test_support::GpuPathExecutor;
using test_support::SideBySide;
using test_support::Slab;

struct PartCase {
  Method method;
  Precision precision;
};

std::string part_case_name(const testing::TestParamInfo<PartCase>& info) {
  return to_string(info.param.method) + "_" + to_string(info.param.precision);
}

class DevicePart : public testing::TestWithParam<PartCase> {
 protected:
  SimulationConfig config(const FlockParams& params) const {
    return {Backend::kCpu, GetParam().method, GetParam().precision, params, /*seed=*/9};
  }

  static std::unique_ptr<Simulation> on_gpu_path(const SimulationConfig& c, const FlockState& s) {
    return with_flock_types(c, [&](auto real, auto d) {
      return make_kernel_simulation<decltype(real), d(), GpuPathExecutor>(c, s);
    });
  }

  // The parts on the GPU's path against the parts on the cpu backend, `steps` at a time,
  // measured between.
  void expect_cpu_flight(const FlockParams& params, const FlockState& start,
                         const std::vector<Slab>& slabs, int steps) const {
    SideBySide cpu(config(params), start, slabs);
    SideBySide gpu(config(params), start, slabs, on_gpu_path);
    for (int round = 0; round < 3; ++round) {
      for (int s = 0; s < steps; ++s) {
        cpu.step();
        gpu.step();
      }
      EXPECT_TRUE(bit_identical(cpu.gather(), gpu.gather())) << "round " << round;
      const FlockMetrics a = cpu.metrics(), b = gpu.metrics();
      EXPECT_EQ(a.flocks, b.flocks);
      EXPECT_EQ(a.largest_flock, b.largest_flock);
      EXPECT_EQ(a.mean_neighbors, b.mean_neighbors);
      EXPECT_EQ(a.polarization, b.polarization);
      EXPECT_EQ(a.milling, b.milling);
      EXPECT_EQ(a.mean_nn_distance, b.mean_nn_distance);
    }
  }
};

// Every flight of tests/support/side_by_side_parts.h: a torus, walls, parts that start empty
// and grow, a box, windows of the grid in a plane and in a box.
TEST_P(DevicePart, FliesAsTheCpuBackendsParts) {
  for (const std::string& name : test_support::part_flight_names()) {
    SCOPED_TRACE(name);
    const test_support::PartFlight f = test_support::part_flight(name, /*noisy=*/false);
    expect_cpu_flight(f.params, f.start, f.slabs, 3);
  }
}

// Filled a piece at a time, each piece uploaded to its places.
TEST_P(DevicePart, FilledAPieceAtATimeIsThePartStartedWhole) {
  FlockParams params;
  params.world = test_support::square(120);
  test_support::expect_filled_as_started(
      config(params), test_support::random_state(700, 120, 2, 10, 15), 64, on_gpu_path);
}

INSTANTIATE_TEST_SUITE_P(methods, DevicePart,
                         testing::Values(PartCase{Method::kNaive, Precision::kDouble},
                                         PartCase{Method::kNaive, Precision::kFloat},
                                         PartCase{Method::kHashed, Precision::kDouble},
                                         PartCase{Method::kHashed, Precision::kFloat}),
                         part_case_name);

}  // namespace
