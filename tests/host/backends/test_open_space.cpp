// Open space (--boundary open): the table of cells that unbounded space hashes to finds every
// neighbour whatever collides, and its planning gives each tile a slot of its own, from the
// positions alone; boids fly past the start's region; a flock split far apart
// steps as a compact one does, in the same memory; and the precision's reach is refused, the
// flock kept whole. Each model in open space against the reference is the variants'
// (host/model/variants.cpp: open, steering-open-wander, vicsek-open, couzin-open), flown on
// every backend by test_engine.
#include <gtest/gtest.h>
#include <omp.h>

#include <algorithm>
#include <cmath>
#include <map>
#include <random>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "host/backends/cpu/cpu_executor.h"
#include "host/backends/open_table_arrays.h"
#include "host/base/errors.h"
#include "host/core/value_limits.h"
#include "host/metrics/metrics.h"
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
    grid2.size_open_table(slots);  // every tile in a few slots
    check_block_runs(grid2, two_clumps(150, 12.0, 4000.0, 2, 7 + slots), 1.0);
    auto grid3 = kernels::make_open_grid<double, 3>(1.0, 1e5, 10);
    grid3.size_open_table(slots);
    check_block_runs(grid3, two_clumps(150, 6.0, 3000.0, 3, 11 + slots), 1.0);
  }
}

