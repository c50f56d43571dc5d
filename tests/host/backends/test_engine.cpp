// The engine against the reference: every test runs on every backend x method x precision.
// A cuda case skips, with the reason, where this build or machine has no usable device.
#include <gtest/gtest.h>
#include <omp.h>

#include <sys/wait.h>

#if defined(BOIDS_HAVE_CUDA)
#include <cuda_runtime.h>
#endif
#include <algorithm>
#include <array>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <memory>
#include <stdexcept>
#include <string>

#include "host/base/errors.h"
#include "host/core/backends.h"
#include "host/core/simulation.h"
#include "host/core/viewer_access.h"
#include "host/metrics/metrics.h"
#include "host/model/initial_state.h"
#include "host/validation/validation.h"
#include "tests/support/test_support.h"

namespace boids {
namespace {

using test_support::bit_identical;
using test_support::engine_case_name;
using test_support::EngineCase;
using test_support::every_engine_case;
using test_support::make_state;

std::string describe(const ValidationCase& c) {
  return to_string(c.backend) + " " + to_string(c.method) + " " + to_string(c.precision) + " on " +
         c.state + " after " + std::to_string(c.steps) + " steps: position error " +
         std::to_string(c.max_position_error) + ", velocity error " +
         std::to_string(c.max_velocity_error) + ", differing values " +
         std::to_string(c.differing_values) + ", unexplained neighbour boids " +
         std::to_string(c.unexplained_boids) + (c.failure.empty() ? "" : ": " + c.failure);
}

// The validation's flocks, built once (the flocked one takes 300 reference steps).
const std::vector<ValidationFlock>& flocks() {
  static const std::vector<ValidationFlock> all = validation_flocks();
  return all;
}

const ValidationFlock& flock_named(const std::string& name) {
  for (const ValidationFlock& f : flocks()) {
    if (f.name == name) return f;
  }
  throw std::runtime_error("no validation flock " + name);
}

class EngineTest : public test_support::EngineCaseTest {
 protected:
  bool is_double() const { return GetParam().precision == Precision::kDouble; }

  // The engine test's bar: naive double bit for bit over 20 steps; the others as `boids
  // validate` (hashed double 1e-9 after 10 steps, float 1e-4 after one step).
  ValidationTolerance tolerance() const {
    if (GetParam().method == Method::kNaive && is_double()) return {20, 0.0, true};
    return validation_tolerance(GetParam().method, GetParam().precision);
  }

  FlockState run(const FlockState& state, const FlockParams& params, std::uint64_t steps) const {
    const auto sim = make(state, params);
    sim->step(steps);
    return sim->state();
  }

  ValidationCase compare(const ValidationFlock& flock) const {
    const ValidationTolerance t = tolerance();
    return compare_with_expected(GetParam().backend, GetParam().method, GetParam().precision, flock,
                                 reference_state(flock.state, flock.params, t.steps), t);
  }

  void expect_matches_reference(const std::string& name, const FlockParams& params,
                                const FlockState& state) const {
    const ValidationCase c = compare({name, params, state});
    EXPECT_TRUE(c.pass) << describe(c);
    EXPECT_EQ(c.unexplained_boids, 0u) << describe(c);
  }

