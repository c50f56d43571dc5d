// Open space (--boundary open): the table of cells that unbounded space hashes to finds every
// neighbour whatever collides; boids fly past the start's region; a flock split far apart
// steps as a compact one does, in the same memory; and the precision's reach is refused, the
// flock kept whole. Each model in open space against the reference is the variants'
// (host/model/variants.cpp: open, steering-open-wander, vicsek-open, couzin-open), flown on
// every backend by test_engine.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <random>
#include <set>
#include <string>
#include <vector>

#include "host/base/errors.h"
#include "host/core/value_limits.h"
#include "host/model/initial_state.h"
#include "kernels/cell_grid.h"
#include "tests/support/test_support.h"

namespace boids {
namespace {

using kernels::index_t;
using test_support::EngineCaseTest;

// Boids in two clumps, the second `apart` along x (and a third of that along y), each of
// `per_clump` boids spread over `spread`, in D dimensions, moving at up to v.
FlockState two_clumps(std::size_t per_clump, double spread, double apart, int d,
                      std::uint64_t seed) {
  std::mt19937_64 rng(seed);
  std::uniform_real_distribution<double> u(0, spread), v(-1, 1);
  FlockState s;
  s.dimensions = d;
  for (std::size_t i = 0; i < 2 * per_clump; ++i) {
    const double shift = i < per_clump ? 0.0 : apart;
    s.x.push_back(u(rng) + shift);
    s.y.push_back(u(rng) - (i < per_clump ? 0.0 : apart / 3));
    s.vx.push_back(v(rng));
    s.vy.push_back(v(rng));
    if (d == 3) {
      s.z.push_back(u(rng) + shift / 7);
      s.vz.push_back(v(rng));
    }
  }
  return s;
}

// Every boid within r of a boid lies in the runs of its block, and no key comes twice, on a
// table so small that every chunk collides with many others.
template <int D>
void check_block_runs(const kernels::CellGrid<double, D>& grid, const FlockState& s, double r) {
  const auto at = [&](std::size_t i) {
    std::array<double, D> x{};
    x[0] = s.x[i];
    x[1] = s.y[i];
    if constexpr (D == 3) x[2] = s.z[i];
    return x;
  };
  for (std::size_t i = 0; i < s.size(); ++i) {
    double xi[D];
    for (int a = 0; a < D; ++a) xi[a] = at(i)[a];
    std::vector<std::pair<index_t, index_t>> runs;
    grid.for_each_block_run(xi, [&](index_t first, index_t last) {
      runs.push_back({first, last});
    });
    for (std::size_t k = 1; k < runs.size(); ++k) {
      ASSERT_LT(runs[k - 1].second, runs[k].first) << "runs overlap or are out of order";
    }
    for (std::size_t j = 0; j < s.size(); ++j) {
      double xj[D], d2 = 0;
      for (int a = 0; a < D; ++a) {
        xj[a] = at(j)[a];
        d2 += (xj[a] - xi[a]) * (xj[a] - xi[a]);
      }
      if (d2 >= r * r) continue;
      const index_t key = grid.key(xj);
      const bool found = std::any_of(runs.begin(), runs.end(), [&](const auto& run) {
        return key >= run.first && key <= run.second;
      });
      ASSERT_TRUE(found) << "boid " << j << " lies within r of boid " << i
                         << " but outside its block's runs";
    }
  }
}

TEST(OpenGrid, FindsEveryNeighbourThroughCollisions) {
  for (const index_t lines : {index_t{1}, index_t{2}, index_t{8}}) {
    auto grid2 = kernels::make_open_grid<double, 2>(1.0, 1e5, 10);
    grid2.counts[1] = lines;  // every chunk on a few lines of the table
    check_block_runs(grid2, two_clumps(150, 12.0, 4000.0, 2, 7 + lines), 1.0);
    auto grid3 = kernels::make_open_grid<double, 3>(1.0, 1e5, 10);
    grid3.counts[1] = lines;
    check_block_runs(grid3, two_clumps(150, 6.0, 3000.0, 3, 11 + lines), 1.0);
  }
}

TEST(OpenGrid, TableGrowsWithTheFlockNotItsExtent) {
  const auto small = kernels::make_open_grid<float, 2>(1.0, 1e4, 1000);
  const auto large = kernels::make_open_grid<float, 2>(1.0, 1e4, 1000000);
  EXPECT_GE(small.cells(), 2000u);
  EXPECT_LE(small.cells(), 4096u);
  EXPECT_GE(large.cells(), 2000000u);
  EXPECT_LE(large.cells(), 4194304u);
  // Negative and far coordinates key inside the table.
  const float far[2] = {-12345.5f, 9876.25f};
  EXPECT_LT(large.key(far), large.cells());
}

class OpenSpaceTest : public EngineCaseTest {};

// Open space is no torus and no box: a boid heading out of the start's region leaves it.
TEST_P(OpenSpaceTest, BoidsFlyPastTheRegionOfTheirStart) {
  FlockParams p;
  p.world = World{50, 50, Boundary::kOpen};
  const FlockState start = test_support::make_state({{49.5, 25, 1, 0}, {0.5, 40, -1, 0.2}});
  const FlockState end = after(start, p, 30);
  EXPECT_GT(end.x[0], 60.0);
  EXPECT_LT(end.x[1], -10.0);
  p.world.boundary = Boundary::kTorus;
  const FlockState wrapped = after(start, p, 30);
  EXPECT_LT(wrapped.x[0], 50.0);
}

// Two groups hundreds of thousands of radii apart fly as two groups a few hundred radii apart:
// each boid's neighbours, in the same order, and the same memory as a compact flock's.
TEST_P(OpenSpaceTest, GroupsFarApartFlyAsNearOnes) {
  FlockParams p;
  p.world = World{100, 100, Boundary::kOpen};
  const bool single = GetParam().precision == Precision::kFloat;
  const double apart = single ? 1e5 : 4e6;  // radii of 10: 10,000 and 400,000 radii
  const FlockState far = two_clumps(300, 60.0, apart, 2, 5);
  const FlockState near = two_clumps(300, 60.0, 3000.0, 2, 5);
  const auto sim_far = make(far, p);
  const auto sim_near = make(near, p);
  sim_far->step(20);
  sim_near->step(20);
  const FlockState f = sim_far->state(), n = sim_near->state();
  for (std::size_t i = 0; i < 300; ++i) {  // the first group, at the same place in both
    ASSERT_EQ(f.x[i], n.x[i]) << "boid " << i;
    ASSERT_EQ(f.y[i], n.y[i]) << "boid " << i;
  }
  const auto sim_compact = make(two_clumps(300, 60.0, 0.0, 2, 5), p);
  sim_compact->step(20);
  EXPECT_EQ(sim_far->bytes_allocated(), sim_compact->bytes_allocated());
}

// A flock that has flown beyond what its precision holds is refused at the next step, whole as
// the last step left it.
TEST_P(OpenSpaceTest, ReachRefusedWithTheFlockWhole) {
  FlockParams p;
  p.world = World{100, 100, Boundary::kOpen};
  const double reach = open_reach(GetParam().precision, p.radius);
  const FlockState start = test_support::make_state({{reach - 2.5, 0, 1, 0}});
  const auto sim = make(start, p);
  sim->step(2);
  const FlockState before = sim->state();
  try {
    sim->step(5);
    FAIL() << "a boid beyond the reach flew on";
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find("precision"), std::string::npos) << e.what();
  }
  const FlockState after_refusal = sim->state();
  EXPECT_GT(after_refusal.x[0], reach);
  EXPECT_LT(after_refusal.x[0], before.x[0] + 1.5);
}

INSTANTIATE_TEST_SUITE_P(open, OpenSpaceTest, test_support::every_engine_case(),
                         test_support::engine_case_name);

}  // namespace
}  // namespace boids
