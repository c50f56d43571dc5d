// Topological neighbours (--nearest K) on every backend: a boid heeds its K nearest however far,
// and ties go to the lower index whatever order the candidates come in; each flight is the
// reference's bit for bit where the arithmetic is the reference's (naive double), and the
// hashed method's is the naive method's bit for bit in either precision (the same set, added in
// the same order); the metrics count K neighbours a boid.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <memory>
#include <random>

#include "host/core/simulation.h"
#include "host/core/value_limits.h"
#include "host/model/initial_state.h"
#include "kernels/cell_grid.h"
#include "tests/support/test_support.h"

namespace boids {
namespace {

using test_support::bit_identical;
using test_support::box;
using test_support::engine_case_name;
using test_support::every_engine_case;
using test_support::make_state;

using NearestTest = test_support::EngineCaseTest;

// Alignment alone: a boid's change of velocity is 0.05 times the mean of its neighbours'
// velocities less its own.
FlockParams alignment_only() {
  FlockParams p;
  p.separation = 0;
  p.cohesion = 0;
  return p;
}

TEST_P(NearestTest, ABoidHeedsItsNearestHoweverFar) {
  FlockParams p = alignment_only();
  // B is 40 away, far outside r = 10, heading across A's course.
  const FlockState s = make_state({{50, 50, 0.7, 0}, {50, 90, 0, 0.7}});
  EXPECT_EQ(after(s, p, 1).vy[0], 0.0);  // within the radius alone, A sees nobody
  p.nearest = 1;
  const FlockState heeding = after(s, p, 1);
  EXPECT_NEAR(heeding.vx[0], 0.7 - 0.035, 1e-6);  // 0.05 (vB - vA)
  EXPECT_NEAR(heeding.vy[0], 0.035, 1e-6);
}

// In open space a boid searches a few rings of cells around its own, then every boid: its
// nearest 200 away (20 cells) is still the one it heeds.
TEST_P(NearestTest, InOpenSpaceABoidHeedsItsNearestBeyondTheRings) {
  FlockParams p = alignment_only();
  p.world.boundary = Boundary::kOpen;
  p.nearest = 1;
  const FlockState s = make_state({{50, 50, 0.7, 0}, {50, 250, 0, 0.7}, {-300, 50, 0, -0.7}});
  const FlockState heeding = after(s, p, 1);
  EXPECT_NEAR(heeding.vx[0], 0.7 - 0.035, 1e-6);  // 0.05 (vB - vA)
  EXPECT_NEAR(heeding.vy[0], 0.035, 1e-6);
}

TEST_P(NearestTest, TiesGoToTheLowerIndexWhateverOrderTheCellsHoldThem) {
  FlockParams p = alignment_only();
  p.nearest = 2;
  // Four boids 5 from A, listed so that the cells' order is not theirs: west, north, east,
  // south. A heeds the first two; without the other two it flies the same.
  const FlockState four = make_state({{50, 50, 0.7, 0},
                                      {45, 50, 0, 0.7},
                                      {50, 55, 0.7, 0.3},
                                      {55, 50, 0, -0.7},
                                      {50, 45, -0.5, 0.5}});
  const FlockState two = make_state({{50, 50, 0.7, 0}, {45, 50, 0, 0.7}, {50, 55, 0.7, 0.3}});
  const FlockState with_four = after(four, p, 1), with_two = after(two, p, 1);
  EXPECT_EQ(with_four.vx[0], with_two.vx[0]);
  EXPECT_EQ(with_four.vy[0], with_two.vy[0]);
  EXPECT_GT(with_four.vy[0], 0.0);  // heeding the south and east boids would turn it down
}

TEST_P(NearestTest, TheMetricsCountKNeighborsABoid) {
  FlockParams p;
  p.nearest = 7;
  const auto sim = make(make_initial_state(200, 5, p), p);
  EXPECT_EQ(sim->metrics().mean_neighbors, 7.0);
  p.nearest = 10;
  const auto few = make(make_initial_state(5, 5, p), p);
  EXPECT_EQ(few->metrics().mean_neighbors, 4.0);  // n - 1
}

// The flights of 2D and 3D worlds, torus, walls and open space, with a field of view, under
// every model.
TEST_P(NearestTest, EachFlightIsTheReferencesAndTheNaiveMethods) {
  struct World {
    const char* name;
    FlockParams params;
  };
  const FlockParams walls_3d = test_support::steering_between_walls(box(60));
  FlockParams vicsek;
  vicsek.model = Model::kVicsek;
  vicsek.radius = 4;
  vicsek.max_speed = 0.5;
  vicsek.noise = 0.5;
  FlockParams walls_2d;
  walls_2d.world.boundary = Boundary::kWalls;
  // Open space's sparse 3D flock spans tiles that share its table's one slot, whose cells the
  // rings around a boid meet twice; the thin one lies in one tile, whose empty neighbours'
  // cells (keyed by its slot, their home) the rings meet beside its own.
  FlockParams open_2d, open_3d = box(60), open_sparse = box(250), open_thin = box(70);
  open_2d.world.boundary = open_3d.world.boundary = Boundary::kOpen;
  open_sparse.world.boundary = open_thin.world.boundary = Boundary::kOpen;
  open_thin.world.width = 1000;
  const World worlds[] = {{"torus 2D", FlockParams{}}, {"walls 2D", walls_2d},
                          {"torus 3D", box(60)},       {"steering, walls 3D", walls_3d},
                          {"vicsek", vicsek},          {"open 2D", open_2d},
                          {"open 3D", open_3d},        {"open 3D, sparse", open_sparse},
                          {"open 3D, thin", open_thin}};
  for (const World& w : worlds) {
    SCOPED_TRACE(w.name);
    FlockParams p = w.params;
    p.nearest = 7;
    p.fov = 300;
    const FlockState start = make_initial_state(300, 11, p);
    const FlockState mine = after(start, p, 25);
    if (GetParam().method == Method::kHashed) {
      EXPECT_TRUE(bit_identical(mine, after(start, p, 25, Method::kNaive)));
    }
    const auto reference =
        make_simulation({Backend::kReference, Method::kNaive, Precision::kDouble, p}, start);
    if (GetParam().precision == Precision::kDouble) {
      reference->step(25);
      EXPECT_TRUE(bit_identical(mine, reference->state()));
    } else {  // one step: float's rounding, not yet grown by the flight
      reference->step(1);
      const FlockState one = after(start, p, 1), exact = reference->state();
      const double side = p.world.width;
      for (std::size_t i = 0; i < one.size(); ++i) {
        const double gap = std::abs(one.x[i] - exact.x[i]);
        ASSERT_LT(std::min(gap, side - gap), side * 1e-6) << "boid " << i;
        ASSERT_NEAR(one.vx[i], exact.vx[i], p.max_speed * 1e-5) << "boid " << i;
        ASSERT_NEAR(one.vy[i], exact.vy[i], p.max_speed * 1e-5) << "boid " << i;
      }
    }
  }
}

// Open space's table of many slots, with tiles away from their homes: a flock drawn in a long,
// thin box lays more tiles along x than the homes' grid wraps around, so some take other
// slots. Each step must key its boids, and find their cells, by the table planned for where
// they are, the tiles of the last step's move counted again.
TEST_P(NearestTest, InOpenSpaceTilesAwayFromHomeAreFoundEveryStep) {
  if (GetParam().method != Method::kHashed) GTEST_SKIP() << "the hashed method's table";
  FlockParams p = box(40);
  p.world.width = 5000;
  p.world.boundary = Boundary::kOpen;
  p.nearest = 7;
  const FlockState start = make_initial_state(8000, 3, p);
  EXPECT_TRUE(bit_identical(after(start, p, 4), after(start, p, 4, Method::kNaive)));
}

// Groups a period of open space's homes apart, more than the table's slots: the tiles the
// planning leaves without a slot of their own share slots hashed from them (more than eight
// tiles have that home), where each step must still find every boid's nearest. 20 groups of
// 500 boids, each within one tile, 256 cells apart along x: a table of 8 slots, whose homes
// repeat every 2 chunks of 128 cells.
TEST_P(NearestTest, InOpenSpaceGroupsAPeriodApartAreFoundEveryStep) {
  if (GetParam().method != Method::kHashed) GTEST_SKIP() << "the hashed method's table";
  FlockParams p = alignment_only();
  p.world.boundary = Boundary::kOpen;
  p.nearest = 7;
  constexpr int kGroups = 20, kEach = 500;
  const double reach = open_reach(GetParam().precision, p.radius);
  const auto cell_of = [&](auto grid) {
    EXPECT_EQ(grid.open_slots(), 8u);
    return 1.0 / static_cast<double>(grid.per_unit[0]);
  };
  const double cell =
      GetParam().precision == Precision::kFloat
          ? cell_of(kernels::make_open_grid<float, 2>(p.radius, reach, kGroups * kEach))
          : cell_of(kernels::make_open_grid<double, 2>(p.radius, reach, kGroups * kEach));
  std::mt19937_64 rng(3);
  std::uniform_real_distribution<double> u(0.0, 15.0), v(-1.0, 1.0);
  FlockState s;
  s.dimensions = 2;
  for (int group = 0; group < kGroups; ++group) {
    for (int k = 0; k < kEach; ++k) {
      s.x.push_back((256.0 * group + 40.0 + u(rng)) * cell);
      s.y.push_back((8.0 + u(rng)) * cell);
      s.vx.push_back(v(rng));
      s.vy.push_back(v(rng));
    }
  }
  EXPECT_TRUE(bit_identical(after(s, p, 3), after(s, p, 3, Method::kNaive)));
}

INSTANTIATE_TEST_SUITE_P(nearest, NearestTest, every_engine_case(), engine_case_name);

}  // namespace
}  // namespace boids