  // The state cast to this case's precision, as the backend stores it.
  FlockState as_stored(const FlockState& s) const {
    if (is_double()) return s;
    FlockState out = s;
    for (auto* v : {&out.x, &out.y, &out.vx, &out.vy}) {
      for (double& value : *v) value = static_cast<double>(static_cast<float>(value));
    }
    return out;
  }
};

TEST_P(EngineTest, MatchesReferenceOnRandomFlock) {
  const ValidationCase c = compare(flock_named("random"));
  EXPECT_TRUE(c.pass) << describe(c);
}

TEST_P(EngineTest, MatchesReferenceOnFlockedState) {
  const ValidationCase c = compare(flock_named("flocked"));
  EXPECT_TRUE(c.pass) << describe(c);
}

TEST_P(EngineTest, MatchesReferenceWithFewerThanThreeCellsPerAxis) {
  for (const char* name : {"2-cells-r40", "1-cell-r60"}) {
    const ValidationCase c = compare(flock_named(name));
    EXPECT_TRUE(c.pass) << describe(c);
  }
}

double mean_neighbors(const ValidationFlock& f) {
  const FlockState& s = f.state;
  const double side = f.params.world.width, half = side / 2;
  std::uint64_t pairs = 0;
  for (std::size_t i = 0; i < s.size(); ++i) {
    for (std::size_t j = i + 1; j < s.size(); ++j) {
      double dx = std::abs(s.x[j] - s.x[i]), dy = std::abs(s.y[j] - s.y[i]);
      if (dx > half) dx = side - dx;
      if (dy > half) dy = side - dy;
      pairs += dx * dx + dy * dy < f.params.radius * f.params.radius;
    }
  }
  return 2.0 * static_cast<double>(pairs) / static_cast<double>(s.size());
}

TEST_P(EngineTest, StateBeforeAnyStepIsTheInputInInputOrder) {
  const ValidationFlock& f = flock_named("random");
  const auto sim = make(f.state, f.params);
  EXPECT_TRUE(bit_identical(sim->state(), as_stored(f.state)));
  sim->step(0);
  EXPECT_TRUE(bit_identical(sim->state(), as_stored(f.state)));
}

TEST_P(EngineTest, QuantisesWhereItLivesAsTheHostDoes) {
  // A screen's snapshot (boids serve's frames) is made where the flock lives: in input order,
  // the bytes the host makes of the state, in 2D and in a box.
  for (const char* name : {"random", "flocked"}) {
    const ValidationFlock& f = flock_named(name);
    const auto sim = make(f.state, f.params);
    sim->step(3);
    EXPECT_TRUE(test_support::quantised_as_the_host(*sim)) << name;
  }
  FlockParams box;
  box.dimensions = 3;
  const auto flying = make(make_initial_state(2000, 5, box), box);
  flying->step(3);
  EXPECT_TRUE(test_support::quantised_as_the_host(*flying)) << "a box";
}

TEST_P(EngineTest, StateIsInInputOrderAfterManySteps) {
  // Boids that never meet (r = 1e-6) move on their own, so every method computes the same
  // values for each boid: the hashed pipeline's reordering must be undone exactly.
  FlockParams lonely;
  lonely.radius = 1e-6;
  const FlockState start = make_initial_state(400, 11, lonely);
  const std::uint64_t steps = 200;
  const FlockState got = run(start, lonely, steps);
  const auto naive = make(start, lonely, Method::kNaive);
  naive->step(steps);
  EXPECT_TRUE(bit_identical(got, naive->state()));
  if (is_double()) {
    EXPECT_TRUE(bit_identical(got, reference_state(start, lonely, steps)));
  }

  // And a dense flock in double: by index, each boid stays within the tolerance.
  if (is_double()) {
    const ValidationFlock& f = flock_named("random");
    ValidationTolerance t = tolerance();
    t.steps = 40;
    const ValidationCase c =
        compare_with_expected(GetParam().backend, GetParam().method, GetParam().precision, f,
                              reference_state(f.state, f.params, t.steps), t);
    EXPECT_TRUE(c.pass) << describe(c);
  }
}

TEST_P(EngineTest, IdenticalAcrossRuns) {
  FlockParams params;
  params.world = test_support::square(200);
  const FlockState start = make_initial_state(2000, 5, params);
  EXPECT_TRUE(bit_identical(run(start, params, 20), run(start, params, 20)));
}

TEST_P(EngineTest, IdenticalAcrossThreadCounts) {
  FlockParams params;
  params.world = test_support::square(200);
  const FlockState start = make_initial_state(2000, 6, params);
  const int threads = omp_get_max_threads();
  omp_set_num_threads(1);
  const FlockState one = run(start, params, 20);
  omp_set_num_threads(2);
  const FlockState two = run(start, params, 20);
  omp_set_num_threads(threads);
  EXPECT_TRUE(bit_identical(one, two));
}

// Steps timed by stage fly as steps do, and name the pipeline's stages (kernels/stages.h): the
// hashed method's sort, reorder and step, the naive method's step; their times are the steps'.
TEST_P(EngineTest, StepsTimedByStageFlyAsStepsDo) {
  FlockParams params;
  params.world = test_support::square(200);
  const FlockState start = make_initial_state(3000, 8, params);
  const auto sim = make(start, params);
  sim->step(1);  // the first step keys the boids; the step keys them for the next
  std::vector<StageSeconds> stages;
  const double seconds = sim->timed_step(5, stages);
  EXPECT_TRUE(bit_identical(sim->state(), run(start, params, 6)));
  std::vector<std::string> names;
  double staged = 0;
  for (const StageSeconds& s : stages) {
    names.push_back(s.stage);
    EXPECT_GE(s.seconds, 0.0) << s.stage;
    staged += s.seconds;
  }
  std::sort(names.begin(), names.end());
  std::vector<std::string> expected = {"step"};
  if (GetParam().method == Method::kHashed) {
    // A GPU makes the cell starts after CUB's sort; CPU threads make them in theirs.
    expected = GetParam().backend == Backend::kCuda
                   ? std::vector<std::string>{"cell starts", "reorder", "sort", "step"}
                   : std::vector<std::string>{"reorder", "sort", "step"};
  }
  EXPECT_EQ(names, expected);
  EXPECT_LE(staged, seconds * 1.0001 + 1e-4);
}

TEST_P(EngineTest, SingleBoid) {
  FlockParams params;
  expect_matches_reference("single", params, make_state({{50.0, 50.0, 0.6, -0.3}}));
  expect_matches_reference("single-at-edge", params, make_state({{99.9, 0.05, 0.8, -0.6}}));
  const FlockState moved = run(make_state({{50.0, 50.0, 0.6, -0.3}}), params, 5);
  EXPECT_NEAR(moved.x[0], 53.0, 1e-5);  // speed 0.67 lies in [0.5, 1]: no clamp, no steering
  EXPECT_NEAR(moved.y[0], 48.5, 1e-5);
}

TEST_P(EngineTest, TwoBoids) {
  FlockParams params;
  expect_matches_reference("two-near", params,
                           make_state({{50.0, 50.0, 0.5, 0.5}, {53.0, 51.0, -0.7, 0.1}}));
  expect_matches_reference("two-separating", params,
                           make_state({{50.0, 50.0, 0.5, 0.5}, {50.5, 50.25, -0.7, 0.1}}));
  expect_matches_reference("two-apart", params,
                           make_state({{10.0, 10.0, 0.5, 0.5}, {60.0, 70.0, -0.7, 0.1}}));
}

// Every value of `got` within `tolerance` of `expected` (relative to the value's size, at
// least 1).
testing::AssertionResult close_to(const FlockState& got, const FlockState& expected,
                                  double tolerance) {
  if (got.size() != expected.size()) {
    return testing::AssertionFailure() << "sizes " << got.size() << " and " << expected.size();
  }
  for (std::size_t i = 0; i < got.size(); ++i) {
    const double pairs[4][2] = {{got.x[i], expected.x[i]},
                                {got.y[i], expected.y[i]},
                                {got.vx[i], expected.vx[i]},
                                {got.vy[i], expected.vy[i]}};
    for (const auto& pair : pairs) {
      if (std::abs(pair[0] - pair[1]) > tolerance * std::max(1.0, std::abs(pair[1]))) {
        return testing::AssertionFailure() << "boid " << i << ": " << pair[0] << " vs " << pair[1];
      }
    }
  }
  return testing::AssertionSuccess();
}

TEST_P(EngineTest, SetParamsContinuesAsANewSimulationWould) {
  FlockParams before;
  before.world = test_support::square(200);
  const FlockState start = make_initial_state(1500, 8, before);
  FlockParams after = before;
  after.radius = 15;  // a new cell grid
  after.separation = 3;
  after.alignment = 0.25;
  after.max_speed = 1.5;
  const auto sim = make(start, before);
  sim->step(5);
  const auto fresh = make(sim->state(), after);
  sim->set_params(after);
  EXPECT_EQ(sim->config().params.radius, 15.0);
  sim->step(1);
  fresh->step(1);
  if (GetParam().method == Method::kNaive) {
    EXPECT_TRUE(bit_identical(sim->state(), fresh->state()));
  } else {
    // The hashed pipeline keeps boids in its own order, which decides the order of equal keys
    // and so the order of additions: the same values up to rounding.
    EXPECT_TRUE(close_to(sim->state(), fresh->state(), is_double() ? 1e-12 : 1e-5));
  }
  FlockParams other_world = after;
  other_world.world = test_support::square(300);
  EXPECT_THROW(sim->set_params(other_world), InputError);
}

TEST_P(EngineTest, PredatorPushesNearbyBoidsAwayAsTheReferenceDoes) {
  FlockParams params;
  // Near the predator at (50, 50); across the torus edge from one at (1, 50); out of reach.
  const FlockState start = make_state({{52.0, 50.0, 0.0, 0.5},
                                       {50.0, 47.0, 0.3, 0.0},
                                       {99.0, 50.0, 0.0, -0.5},
                                       {70.0, 50.0, 0.5, 0.0}});
  const auto sim = make(start, params);
  viewer_access(*sim).apply_predator({50, 50, 10, 1});
  FlockState got = sim->state();
  viewer_access(*sim).apply_predator({1, 50, 10, 1});
  SimulationConfig config;
  config.backend = Backend::kReference;
  config.method = Method::kNaive;
  config.precision = Precision::kDouble;
  config.params = params;
  const auto reference = make_simulation(config, as_stored(start));
  viewer_access(*reference).apply_predator({50, 50, 10, 1});
  const FlockState expected = reference->state();
  EXPECT_GT(got.vx[0], 0.0);  // pushed towards +x
  EXPECT_LT(got.vy[1], 0.0);  // pushed towards -y
  EXPECT_EQ(got.vx[3], 0.5);  // out of reach: unchanged
  EXPECT_TRUE(close_to(got, expected, is_double() ? 0.0 : 1e-6));
  viewer_access(*reference).apply_predator({1, 50, 10, 1});
  got = sim->state();
  EXPECT_LT(got.vx[2], 0.0);  // across the edge: pushed towards -x
  EXPECT_TRUE(close_to(got, reference->state(), is_double() ? 0.0 : 1e-6));
}

// The state as 4-float tuples, sorted: render data is in the backend's own order.
std::vector<std::array<float, 4>> sorted_tuples(const float* data, std::size_t count) {
  std::vector<std::array<float, 4>> tuples(count);
  for (std::size_t i = 0; i < count; ++i) {
    tuples[i] = {data[4 * i], data[4 * i + 1], data[4 * i + 2], data[4 * i + 3]};
  }
  std::sort(tuples.begin(), tuples.end());
  return tuples;
}

TEST_P(EngineTest, RenderDataIsTheStateAsFloats) {
  const ValidationFlock& f = flock_named("flocked");
  const auto sim = make(f.state, f.params);
  sim->step(3);
  const FlockState s = sim->state();
  std::vector<float> expected(4 * s.size());
  for (std::size_t i = 0; i < s.size(); ++i) {
    expected[4 * i] = static_cast<float>(s.x[i]);
    expected[4 * i + 1] = static_cast<float>(s.y[i]);
    expected[4 * i + 2] = static_cast<float>(s.vx[i]);
    expected[4 * i + 3] = static_cast<float>(s.vy[i]);
  }
  std::vector<float> got(4 * s.size(), -1.0f);
  viewer_access(*sim).copy_render_data(got.data());
  EXPECT_EQ(sorted_tuples(got.data(), s.size()), sorted_tuples(expected.data(), s.size()));
#if defined(BOIDS_HAVE_CUDA)
  if (GetParam().backend == Backend::kCuda) {
    // The interop path: the backend's kernel on the caller's stream, into device memory.
    float* device = nullptr;
    cudaStream_t stream = nullptr;
    ASSERT_EQ(cudaMalloc(&device, got.size() * sizeof(float)), cudaSuccess);
    ASSERT_EQ(cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking), cudaSuccess);
    sim->step(1);  // queued work the copy must wait for
    std::fill(got.begin(), got.end(), -1.0f);
    EXPECT_TRUE(viewer_access(*sim).copy_render_data_to_device(device, stream));
    EXPECT_EQ(cudaMemcpyAsync(got.data(), device, got.size() * sizeof(float),
                              cudaMemcpyDeviceToHost, stream),
              cudaSuccess);
    EXPECT_EQ(cudaStreamSynchronize(stream), cudaSuccess);
    std::vector<float> host(got.size());
    viewer_access(*sim).copy_render_data(host.data());
    EXPECT_EQ(got, host);
    cudaStreamDestroy(stream);
    cudaFree(device);
  }
#endif
  if (GetParam().backend != Backend::kCuda) {
    EXPECT_FALSE(viewer_access(*sim).copy_render_data_to_device(got.data(), nullptr));
  }
}

// The largest finite velocity component each precision holds beside one whose square
// overflows: 1e200 in double, 1e30 in float.
TEST_P(EngineTest, VelocityWhoseSquareOverflowsIsClampedAlongIt) {
  const double huge = is_double() ? 1e200 : 1e30;
  for (const Model model : {Model::kBoids, Model::kSteering, Model::kVicsek}) {
    SCOPED_TRACE(to_string(model));
    FlockParams params;
    params.model = model;
    const FlockState start =
        make_state({{50, 50, 3 * huge, -4 * huge}, {20, 80, -huge, 0}, {80, 20, 0, 0}});
    const FlockState after = run(start, params, 1);
    EXPECT_NEAR(after.vx[0], 0.6, 1e-6);  // speed v_max (V), direction kept
    EXPECT_NEAR(after.vy[0], -0.8, 1e-6);
    EXPECT_NEAR(after.vx[1], -1.0, 1e-6);
    EXPECT_EQ(after.vy[1], 0.0);
    for (std::size_t i = 0; i < after.size(); ++i) {
      EXPECT_TRUE(after.x[i] >= 0 && after.x[i] < 100 && after.y[i] >= 0 && after.y[i] < 100);
      EXPECT_TRUE(std::isfinite(after.vx[i]) && std::isfinite(after.vy[i]));
    }
    if (model == Model::kBoids) {
      expect_matches_reference("huge-velocity", params, as_stored(start));
    }
  }
}

// A velocity whose square underflows has speed 0, which keeps it, as the published step does; a
// boid at 0 moving back by it wraps to L, which is 0 on the torus. Both stay in the world, finite.
TEST_P(EngineTest, VelocityWhoseSquareUnderflowsKeepsItAndTheBoidInTheWorld) {
  const double tiny = is_double() ? 1e-170 : 1e-30;
  const FlockState start = make_state({{0, 40, -tiny, 0}, {60, 0, 0, -tiny}});
  FlockParams params;
  const FlockState after = run(start, params, 3);
  EXPECT_TRUE(bit_identical(after, as_stored(make_state({{0, 40, -tiny, 0}, {60, 0, 0, -tiny}}))));
  // The reference squares in double, where 1e-30 does not underflow.
  if (is_double()) expect_matches_reference("tiny-velocity", params, start);
}

// Positions always end in [0, L): a boid just below 0 after a move wraps to x + L, which may
// round to L itself (0 on the torus), and one whose double position rounds up to L in float.
TEST_P(EngineTest, PositionsEndInsideTheWorld) {
  const double below_l = std::nextafter(100.0, 0.0);
  const float step = is_double() ? 0x1.0p-60f : 0x1.0p-30f;
  FlockParams params;
  params.separation = params.alignment = params.cohesion = 0;
  for (const Model model : test_support::every_model()) {
    SCOPED_TRACE(to_string(model));
    params.model = model;
    settle_model(params);
    params.max_speed = spec_of(model).constant_speed ? step : 1.0;
    const FlockState start = make_state(
        {{0, 40, -step, 0}, {40, 0, 0, -step}, {below_l, 30, 0, 0}, {30, below_l, 0, 0}});
    const auto sim = make(start, params);
    for (int k = 0; k < 3; ++k) {
      sim->step(1);
      const FlockState s = sim->state();
      for (std::size_t i = 0; i < s.size(); ++i) {
        EXPECT_TRUE(s.x[i] >= 0 && s.x[i] < 100) << "boid " << i << " x " << s.x[i];
        EXPECT_TRUE(s.y[i] >= 0 && s.y[i] < 100) << "boid " << i << " y " << s.y[i];
      }
    }
  }
}

// A flock under float near the ranges boids accepts (value_limits.h): a world of 1e9 and
// speeds near it, a radius of 1e-9 beside it, the largest weights: every number stays finite
// and every boid in the world, and the metrics are finite.
TEST_P(EngineTest, FlockNearTheBoundsStaysFinite) {
  FlockParams params;
  params.world = test_support::square(1e9);
  params.max_speed = 9e8;
  params.separation = params.alignment = params.cohesion = 1e6;
  FlockState start = test_support::random_state(300, 1e9, 3, 1e3, 5);
  for (std::size_t i = 0; i < start.size(); ++i) {
    start.vx[i] *= 1e20;
    start.vy[i] *= 1e20;
  }
  start.x[0] = 0, start.y[0] = 5, start.x[1] = 1e-20, start.y[1] = 5;  // closer than float sees
  for (const double radius : {1e-9, 1e4, 1e9}) {
    SCOPED_TRACE(radius);
    params.radius = radius;
    const auto sim = make(start, params);
    sim->step(3);
    const FlockState s = sim->state();
    for (std::size_t i = 0; i < s.size(); ++i) {
      ASSERT_TRUE(std::isfinite(s.vx[i]) && std::isfinite(s.vy[i])) << "boid " << i;
      ASSERT_TRUE(s.x[i] >= 0 && s.x[i] < 1e9 && s.y[i] >= 0 && s.y[i] < 1e9) << "boid " << i;
    }
    const FlockMetrics m = sim->metrics();
    EXPECT_TRUE(std::isfinite(m.mean_nn_distance));
    EXPECT_TRUE(std::isfinite(m.polarization));
    EXPECT_TRUE(std::isfinite(m.order));
  }
}

// A spread-out flock in the largest world each precision accepts: the mean nearest-neighbour
// distance is finite, and about the world's side for two boids half a world apart.
TEST_P(EngineTest, MeanNearestNeighborDistanceIsFiniteInTheLargestWorld) {
  const double side = is_double() ? 1e60 : 1e9;
  FlockParams params;
  params.world = test_support::square(side);
  params.radius = side / 1e3;
  const FlockState start = make_state({{0, 0, 1, 0}, {side / 2, side / 2, 0, 1}});
  const FlockMetrics m = make(start, params)->metrics();
  EXPECT_NEAR(m.mean_nn_distance, side / std::sqrt(2.0), 1e-5 * side);
}

TEST_P(EngineTest, CoincidentBoids) {
  FlockParams params;
  const FlockState s = make_state({{50.0, 50.0, 0.5, 0.5},
                                   {50.0, 50.0, -0.7, 0.1},
                                   {50.0, 50.0, 0.0, 0.9},
                                   {0.0, 0.0, 0.6, 0.0},
                                   {0.0, 0.0, 0.6, 0.0},
                                   {52.0, 49.0, 0.3, -0.8}});
  expect_matches_reference("coincident", params, s);
  const FlockState after = run(s, params, 5);
  for (std::size_t i = 0; i < after.size(); ++i) {
    EXPECT_TRUE(std::isfinite(after.x[i]) && std::isfinite(after.y[i]) &&
                std::isfinite(after.vx[i]) && std::isfinite(after.vy[i]))
        << "boid " << i;
  }
}

TEST_P(EngineTest, BoidsAcrossTheTorusEdges) {
  FlockParams params;
  // Neighbours only through the edges: across x, across y, and across the corner.
  const FlockState s = make_state({{0.5, 50.0, -0.9, 0.2},
                                   {99.2, 51.0, 0.4, 0.7},
                                   {30.0, 99.7, 0.1, 0.9},
                                   {31.5, 0.4, -0.6, -0.5},
                                   {0.2, 0.3, -0.5, -0.5},
                                   {99.6, 99.9, 0.7, 0.2},
                                   {99.95, 0.01, 0.2, -0.9}});
  expect_matches_reference("torus-edges", params, s);
  // Not vacuous: the reference does steer these boids through the edges.
  FlockState alone = s;
  alone.resize(1);
  EXPECT_NE(reference_state(s, params, 1).vx[0], reference_state(alone, params, 1).vx[0]);
}

TEST_P(EngineTest, TinyWorlds) {
  for (const double radius : {6.0, 4.0}) {  // world 10: 1 and 2 cells per axis
    FlockParams params;
    params.world = test_support::square(10.0);
    params.radius = radius;
    params.max_speed = 0.3;
    expect_matches_reference("tiny-r" + std::to_string(radius), params,
                             make_initial_state(60, 7, params));
  }
}

TEST_P(EngineTest, LargeRadius) {
  for (const double radius :
       {50.0, 75.0, 1000.0}) {  // every wrapped offset is within r for 75 and 1000
    FlockParams params;
    params.radius = radius;
    expect_matches_reference("large-r" + std::to_string(radius), params,
                             make_initial_state(150, 8, params));
  }
}

TEST_P(EngineTest, NeighborsWhereRoundingMeetsACellBorder) {
  // 5.199999999999999 and 6.499999999999999 are 1.2999999999999998 apart in double, closer
  // than r = 1.3. On a grid of cells exactly r wide (world 13, 10 cells) they round into
  // columns 3 and 5, and on each side of a row border, so no 3x3 block (nor a CPU block's
  // span of a row) would hold both. The grid's rounding margin keeps them in neighbouring
  // cells. 98 boids far below them (y < 3.9) give the flock enough boids for 10 cells.
  FlockParams params;
  params.world = test_support::square(13.0);
  params.radius = 1.3;
  params.max_speed = 0.01;
  FlockState s = make_state({{5.199999999999999, 6.5 - 1e-12, 0.005, 0.001},
                             {6.499999999999999, 6.5 + 1e-12, -0.005, 0.001}});
  for (int i = 0; i < 98; ++i) {
    s.x.push_back(std::fmod(0.137 * i, 13.0));
    s.y.push_back(std::fmod(0.731 * i, 3.9));
    s.vx.push_back(0.006);
    s.vy.push_back(-0.002);
  }
  expect_matches_reference("rounding-at-a-border", params, s);
  FlockState alone = s;
  alone.x[1] = alone.y[1] = 9.0;  // boid 1 moved out of boid 0's reach
  EXPECT_NE(reference_state(s, params, 1).vx[0], reference_state(alone, params, 1).vx[0]);
}

TEST_P(EngineTest, MetricsAgreeWithTheHostMetrics) {
  // The backend's own metrics (its cell index, ring search, union-find and neighbour counts)
  // against host/metrics/metrics.cpp on the state as the backend stores it: uniform, sparse and
  // clumped flocks, and a grid of one cell.
  struct Case {
    std::string name;
    double world, radius;
    FlockState state;
    bool several_flocks;  // a check that the case is not trivial
  };
  const std::vector<Case> cases = {
      {"uniform", 500, 10, test_support::random_state(3000, 500, 0, 0, 21), true},
      {"sparse", 3000, 10, test_support::random_state(1500, 3000, 0, 0, 22), true},
      {"clumped", 1000, 10, test_support::random_state(2000, 1000, 8, 8, 23), true},
      {"one cell", 100, 60, test_support::random_state(300, 100, 0, 0, 24), false},
  };
  const double tolerance = is_double() ? 1e-12 : 1e-6;
  for (const Case& c : cases) {
    FlockParams params;
    params.world = test_support::square(c.world);
    params.radius = c.radius;
    const auto sim = make(c.state, params);
    for (int round = 0; round < 2; ++round) {
      const FlockMetrics got = sim->metrics();
      const FlockMetrics expected =
          measure_flock(round == 0 ? as_stored(c.state) : sim->state(), params);
      const std::string what = c.name + (round == 0 ? " at the start" : " after 5 steps");
      EXPECT_EQ(got.flocks, expected.flocks) << what;
      EXPECT_EQ(got.largest_flock, expected.largest_flock) << what;
      EXPECT_EQ(got.mean_neighbors, expected.mean_neighbors) << what;
      EXPECT_NEAR(got.polarization, expected.polarization, tolerance) << what;
      EXPECT_NEAR(got.milling, expected.milling, tolerance) << what;
      EXPECT_NEAR(got.mean_nn_distance, expected.mean_nn_distance,
                  tolerance * expected.mean_nn_distance)
          << what;
      if (c.several_flocks) {
        EXPECT_GT(expected.flocks, 1u) << what;
      }
      sim->step(5);
    }
  }
}

TEST_P(EngineTest, MillingAgreesWithTheHost) {
  // A mill about the torus's corner (its centre found across the edges) and one between walls,
  // each a ring of boids heading along it, a little disordered: the backend's two passes
  // (centre, then turning) against the host's.
  const double tolerance = is_double() ? 1e-12 : 1e-6;
  for (const bool torus : {true, false}) {
    FlockParams params;
    params.world = test_support::square(200);
    if (!torus) params.world.boundary = Boundary::kWalls;
    const double centre = torus ? 0 : 100;
    FlockState s;
    for (int i = 0; i < 400; ++i) {
      const double a = 0.0157 * i, r = 20 + std::fmod(7.3 * i, 9.0);
      s.x.push_back(std::fmod(centre + r * std::cos(a) + 200, 200));
      s.y.push_back(std::fmod(centre + r * std::sin(a) + 200, 200));
      s.vx.push_back(-std::sin(a + 0.1 * std::sin(3.1 * i)));
      s.vy.push_back(std::cos(a + 0.1 * std::sin(3.1 * i)));
    }
    const auto sim = make(s, params);
    const FlockMetrics got = sim->metrics(), expected = measure_flock(as_stored(s), params);
    EXPECT_GT(expected.milling, 0.9) << (torus ? "torus" : "walls");
    EXPECT_NEAR(got.milling, expected.milling, tolerance) << (torus ? "torus" : "walls");
  }
}

TEST_P(EngineTest, ValidationFlagsAWrongResult) {
  // The checker must be able to fail: the reference run with other weights is not a match.
  const ValidationFlock& f = flock_named("random");
  FlockParams wrong = f.params;
  wrong.alignment = 0.5;
  wrong.cohesion = 1.5;
  const ValidationTolerance t = tolerance();
  const ValidationCase c =
      compare_with_expected(GetParam().backend, GetParam().method, GetParam().precision, f,
                            reference_state(f.state, wrong, t.steps), t);
  EXPECT_FALSE(c.pass) << describe(c);
  EXPECT_GT(c.max_velocity_error, t.max_error);
}

TEST_P(EngineTest, NeighborAtTheRadiusDecidedByRounding) {
  // Boids 0 and 1 are 10 - 1e-7 apart: neighbours in double, but in float boid 1's x rounds
  // to 60 and they are exactly r apart, so not neighbours. Rounding explains that: the check
  // allows it in float (and leaves the two out of the error maxima), and sees none in double.
  FlockParams params;
  const FlockState s =
      make_state({{50.0, 50.0, 0.5, 0.5}, {60.0 - 1e-7, 50.0, -0.7, 0.1}, {20.0, 20.0, 0.3, -0.8}});
  const NeighborCheck check = check_neighbors(s, params, GetParam().precision);
  EXPECT_EQ(check.unexplained_boids, 0u);
  EXPECT_EQ(check.neighbor_mismatches, is_double() ? 0u : 2u);
  EXPECT_EQ(check.rounding_boids, is_double() ? 0u : 2u);
  const ValidationCase c = compare({"at-the-radius", params, s});
  EXPECT_TRUE(c.pass) << describe(c);
  EXPECT_EQ(c.rounding_boids, is_double() ? 0u : 2u);
}

TEST_P(EngineTest, NeighborCheckFindsNoUnexplainedMismatch) {
  for (const ValidationFlock& f : flocks()) {
    const NeighborCheck check = check_neighbors(f.state, f.params, GetParam().precision);
    EXPECT_EQ(check.unexplained_boids, 0u) << f.name;
    if (is_double()) {
      EXPECT_EQ(check.neighbor_mismatches, 0u) << f.name;
    }
  }
}

INSTANTIATE_TEST_SUITE_P(engine, EngineTest, every_engine_case(), engine_case_name);

// Backend-level tests: the whole validation as `boids validate` runs it, and the command.
struct BackendCase {
  Backend backend;
};

void PrintTo(const BackendCase& c, std::ostream* out) {
  *out << to_string(c.backend);
}

std::string backend_name(const testing::TestParamInfo<BackendCase>& param_info) {
  return to_string(param_info.param.backend);
}

class ValidationReportTest : public testing::TestWithParam<BackendCase> {
 protected:
  bool usable() const { return GetParam().backend != Backend::kCuda || cuda_availability().usable; }
};

TEST_P(ValidationReportTest, EveryCasePasses) {
  if (!usable()) GTEST_SKIP() << "cuda backend not usable: " << cuda_availability().reason;
  const ValidationReport report = validate_backend(GetParam().backend);
  // 2 methods x 2 precisions x (4 flocks + 20 variants)
  // Every method and precision on the standard flocks and every variant of the catalogue.
  EXPECT_EQ(report.cases.size(), 4 * (validation_flocks().size() + variant_catalogue().size()));
  for (const ValidationCase& c : report.cases) EXPECT_TRUE(c.pass) << describe(c);
  EXPECT_TRUE(report.pass());
}

TEST_P(ValidationReportTest, FlockedStateIsDenserThanRandom) {
  // The flocked state is there for its dense neighbourhoods; make sure it has them.
  EXPECT_GT(mean_neighbors(flock_named("flocked")), 2 * mean_neighbors(flock_named("random")))
      << mean_neighbors(flock_named("flocked")) << " vs " << mean_neighbors(flock_named("random"));
}

// `boids validate` itself: exit codes and what it prints.
struct CommandResult {
  int exit_code = -1;
  std::string out;
};

CommandResult run_boids(const std::string& arguments) {
  CommandResult result;
  const std::string command = boids::test_support::boids_executable() + " " + arguments + " 2>&1";
  FILE* pipe = popen(command.c_str(), "r");
  if (!pipe) return result;
  char buffer[4096];
  std::size_t read = 0;
  while ((read = std::fread(buffer, 1, sizeof buffer, pipe)) > 0) result.out.append(buffer, read);
  const int status = pclose(pipe);
  result.exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  return result;
}

TEST_P(ValidationReportTest, CommandPrintsATableAndPasses) {
  if (!usable()) GTEST_SKIP() << "cuda backend not usable: " << cuda_availability().reason;
  const CommandResult r = run_boids("validate --backend " + to_string(GetParam().backend));
  EXPECT_EQ(r.exit_code, 0) << r.out;
  EXPECT_NE(r.out.find("hashed  float"), std::string::npos) << r.out;
  const std::size_t cases = 4 * (validation_flocks().size() + variant_catalogue().size());
  EXPECT_NE(r.out.find("PASS: all " + std::to_string(cases) + " cases"), std::string::npos)
      << r.out;
}

TEST_P(ValidationReportTest, CommandJsonReportsEveryCase) {
  if (!usable()) GTEST_SKIP() << "cuda backend not usable: " << cuda_availability().reason;
  const CommandResult r = run_boids("validate --json --backend " + to_string(GetParam().backend));
  EXPECT_EQ(r.exit_code, 0) << r.out;
  EXPECT_NE(r.out.find("\"pass\": true"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("\"max_position_error\""), std::string::npos) << r.out;
}

// `boids validate --dimensions 3`: the same cases in a box, against the 3D reference.
TEST_P(ValidationReportTest, EveryCasePassesInThreeDimensions) {
  if (!usable()) GTEST_SKIP() << "cuda backend not usable: " << cuda_availability().reason;
  const ValidationReport report = validate_backend(GetParam().backend, 3);
  // 2 methods x 2 precisions x (4 flocks + 19 variants)
  EXPECT_EQ(report.cases.size(), 4 * (validation_flocks(3).size() + variant_catalogue().size()));
  EXPECT_EQ(report.dimensions, 3);
  for (const ValidationCase& c : report.cases) EXPECT_TRUE(c.pass) << describe(c);
  EXPECT_TRUE(report.pass());
  const CommandResult r =
      run_boids("validate --dimensions 3 --json --backend " + to_string(GetParam().backend));
  EXPECT_EQ(r.exit_code, 0) << r.out;
  EXPECT_NE(r.out.find("\"dimensions\": 3"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("\"pass\": true"), std::string::npos) << r.out;
}

TEST_P(ValidationReportTest, CommandRefusesABackendThatCannotRun) {
  if (usable()) GTEST_SKIP() << to_string(GetParam().backend) << " can run here";
  const CommandResult r = run_boids("validate --backend " + to_string(GetParam().backend));
  EXPECT_EQ(r.exit_code, 1) << r.out;
  EXPECT_EQ(r.out.rfind("boids: error: ", 0), 0u) << r.out;
  EXPECT_EQ(r.out.find("PASS"), std::string::npos) << r.out;
}

TEST_P(ValidationReportTest, CommandBadOptionsAreInputErrors) {
  for (const char* arguments :
       {"validate --backend gpu", "validate --backend reference", "validate --steps 3",
        "validate extra", "validate --json=1", "validate --backend", "validate --dimensions 4"}) {
    const CommandResult r = run_boids(arguments);
    EXPECT_EQ(r.exit_code, 2) << arguments << ": " << r.out;
    EXPECT_EQ(r.out.rfind("boids: error: ", 0), 0u) << arguments << ": " << r.out;
  }
}

INSTANTIATE_TEST_SUITE_P(engine, ValidationReportTest,
                         testing::Values(BackendCase{Backend::kCpu}, BackendCase{Backend::kCuda}),
                         backend_name);

}  // namespace
}  // namespace boids
