// Open space (--boundary open): the table of cells that unbounded space hashes to finds every
// neighbour whatever collides, and its settling gives each tile a slot of its own, the same on
// any number of threads; boids fly past the start's region; a flock split far apart
// steps as a compact one does, in the same memory; and the precision's reach is refused, the
// flock kept whole. Each model in open space against the reference is the variants'
// (host/model/variants.cpp: open, steering-open-wander, vicsek-open, couzin-open), flown on
// every backend by test_engine.
#include <gtest/gtest.h>
#include <omp.h>

#include <algorithm>
#include <cmath>
#include <random>
#include <set>
#include <string>
#include <vector>

#include "host/backends/cpu/cpu_executor.h"
#include "host/backends/open_table_arrays.h"
#include "host/base/errors.h"
#include "host/core/value_limits.h"
#include "host/model/initial_state.h"
#include "kernels/cell_grid.h"
#include "kernels/open_table.h"
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
  for (const index_t slots : {index_t{1}, index_t{2}, index_t{8}}) {
    auto grid2 = kernels::make_open_grid<double, 2>(1.0, 1e5, 10);
    grid2.counts[1] = slots << kernels::OpenTiles<2>::kBits;  // every tile in a few slots
    check_block_runs(grid2, two_clumps(150, 12.0, 4000.0, 2, 7 + slots), 1.0);
    auto grid3 = kernels::make_open_grid<double, 3>(1.0, 1e5, 10);
    grid3.counts[1] = slots << kernels::OpenTiles<3>::kBits;
    check_block_runs(grid3, two_clumps(150, 6.0, 3000.0, 3, 11 + slots), 1.0);
  }
}

// A flock's index on a table of `slots` slots, sorted and settled as the hashed step does it
// (kernels/hashed_step.h), on the cpu backend's executor.
template <int D>
class SettledIndex {
 public:
  SettledIndex(const FlockState& s, index_t slots)
      : n_(static_cast<index_t>(s.size())),
        boids_(n_),
        sorted_(n_),
        ids_(n_),
        keys_(n_),
        order_(n_) {
    grid_ = kernels::make_open_grid<double, D>(1.0, 1e5, 10);
    grid_.counts[1] = slots << kernels::OpenTiles<D>::kBits;
    table_.attach(exec_, grid_);
    cell_start_.resize(std::size_t{grid_.cells()} + 1);
    for (index_t i = 0; i < n_; ++i) {  // as a step leaves them, for sort() to take
      sorted_[i].position[0] = s.x[i];
      sorted_[i].position[1] = s.y[i];
      if constexpr (D == 3) sorted_[i].position[2] = s.z[i];
      ids_[i] = i;
    }
    x_ = {boids_.data(), sorted_.data(),     ids_.data(), keys_.data(),
          order_.data(), cell_start_.data(), n_};
  }

  // Sorts the boids, keyed by the table as a step keys them, and settles the table; the next
  // sort starts from this one's order, as after a step. Returns the grid of the step's queries.
  kernels::CellGrid<double, D> sort() {
    std::swap(x_.boids, x_.sorted);
    x_.keys_ready = false;
    kernels::build_cell_index(exec_, x_, grid_, /*carry_ids=*/true);
    return kernels::settle_open_table(exec_, x_, grid_);
  }

  // Every sorted boid lies in the cell that `queries` keys it by, and every boid within r of
  // a boid in the runs of its block.
  void expect_found(const kernels::CellGrid<double, D>& queries, double r) const {
    for (index_t i = 0; i < n_; ++i) {
      const index_t key = queries.key(x_.sorted[i].position);
      ASSERT_TRUE(x_.cell_start[key] <= i && i < x_.cell_start[key + 1]) << "boid " << i;
      std::vector<std::pair<index_t, index_t>> runs;
      queries.for_each_block_run(x_.sorted[i].position, [&](index_t first, index_t last) {
        runs.push_back({first, last});
      });
      for (index_t j = 0; j < n_; ++j) {
        double d2 = 0;
        for (int a = 0; a < D; ++a) {
          const double d = x_.sorted[j].position[a] - x_.sorted[i].position[a];
          d2 += d * d;
        }
        if (d2 >= r * r) continue;
        const bool found = std::any_of(runs.begin(), runs.end(), [&](const auto& run) {
          return j >= x_.cell_start[run.first] && j < x_.cell_start[run.second + 1];
        });
        ASSERT_TRUE(found) << "boid " << j << " lies within r of boid " << i;
      }
    }
  }

  // The slots whose boids belong to more than one tile.
  int shared_slots() const {
    int shared = 0;
    for (index_t s = 0; s < grid_.open_slots(); ++s) {
      shared += kernels::SlotTiles<double, D>(grid_, x_.sorted, x_.cell_start, s).count > 1;
    }
    return shared;
  }

  std::vector<index_t> ids() const { return {x_.ids, x_.ids + n_}; }

 private:
  index_t n_;
  CpuExecutor exec_;
  std::vector<kernels::Boid<double, D>> boids_, sorted_;
  std::vector<index_t> ids_, keys_, order_, cell_start_;
  kernels::CellGrid<double, D> grid_;
  OpenTableArrays<CpuExecutor> table_;
  kernels::CellIndex<double, D> x_{};
};

// Boids scattered over a region that spans many tiles: `count` of them, `side` radii along x
// and a quarter of that along the other axes.
FlockState scattered(std::size_t count, double side, int d, std::uint64_t seed) {
  std::mt19937_64 rng(seed);
  std::uniform_real_distribution<double> u(-side / 2, side / 2);
  FlockState s;
  s.dimensions = d;
  for (std::size_t i = 0; i < count; ++i) {
    s.x.push_back(u(rng));
    s.y.push_back(u(rng) / 4);
    s.vx.push_back(0);
    s.vy.push_back(0);
    if (d == 3) {
      s.z.push_back(u(rng) / 4);
      s.vz.push_back(0);
    }
  }
  return s;
}

template <int D>
void check_settling(const FlockState& s, index_t slots) {
  SettledIndex<D> index(s, slots);
  const auto first = index.sort();  // the table starts empty: every tile at home
  ASSERT_NO_FATAL_FAILURE(index.expect_found(first, 1.0));
  EXPECT_GT(index.shared_slots(), 0) << "no tile collided: the test shows nothing";
  const auto second = index.sort();  // the moved tiles are keyed to their slots
  ASSERT_NO_FATAL_FAILURE(index.expect_found(second, 1.0));
  EXPECT_EQ(index.shared_slots(), 0);
}

TEST(OpenGrid, SettlingGivesEveryTileASlotOfItsOwn) {
  // About 70 tiles of 128 x 32 cells in 128 slots (2D); in 3D, about 450 of 128 x 8 x 8 in
  // 1024.
  check_settling<2>(scattered(600, 1000.0, 2, 3), 128);
  check_settling<3>(scattered(600, 400.0, 3, 4), 1024);
}

TEST(OpenGrid, SettlingIsTheSameOnAnyNumberOfThreads) {
  const FlockState s = scattered(3000, 2000.0, 2, 9);
  const int threads = omp_get_max_threads();
  std::vector<std::vector<index_t>> orders;
  for (const int t : {1, 2, 3}) {
    omp_set_num_threads(t);
    SettledIndex<2> index(s, 256);
    index.sort();
    index.sort();
    orders.push_back(index.ids());
  }
  omp_set_num_threads(threads);
  EXPECT_EQ(orders[0], orders[1]);
  EXPECT_EQ(orders[0], orders[2]);
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