// A flock's index on a table of `slots` slots, planned and sorted as the hashed step does it
// (kernels/hashed_step.h), on the cpu backend's executor; with `planned` false, every tile
// stays at home, as where no table is kept.
template <int D>
class PlannedIndex {
 public:
  PlannedIndex(const FlockState& s, index_t slots, bool planned = true)
      : n_(static_cast<index_t>(s.size())),
        planned_(planned),
        boids_(n_),
        sorted_(n_),
        ids_(n_),
        keys_(n_),
        order_(n_) {
    grid_ = kernels::make_open_grid<double, D>(1.0, 1e5, 10);
    grid_.size_open_table(slots);
    if (planned_) table_.attach(exec_, grid_);
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

  // Plans the table for the boids where they are, and sorts them by it; the next sort starts
  // from this one's order, as after a step.
  void sort() {
    std::swap(x_.boids, x_.sorted);
    x_.keys_ready = false;
    kernels::build_cell_index(exec_, x_, grid_, /*carry_ids=*/true);  // planned where attached
  }

  // Every sorted boid lies in the cell that the grid keys it by, and every boid within r of a
  // boid in the runs of its block.
  void expect_found(double r) const {
    for (index_t i = 0; i < n_; ++i) {
      const index_t key = grid_.key(x_.sorted[i].position);
      ASSERT_TRUE(x_.cell_start[key] <= i && i < x_.cell_start[key + 1]) << "boid " << i;
      std::vector<std::pair<index_t, index_t>> runs;
      grid_.for_each_block_run(x_.sorted[i].position, [&](index_t first, index_t last) {
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
  int shared_slots() const { return slots_sharing_tiles_of(1); }

  // The slots shared by two tiles or more of at least `boids` boids each.
  int slots_sharing_tiles_of(std::size_t boids) const {
    const std::vector<std::size_t> tiles = tiles_a_slot(boids);
    return static_cast<int>(
        std::count_if(tiles.begin(), tiles.end(), [](std::size_t n) { return n > 1; }));
  }

  // The most tiles of at least `boids` boids each that share one slot.
  std::size_t most_tiles_in_a_slot(std::size_t boids) const {
    const std::vector<std::size_t> tiles = tiles_a_slot(boids);
    return tiles.empty() ? 0 : *std::max_element(tiles.begin(), tiles.end());
  }

  // For each slot, its tiles of at least `boids` boids each.
  std::vector<std::size_t> tiles_a_slot(std::size_t boids) const {
    std::vector<std::size_t> counts;
    const index_t per_slot = grid_.cells_per_slot();
    for (index_t s = 0; s < grid_.open_slots(); ++s) {
      std::map<std::uint64_t, std::size_t> tiles;
      for (index_t i = x_.cell_start[s * per_slot]; i < x_.cell_start[(s + 1) * per_slot]; ++i) {
        ++tiles[kernels::OpenTiles<D>::tile(grid_.line(x_.sorted[i].position))];
      }
      counts.push_back(std::count_if(tiles.begin(), tiles.end(),
                                     [&](const auto& tile) { return tile.second >= boids; }));
    }
    return counts;
  }

  // Each boid's key, by id.
  std::vector<index_t> keys_by_id() const {
    std::vector<index_t> keys(n_);
    for (index_t i = 0; i < n_; ++i) keys[x_.ids[i]] = grid_.key(x_.sorted[i].position);
    return keys;
  }
  std::vector<index_t> ids() const { return {x_.ids, x_.ids + n_}; }

 private:
  index_t n_;
  bool planned_;
  CpuExecutor exec_;
  std::vector<kernels::Boid<double, D>> boids_, sorted_;
  std::vector<index_t> ids_, keys_, order_, cell_start_;
  kernels::CellGrid<double, D> grid_;
  OpenTableArrays<CpuExecutor> table_;
  kernels::CellIndex<double, D> x_{};
};

// Boids scattered over a region that spans many tiles: `count` of them, `side` radii along x
// and `across` times that (a quarter by default) along the other axes.
FlockState scattered(std::size_t count, double side, int d, std::uint64_t seed,
                     double across = 0.25) {
  std::mt19937_64 rng(seed);
  std::uniform_real_distribution<double> u(-side / 2, side / 2);
  FlockState s;
  s.dimensions = d;
  for (std::size_t i = 0; i < count; ++i) {
    s.x.push_back(u(rng));
    s.y.push_back(u(rng) * across);
    s.vx.push_back(0);
    s.vy.push_back(0);
    if (d == 3) {
      s.z.push_back(u(rng) * across);
      s.vz.push_back(0);
    }
  }
  return s;
}

template <int D>
void check_planning(const FlockState& s, index_t slots) {
  PlannedIndex<D> at_home(s, slots, /*planned=*/false);
  at_home.sort();
  ASSERT_NO_FATAL_FAILURE(at_home.expect_found(1.0));
  EXPECT_GT(at_home.shared_slots(), 0) << "no tile collided: the test shows nothing";
  PlannedIndex<D> planned(s, slots);
  planned.sort();
  ASSERT_NO_FATAL_FAILURE(planned.expect_found(1.0));
  EXPECT_EQ(planned.shared_slots(), 0);
}

TEST(OpenGrid, PlanningGivesEveryTileASlotOfItsOwn) {
  // Flocks longer along x than the homes' grid (kernels/open_cells.h's OpenHomes: 8 chunks
  // of 128 cells in 2D's 128 slots, 4 in 3D's 1024), whose tiles a period apart share a
  // home: about 80 tiles of 128 x 32 cells in 128 slots (2D); in 3D, about 420 of 128 x 8 x 8
  // in 1024.
  check_planning<2>(scattered(600, 2500.0, 2, 3, 0.05), 128);
  check_planning<3>(scattered(600, 1500.0, 3, 4, 0.04), 1024);
}

// More tiles than the table's set holds (eight times the slots): every tile stays at home, and
// every neighbour is still found.
TEST(OpenGrid, PlanningLeavesTilesAtHomeWhereTheyOutnumberItsRoom) {
  const FlockState s = scattered(600, 4000.0, 2, 5);  // about 280 tiles in 8 slots
  PlannedIndex<2> at_home(s, 8, /*planned=*/false), planned(s, 8);
  at_home.sort();
  planned.sort();
  ASSERT_NO_FATAL_FAILURE(planned.expect_found(1.0));
  EXPECT_EQ(planned.keys_by_id(), at_home.keys_by_id());
}

// Where tiles outnumber the slots, the tiles of most boids keep a slot each, and only the
// others share: 40 tiles of 50 boids and 60 of one boid in 64 slots, at 10 places.
TEST(OpenGrid, PlanningGivesTheTilesOfMostBoidsTheirOwnSlots) {
  for (int place = 0; place < 10; ++place) {
    std::mt19937_64 rng(31 + place);
    std::uniform_real_distribution<double> u(0.0, 20.0);
    FlockState s;
    s.dimensions = 2;
    const auto add = [&](double x, double y) {
      s.x.push_back(x);
      s.y.push_back(y);
      s.vx.push_back(0);
      s.vy.push_back(0);
    };
    const double at = 2000.0 * place;  // tiles of 128 x 32 cells a little over r wide
    for (int tile = 0; tile < 40; ++tile) {
      for (int k = 0; k < 50; ++k)
        add(at + 200.0 * (tile % 8) + u(rng), 50.0 * (tile / 8) + u(rng));
    }
    for (int k = 0; k < 60; ++k) add(-at - 200.0 * (k % 10) - 1, 50.0 * (k / 10) + 1);
    PlannedIndex<2> planned(s, 64);
    planned.sort();
    ASSERT_NO_FATAL_FAILURE(planned.expect_found(1.0));
    EXPECT_EQ(planned.slots_sharing_tiles_of(50), 0) << "place " << place;
  }
}

// A boid at rest at (x, y) added to the 2D flock `s`.
void add_boid(FlockState& s, double x, double y) {
  s.x.push_back(x);
  s.y.push_back(y);
  s.vx.push_back(0);
  s.vy.push_back(0);
}

// `groups` groups of 40 boids in 2D, each within one tile, 256 cells (two chunks) apart
// along x: a period of the homes of 16 slots, so that every group's tile has the same home.
FlockState groups_a_period_apart(int groups) {
  std::mt19937_64 rng(7);
  std::uniform_real_distribution<double> u(0.0, 20.0);
  FlockState s;
  s.dimensions = 2;
  for (int group = 0; group < groups; ++group) {
    for (int k = 0; k < 40; ++k) add_boid(s, 256.0 * group + 10.0 + u(rng), 5.0 + u(rng));
  }
  return s;
}

// Groups a period of the homes apart (2 chunks along x and 8 tiles along y in 2D's 16
// slots), among more tiles than twice the slots: the groups' tiles keep a slot each, where at
// home they would share one, every group's boids in the same cells. 10 tiles of 40 boids at
// one home and 60 tiles of one boid at another.
TEST(OpenGrid, PlanningGivesGroupsAPeriodApartSlotsOfTheirOwn) {
  FlockState s = groups_a_period_apart(10);
  for (int k = 0; k < 60; ++k) {
    add_boid(s, 130.0 - 2048.0 - 256.0 * (k % 10), 256.0 * (k / 10) + 1.0);
  }
  PlannedIndex<2> at_home(s, 16, /*planned=*/false), planned(s, 16);
  at_home.sort();
  planned.sort();
  EXPECT_GT(at_home.slots_sharing_tiles_of(40), 0) << "the groups shared no home";
  ASSERT_NO_FATAL_FAILURE(planned.expect_found(1.0));
  EXPECT_EQ(planned.slots_sharing_tiles_of(40), 0);
}

// Groups a period of the homes apart, more than the slots: those left without a slot of
// their own share slots hashed from them, a few to a slot, not all their home (more than
// OpenTable::kMostAtHome tiles'). 40 tiles of 40 boids at one home of 16 slots: one holds
// it, 15 take the free slots, 24 share.
TEST(OpenGrid, PlanningScattersTheTilesItLeavesWithoutASlot) {
  const FlockState s = groups_a_period_apart(40);
  PlannedIndex<2> at_home(s, 16, /*planned=*/false), planned(s, 16);
  at_home.sort();
  planned.sort();
  EXPECT_EQ(at_home.most_tiles_in_a_slot(40), 40u) << "the groups did not share one home";
  ASSERT_NO_FATAL_FAILURE(planned.expect_found(1.0));
  EXPECT_LE(planned.most_tiles_in_a_slot(40), 6u);
}

// The planning's lane places the first k tiles in order, by tile or from most boids to
// fewest, as a full sort would put them, whatever order they were listed in.
TEST(OpenGrid, PlacingSelectsTheFirstTilesInOrder) {
  std::mt19937_64 rng(4);
  for (const bool by_boids : {false, true}) {
    for (const index_t n : {0u, 1u, 2u, 7u, 100u, 1000u}) {
      std::vector<std::pair<index_t, std::uint64_t>> listed;  // (boids, tile)
      for (index_t i = 0; i < n; ++i)
        listed.push_back({index_t(rng() % 5), rng() % 100000 * n + i});
      auto sorted = listed;
      std::sort(sorted.begin(), sorted.end(), [&](const auto& a, const auto& b) {
        if (by_boids && a.first != b.first) return a.first > b.first;
        return a.second < b.second;
      });
      for (const index_t k : {index_t{0}, n / 3, n}) {
        std::vector<std::uint64_t> tiles;
        std::vector<index_t> boids;
        for (const auto& [b, t] : listed) {
          boids.push_back(b);
          tiles.push_back(t);
        }
        std::vector<std::uint64_t> placed;
        kernels::place_first_tiles(tiles.data(), boids.data(), n, k, by_boids,
                                   [&](std::uint64_t tile) { placed.push_back(tile); });
        ASSERT_EQ(placed.size(), k);
        for (index_t i = 0; i < k; ++i) EXPECT_EQ(placed[i], sorted[i].second) << n << " " << k;
      }
    }
  }
}

TEST(OpenGrid, PlanningIsTheSameOnAnyNumberOfThreads) {
  const FlockState s = scattered(3000, 2000.0, 2, 9);
  const int threads = omp_get_max_threads();
  std::vector<std::vector<index_t>> orders;
  for (const int t : {1, 2, 3}) {
    omp_set_num_threads(t);
    PlannedIndex<2> index(s, 256);
    index.sort();
    index.sort();
    orders.push_back(index.ids());
  }
  omp_set_num_threads(threads);
  EXPECT_EQ(orders[0], orders[1]);
  EXPECT_EQ(orders[0], orders[2]);
}

// The table is a function of where the boids are, not of the order they come in or of the
// sorts before: a flock sorted once, and the same flock reversed and sorted twice, key every
// boid alike.
TEST(OpenGrid, PlanningDependsOnThePositionsAlone) {
  for (const int d : {2, 3}) {
    const FlockState s =
        d == 2 ? scattered(3000, 2000.0, 2, 13) : scattered(3000, 1500.0, 3, 14, 0.04);
    FlockState reversed = s;
    for (auto* v : {&reversed.x, &reversed.y, &reversed.z}) std::reverse(v->begin(), v->end());
    const auto keys = [&](const FlockState& flock, int sorts) {
      std::vector<index_t> by_id;
      if (d == 2) {
        PlannedIndex<2> index(flock, 256);
        for (int k = 0; k < sorts; ++k) index.sort();
        by_id = index.keys_by_id();
      } else {
        PlannedIndex<3> index(flock, 1024);
        for (int k = 0; k < sorts; ++k) index.sort();
        by_id = index.keys_by_id();
      }
      return by_id;
    };
    std::vector<index_t> back = keys(reversed, 2);
    std::reverse(back.begin(), back.end());
    EXPECT_EQ(keys(s, 1), back) << d << "D";
  }
}

// A tile's home (kernels/open_cells.h's OpenHomes): the tiles of a compact flock that fits
// the homes' periods each have one of their own, and the tile above a tile (along y) has the
// slot after its own, so the sorted flock's lines lie beside those around them.
template <int D>
void expect_homes_in_strips(index_t slots, int along_x, int along_y, int along_z) {
  auto grid = kernels::make_open_grid<double, D>(1.0, 1e5, 10);
  grid.size_open_table(slots);
  constexpr double kTileY = 1 << kernels::OpenTiles<D>::kBitsY;
  constexpr double kTileZ = 1 << kernels::OpenTiles<D>::kBitsZ;
  std::set<index_t> homes;
  for (int x = -along_x / 2; x < along_x - along_x / 2; ++x) {
    for (int z = 0; z < along_z; ++z) {
      for (int y = 0; y < along_y; ++y) {
        const auto tile_at = [&](int ty) {
          const double p[3] = {x * 128.0 + 0.5, ty * kTileY + 0.5, z * kTileZ + 0.5};
          double at[D];
          for (int a = 0; a < D; ++a) at[a] = p[a];
          return kernels::OpenTiles<D>::tile(grid.line(at, std::true_type{}));
        };
        const index_t home = grid.table.home(tile_at(y), slots);
        homes.insert(home);
        const index_t above = grid.table.home(tile_at(y + 1), slots);
        if (y + 1 < along_y) {
          EXPECT_EQ(above, (home + 1) % slots) << x << " " << y;
        }
      }
    }
  }
  EXPECT_EQ(homes.size(), std::size_t(along_x) * along_y * along_z) << "tiles shared a home";
}

TEST(OpenGrid, HomesLieInStripsOfTiles) {
  expect_homes_in_strips<2>(512, 16, 30, 1);  // periods 32 tiles along y, 16 along x
  expect_homes_in_strips<3>(512, 2, 14, 14);  // 16 along y and z, 2 along x
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

// A flight resumed from a step's state and order goes on as the straight flight does, bit for
// bit, as open space's table is planned from the positions alone: 20,000 boids spread over
// about twenty tiles, more than the table's sixteen slots, so that tiles leave their homes.
TEST_P(OpenSpaceTest, AResumedFlightIsTheStraightOne) {
  if (GetParam().method != Method::kHashed) GTEST_SKIP() << "the table is the hashed method's";
  FlockParams p;
  p.world = World{2000, 2000, Boundary::kOpen};
  const FlockState start = test_support::random_state(20000, 2000, 0, 0, 21);
  const auto whole = make(start, p);
  whole->step(24);
  const auto first = make(start, p);
  first->step(12);
  const auto resumed = make(first->state(), p);
  resumed->resume(first->state(), first->backend_order(), first->steps_taken());
  resumed->step(12);
  EXPECT_TRUE(test_support::bit_identical(resumed->state(), whole->state()));
}

// A straight flight keeps the keys its moves made wherever the next plan keeps every tile's
// slot, and keys again only the boids of slots whose tiles moved; one resumed at every step
// keys its boids afresh from their positions. They are the same flight, bit for bit: flocks
// over fewer tiles than slots (the move's set stands; over 30 steps at side 300, new tiles at
// the edge move others twice) and one over more (the set is counted again).
TEST_P(OpenSpaceTest, AFlightKeyedAfreshAtEachStepIsTheStraightOne) {
  if (GetParam().method != Method::kHashed) GTEST_SKIP() << "the table is the hashed method's";
  for (const auto& [side, steps] : {std::pair{600.0, 10}, {2000.0, 10}, {300.0, 30}}) {
    FlockParams p;
    p.world = World{side, side, Boundary::kOpen};
    const FlockState start = test_support::random_state(20000, side, 0, 0, 23);
    const auto whole = make(start, p);
    whole->step(steps);
    auto part = make(start, p);
    for (int s = 0; s < steps; ++s) {
      auto next = make(part->state(), p);
      next->resume(part->state(), part->backend_order(), part->steps_taken());
      next->step(1);
      part = std::move(next);
    }
    EXPECT_TRUE(test_support::bit_identical(part->state(), whole->state())) << side;
  }
}

// The metrics after steps of open space are those of the positions, as the reference measures
// them, and cost what a step does: where a flock's tiles outnumber the table's slots, the
// move leaves its boids' keys to the next planning, and an index built from those keys held
// every boid in one cell (a neighbour count near 0, a flock a boid, and each nearest neighbour
// found by a search of the whole flock). Sparse flocks of 2,000 boids, in 2D and 3D.
TEST_P(OpenSpaceTest, MetricsAfterStepsAreThoseOfThePositions) {
  for (const int d : {2, 3}) {
    FlockParams p;
    p.dimensions = d;
    const double side = d == 2 ? 408.0 : 131.0;  // 3.6 and 3.3 neighbours a boid
    p.world = World{side, side, Boundary::kOpen};
    if (d == 3) p.world.depth = side;
    const auto sim = make(make_initial_state(2000, 9, p), p);
    for (int round = 0; round < 3; ++round) {
      sim->step(2);
      const FlockState now = sim->state();
      const FlockMetrics m = sim->metrics();
      const FlockMetrics want =
          make_simulation({Backend::kReference, Method::kNaive, Precision::kDouble, p}, now)
              ->metrics();
      ASSERT_GT(want.mean_neighbors, 2.0) << d;
      EXPECT_NEAR(m.mean_neighbors, want.mean_neighbors, 1e-3 * want.mean_neighbors) << d;
      EXPECT_NEAR(static_cast<double>(m.flocks), static_cast<double>(want.flocks),
                  1e-2 * static_cast<double>(want.flocks))
          << d;
      EXPECT_NEAR(m.mean_nn_distance, want.mean_nn_distance, 1e-5 * want.mean_nn_distance) << d;
    }
    // Measuring leaves the flight as it was: it goes on as one that was not measured.
    const auto unmeasured = make(make_initial_state(2000, 9, p), p);
    unmeasured->step(6);
    EXPECT_TRUE(test_support::bit_identical(unmeasured->state(), sim->state())) << d;
  }
}

INSTANTIATE_TEST_SUITE_P(open, OpenSpaceTest, test_support::every_engine_case(),
                         test_support::engine_case_name);

}  // namespace
}  // namespace boids
