// Batches (host/core/flock_batch.h): every flock of a batch flies the flight it flies alone, bit
// for bit, and measures as it measures alone, on the cpu backend, on the GPU's path run by CPU
// threads (tests/support/gpu_path_executor.h: one lane per boid, blocks finding their flock) and on
// a GPU where one is usable. The flocks of the batch differ in every way a batch must keep apart:
// size, world, radius, boundary, weights, noise, field of view, obstacles, goal, wind and seed.
#include <gtest/gtest.h>

#include <memory>
#include <string>
#include <tuple>
#include <vector>

#include "host/backends/kernel_flocks.h"
#include "host/base/errors.h"
#include "host/core/backends.h"
#include "host/core/flock_batch.h"
#include "host/model/initial_state.h"
#include "tests/support/gpu_path_executor.h"
#include "tests/support/test_support.h"

namespace boids {
namespace {

using test_support::bit_identical;
using test_support::GpuPathExecutor;

struct Flocks {
  std::vector<SimulationConfig> configs;
  std::vector<FlockState> starts;
};

// Six flocks under `model`, each with variants of its own.
Flocks mixed_flocks(Backend backend, Precision precision, Model model) {
  Flocks f;
  for (int k = 0; k < 6; ++k) {
    SimulationConfig c{backend, Method::kHashed, precision, FlockParams{}, 100 + 7u * k};
    FlockParams& p = c.params;
    p.model = model;
    p.world.width = 60 + 20 * k;
    p.world.height = 50 + 10 * k;
    std::uint64_t count = 150 + 90 * k;
    switch (k) {
      case 0:
        count = 1;  // a lone boid
        break;
      case 1:
        p.noise = 0.8;
        p.fov = 270;
        break;
      case 2:
        p.world.boundary = Boundary::kWalls;
        p.obstacles = {{30, 30, 6}, {60, 40, 4}};
        break;
      case 3:
        p.radius = 6;
        p.has_goal = true;
        p.goal = {20, 25};
        p.wind = {0.05, -0.02};
        break;
      case 4:
        p.alignment = 2.5;
        p.separation = 0.5;
        p.max_speed = 1.5;
        p.obstacles = {{10, 10, 5}};
        break;
      default:
        p.radius = 25;  // a grid of a few cells
        break;
    }
    settle_model(p);  // couzin's radius, from its zones
    f.configs.push_back(c);
    f.starts.push_back(make_initial_state(count, c.seed, p));
  }
  return f;
}

void expect_same_metrics(const FlockMetrics& alone, const FlockMetrics& batched, bool exact,
                         const std::string& what) {
  const double tolerance = exact ? 0 : 1e-12;
  EXPECT_NEAR(alone.polarization, batched.polarization, tolerance) << what;
  EXPECT_NEAR(alone.milling, batched.milling, tolerance) << what;
  EXPECT_NEAR(alone.order, batched.order, tolerance) << what;
  EXPECT_NEAR(alone.mean_nn_distance, batched.mean_nn_distance, tolerance) << what;
  EXPECT_NEAR(alone.mean_neighbors, batched.mean_neighbors, tolerance) << what;
  EXPECT_EQ(alone.flocks, batched.flocks) << what;
  EXPECT_EQ(alone.largest_flock, batched.largest_flock) << what;
}

// Flies `flocks` alone (make_alone) and as one batch, comparing states and metrics.
template <typename MakeAlone>
void expect_batch_flies_as_alone(const Flocks& flocks, FlockBatch& batch, MakeAlone&& make_alone,
                                 bool exact_metrics) {
  std::vector<std::unique_ptr<Simulation>> alone;
  for (std::size_t f = 0; f < flocks.configs.size(); ++f) {
    alone.push_back(make_alone(flocks.configs[f], flocks.starts[f]));
  }
  for (const std::uint64_t steps : {0, 1, 24}) {
    batch.step(steps);
    const std::vector<FlockMetrics> measured = batch.metrics();
    ASSERT_EQ(measured.size(), alone.size());
    for (std::size_t f = 0; f < alone.size(); ++f) {
      alone[f]->step(steps);
      const std::string what = "flock " + std::to_string(f) + " after " + std::to_string(steps);
      EXPECT_TRUE(bit_identical(alone[f]->state(), batch.state(f))) << what;
      expect_same_metrics(alone[f]->metrics(), measured[f], exact_metrics, what);
    }
  }
}

// A precision and a model.
using BatchCase = std::tuple<Precision, Model>;

std::string case_name(const testing::TestParamInfo<BatchCase>& info) {
  return to_string(std::get<0>(info.param)) + "_" + to_string(std::get<1>(info.param));
}

class BatchTest : public testing::TestWithParam<BatchCase> {
 protected:
  Precision precision() const { return std::get<0>(GetParam()); }
  Flocks flocks_on(Backend backend) const {
    return mixed_flocks(backend, precision(), std::get<1>(GetParam()));
  }
};

TEST_P(BatchTest, CpuBatchFliesEveryFlockAsAlone) {
  const Flocks flocks = flocks_on(Backend::kCpu);
  const auto batch = make_batch(flocks.configs, flocks.starts);
  ASSERT_EQ(batch->size(), 6u);
  EXPECT_EQ(batch->count(0), 1u);
  expect_batch_flies_as_alone(flocks, *batch, make_simulation, /*exact_metrics=*/true);
}

TEST_P(BatchTest, GpuPathBatchFliesEveryFlockAsAlone) {
  const Flocks flocks = flocks_on(Backend::kCpu);
  const auto alone = [](const SimulationConfig& c,
                        const FlockState& s) -> std::unique_ptr<Simulation> {
    if (c.precision == Precision::kFloat)
      return make_kernel_simulation<float, 2, GpuPathExecutor>(c, s);
    return make_kernel_simulation<double, 2, GpuPathExecutor>(c, s);
  };
  std::unique_ptr<FlockBatch> batch;
  if (precision() == Precision::kFloat) {
    batch = make_kernel_batch<float, GpuPathExecutor>(flocks.configs, flocks.starts);
  } else {
    batch = make_kernel_batch<double, GpuPathExecutor>(flocks.configs, flocks.starts);
  }
  expect_batch_flies_as_alone(flocks, *batch, alone, /*exact_metrics=*/true);
}

// On a GPU the segmented sums add in another order than a lone flock's reduction: the metrics
// agree to rounding, the states bit for bit.
TEST_P(BatchTest, CudaBatchFliesEveryFlockAsAlone) {
  const CudaAvailability cuda = cuda_availability();
  if (!cuda.usable) GTEST_SKIP() << "cuda backend not usable: " << cuda.reason;
  const Flocks flocks = flocks_on(Backend::kCuda);
  const auto batch = make_batch(flocks.configs, flocks.starts);
  expect_batch_flies_as_alone(flocks, *batch, make_simulation, /*exact_metrics=*/false);
}

INSTANTIATE_TEST_SUITE_P(EveryModel, BatchTest,
                         testing::Combine(testing::Values(Precision::kDouble, Precision::kFloat),
                                          testing::ValuesIn(test_support::every_model())),
                         case_name);

TEST(Batch, RefusesFlocksThatCannotShareIt) {
  Flocks flocks = mixed_flocks(Backend::kCpu, Precision::kFloat, Model::kBoids);
  const auto refused = [&](const std::string& expected) {
    try {
      make_batch(flocks.configs, flocks.starts);
      ADD_FAILURE() << "accepted; expected: " << expected;
    } catch (const InputError& e) {
      EXPECT_NE(std::string(e.what()).find(expected), std::string::npos) << e.what();
    }
  };
  flocks.configs[3].precision = Precision::kDouble;
  refused("one model and one precision");
  flocks.configs[3].precision = Precision::kFloat;
  flocks.configs[2].params.model = Model::kVicsek;
  refused("one model and one precision");
  flocks.configs[2].params.model = Model::kBoids;
  flocks.configs[1].method = Method::kNaive;
  refused("hashed method");
  flocks.configs[1].method = Method::kHashed;
  const Boundary boundary = flocks.configs[2].params.world.boundary;
  flocks.configs[2].params.world.boundary = Boundary::kOpen;  // no table of tiles in a batch
  refused("a flock in open space flies alone");
  flocks.configs[2].params.world.boundary = boundary;
  flocks.configs[0].params.nearest = 3;
  refused("topological neighbours (--nearest) flies alone");
  flocks.configs[0].params.nearest = 0;
  flocks.configs[4].params.predators = 1;
  refused("predators flies alone");
  flocks.configs[4].params.predators = 0;
  EXPECT_TRUE(batchable(flocks.configs));  // each refusal was its own
  flocks.starts[4] = FlockState{};
  refused("at least one boid");
  flocks.starts.pop_back();
  refused("one start per flock");
  for (auto& c : flocks.configs) c.backend = Backend::kReference;
  EXPECT_FALSE(batchable(flocks.configs));
  EXPECT_FALSE(batchable({}));
}

}  // namespace
}  // namespace boids
