// Every executor's answers against each other, so that no code runs only where no test can
// reach it: the GPU's path (tests/support/gpu_path_executor.h: one lane per boid, naive tiles, the
// radix sort's buffers, the three stages of the cell starts) against the cpu backend, bit for
// bit; the cell starts and the counting sort against their definitions; and the cell grid
// against rounding at its borders.
#include <gtest/gtest.h>
#include <omp.h>

#include <algorithm>
#include <cmath>
#include <functional>
#include <limits>
#include <memory>
#include <numeric>
#include <random>
#include <string>
#include <vector>

#include "host/backends/cpu/cpu_executor.h"
#include "host/backends/kernel_flocks.h"
#include "host/core/simulation.h"
#include "host/model/initial_state.h"
#include "tests/support/gpu_path_executor.h"
#include "tests/support/test_support.h"

namespace boids {
namespace {

using kernels::index_t;
using test_support::bit_identical;
using test_support::GpuPathExecutor;
using test_support::make_state;
using test_support::random_state;

struct NamedFlock {
  std::string name;
  FlockParams params;
  FlockState state;
};

FlockParams world_of(double world, double radius) {
  FlockParams p;
  p.world = test_support::square(world);
  p.radius = radius;
  return p;
}

// Flocks that take every branch of the pipelines: dense and flocked neighbourhoods, a sparse
// flock (one cell per boid at most), clumps with long stretches of empty cells between them,
// grids of one and two cells per axis, and partial tiles of the naive kernel; every model, a
// field of view and noise; in 2D and in boxes; and open space, whose tiles some flocks place
// away from their homes.
const std::vector<NamedFlock>& flocks() {
  static const std::vector<NamedFlock> all = [] {
    std::vector<NamedFlock> f;
    const FlockParams dense = world_of(400, 10);
    f.push_back({"random", dense, make_initial_state(1900, 1, dense)});
    SimulationConfig warm{Backend::kCpu, Method::kHashed, Precision::kDouble, dense};
    const auto sim = make_simulation(warm, make_initial_state(1900, 2, dense));
    sim->step(150);
    f.push_back({"flocked", dense, sim->state()});
    const FlockParams sparse = world_of(3000, 10);
    f.push_back({"sparse", sparse, random_state(1500, 3000, 0, 0, 3)});
    const FlockParams clumps = world_of(2000, 10);
    f.push_back({"clumped", clumps, random_state(1500, 2000, 6, 12, 4)});
    FlockParams steering = dense;  // the other models, each with a variant of its own
    steering.model = Model::kSteering;
    steering.fov = 270;
    f.push_back({"steering-fov", steering, make_initial_state(1900, 10, steering)});
    FlockParams vicsek = dense;
    vicsek.model = Model::kVicsek;
    vicsek.noise = 0.5;
    f.push_back({"vicsek-noise", vicsek, make_initial_state(1900, 11, vicsek)});
    const FlockParams one = world_of(100, 60);
    f.push_back({"1-cell", one, make_initial_state(300, 5, one)});
    const FlockParams two = world_of(100, 40);
    f.push_back({"2-cells", two, make_initial_state(300, 6, two)});
    FlockParams box = world_of(120, 10);  // the published example's mean neighbour count, 0.9 / r^3
    box.dimensions = 3;
    box.world.depth = 120;
    f.push_back({"box-random", box, make_initial_state(1500, 7, box)});
    const auto flying = make_simulation({Backend::kCpu, Method::kHashed, Precision::kDouble, box},
                                        make_initial_state(1500, 8, box));
    flying->step(150);
    f.push_back({"box-flocked", box, flying->state()});
    FlockParams slab = box;  // one cell deep, two high
    slab.world.height = 25;
    slab.world.depth = 12;
    f.push_back({"box-slab", slab, make_initial_state(400, 9, slab)});
    FlockParams open = dense;  // open space: its table of tiles, keyed by the move's lanes
    open.world.boundary = Boundary::kOpen;
    f.push_back({"open", open, make_initial_state(1900, 12, open)});
    FlockParams open_box = box;
    open_box.world.boundary = Boundary::kOpen;
    f.push_back({"open-box", open_box, make_initial_state(1500, 13, open_box)});
    FlockParams thin = open_box;  // tiles along x beyond the homes' period: some placed away
    thin.world.width = 4000;
    thin.world.height = thin.world.depth = 40;
    f.push_back({"open-thin", thin, make_initial_state(4000, 14, thin)});
    return f;
  }();
  return all;
}

struct PathCase {
  Method method;
  Precision precision;
};

void PrintTo(const PathCase& c, std::ostream* out) {
  *out << to_string(c.method) << " " << to_string(c.precision);
}

std::string path_name(const testing::TestParamInfo<PathCase>& info) {
  return to_string(info.param.method) + "_" + to_string(info.param.precision);
}

class GpuPathTest : public testing::TestWithParam<PathCase> {
 protected:
  SimulationConfig config(const FlockParams& params, Backend backend = Backend::kCpu) const {
    return {backend, GetParam().method, GetParam().precision, params};
  }

  // The flocks on the GPU's path are instantiated apart (boids_test_flocks, tests/CMakeLists.txt).
  std::unique_ptr<Simulation> gpu_path(const FlockParams& params, const FlockState& s) const {
    const SimulationConfig c = config(params);
    return with_flock_types(c, [&](auto real, auto d) {
      return make_kernel_simulation<decltype(real), d(), GpuPathExecutor>(c, s);
    });
  }
};

TEST_P(GpuPathTest, StepsAsTheCpuBackendDoes) {
  for (const NamedFlock& f : flocks()) {
    const auto cpu = make_simulation(config(f.params), f.state);
    const auto gpu = gpu_path(f.params, f.state);
    cpu->step(8);
    gpu->step(8);
    EXPECT_TRUE(bit_identical(gpu->state(), cpu->state())) << f.name;
  }
}

TEST_P(GpuPathTest, QuantisesOnTheDeviceAsTheHostDoes) {
  for (const NamedFlock& f : flocks()) {
    const auto gpu = gpu_path(f.params, f.state);
    gpu->step(3);
    EXPECT_TRUE(test_support::quantised_as_the_host(*gpu)) << f.name;
  }
}

TEST_P(GpuPathTest, MeasuresAsTheCpuBackendDoes) {
  for (const NamedFlock& f : flocks()) {
    const auto cpu = make_simulation(config(f.params), f.state);
    const auto gpu = gpu_path(f.params, f.state);
    for (int round = 0; round < 2; ++round) {  // before and after steps
      const FlockMetrics a = gpu->metrics(), b = cpu->metrics();
      EXPECT_EQ(a.flocks, b.flocks) << f.name;
      EXPECT_EQ(a.largest_flock, b.largest_flock) << f.name;
      // The same values, summed in another order.
      EXPECT_NEAR(a.polarization, b.polarization, 1e-12) << f.name;
      EXPECT_NEAR(a.milling, b.milling, 1e-12) << f.name;
      EXPECT_NEAR(a.mean_nn_distance, b.mean_nn_distance, 1e-12 * b.mean_nn_distance) << f.name;
      cpu->step(3);
      gpu->step(3);
    }
    EXPECT_TRUE(bit_identical(gpu->state(), cpu->state())) << f.name << ": metrics moved the state";
  }
}

TEST_P(GpuPathTest, NaiveTilesCoverEveryPairOnce) {
  // 1 boid, a tile but one, a tile, a tile and one, and three tiles with a partial last one.
  const FlockParams params = world_of(100, 30);  // everyone sees many others
  for (const std::size_t n :
       {std::size_t{1}, std::size_t{kernels::kNaiveTile - 1}, std::size_t{kernels::kNaiveTile},
        std::size_t{kernels::kNaiveTile + 1}, std::size_t{2 * kernels::kNaiveTile + 77}}) {
    const FlockState s = make_initial_state(n, 9, params);
    const auto cpu = make_simulation(config(params), s);
    const auto gpu = gpu_path(params, s);
    cpu->step(3);
    gpu->step(3);
    EXPECT_TRUE(bit_identical(gpu->state(), cpu->state())) << n << " boids";
  }
}

// Boxes whose line blocks meet every case: an odd number of lines, four rows on the torus
// (every block's lines around wrap), three layers, one or two cells, walls, a cone of view
// and spheres, dense and flocked neighbourhoods.
std::vector<NamedFlock> boxes() {
  std::vector<NamedFlock> f;
  for (const NamedFlock& box : flocks()) {
    if (box.params.dimensions == 3) f.push_back(box);
  }
  FlockParams thin = world_of(110, 10);  // 10 columns, 4 rows, 3 layers
  thin.dimensions = 3;
  thin.world.height = 45;
  thin.world.depth = 35;
  f.push_back({"box-4-rows-3-layers", thin, make_initial_state(900, 10, thin)});
  FlockParams four = thin;  // 10 columns, 4 rows, 5 layers
  four.world.depth = 55;
  f.push_back({"box-4-rows-5-layers", four, make_initial_state(1200, 11, four)});
  FlockParams walled = world_of(75, 10);
  walled.dimensions = 3;
  walled.world.depth = 75;
  walled.world.boundary = Boundary::kWalls;
  walled.fov = 260;
  walled.obstacles = {Obstacle{30, 30, 8, 30}};
  f.push_back({"box-walls-view-sphere", walled, make_initial_state(700, 12, walled)});
  FlockParams dense = walled;
  dense.world.boundary = Boundary::kTorus;
  dense.fov = 360;
  dense.obstacles.clear();
  const auto flying = make_simulation({Backend::kCpu, Method::kHashed, Precision::kDouble, dense},
                                      make_initial_state(3000, 13, dense));
  flying->step(100);
  f.push_back({"box-dense-flocked", dense, flying->state()});
  return f;
}

template <typename Real>
void expect_box_steps_as_the_gpu(const NamedFlock& f) {
  const SimulationConfig config{Backend::kCpu, Method::kHashed,
                                sizeof(Real) == 4 ? Precision::kFloat : Precision::kDouble,
                                f.params};
  const auto cpu = make_kernel_simulation<Real, 3, CpuExecutor>(config, f.state);
  const auto gpu = make_kernel_simulation<Real, 3, GpuPathExecutor>(config, f.state);
  cpu->step(8);
  gpu->step(8);
  EXPECT_TRUE(bit_identical(cpu->state(), gpu->state())) << f.name;
}

TEST(Boxes, StepAsTheGpusPathDoes) {
  for (const NamedFlock& f : boxes()) {
    expect_box_steps_as_the_gpu<float>(f);
    expect_box_steps_as_the_gpu<double>(f);
  }
}

INSTANTIATE_TEST_SUITE_P(executors, GpuPathTest,
                         testing::Values(PathCase{Method::kNaive, Precision::kDouble},
                                         PathCase{Method::kNaive, Precision::kFloat},
                                         PathCase{Method::kHashed, Precision::kDouble},
                                         PathCase{Method::kHashed, Precision::kFloat}),
                         path_name);

// ---------------------------------------------------------------------------------------
// The sort and the cell starts

struct SortResult {
  std::vector<index_t> order, cell_start;
};

SortResult cpu_sort(std::vector<index_t> keys, index_t cells) {
  SortResult r{std::vector<index_t>(keys.size()), std::vector<index_t>(cells + 1)};
  std::iota(r.order.begin(), r.order.end(), 0u);
  CpuExecutor exec;
  exec.sort_cells(keys.data(), r.order.data(), r.cell_start.data(),
                  static_cast<index_t>(keys.size()), cells, {nullptr, 0});
  return r;
}

SortResult gpu_path_sort(std::vector<index_t> keys, index_t cells) {
  SortResult r{std::vector<index_t>(keys.size()), std::vector<index_t>(cells + 1)};
  std::iota(r.order.begin(), r.order.end(), 0u);
  std::vector<kernels::Boid<float, 2>> lent(keys.size() + 1);  // a float flock's reordered state
  GpuPathExecutor exec;
  exec.sort_cells(keys.data(), r.order.data(), r.cell_start.data(),
                  static_cast<index_t>(keys.size()), cells,
                  {lent.data(), lent.size() * sizeof(lent[0])});
  return r;
}

// The definitions: the stable sorting permutation, and start[c] = the number of keys below c.
void expect_sorted(const std::vector<index_t>& keys, index_t cells, const SortResult& r,
                   const std::string& what) {
  std::vector<index_t> order(keys.size());
  std::iota(order.begin(), order.end(), 0u);
  std::stable_sort(order.begin(), order.end(),
                   [&keys](index_t a, index_t b) { return keys[a] < keys[b]; });
  EXPECT_EQ(r.order, order) << what;
  std::vector<index_t> sorted = keys;  // the number of keys below c: where c would go in them
  std::sort(sorted.begin(), sorted.end());
  std::vector<index_t> start(cells + 1);
  for (index_t c = 0; c <= cells; ++c) {
    start[c] =
        static_cast<index_t>(std::lower_bound(sorted.begin(), sorted.end(), c) - sorted.begin());
  }
  EXPECT_EQ(r.cell_start, start) << what;
}

TEST(CellStarts, BothSortsMeetTheDefinitions) {
  std::mt19937 rng(7);
  struct Layout {
    std::string name;
    index_t count, cells;
    std::function<index_t(index_t)> key;
  };
  const std::vector<Layout> layouts = {
      {"uniform", 3000, 2500, [&](index_t) { return static_cast<index_t>(rng() % 2500); }},
      {"one cell", 500, 900, [](index_t) { return index_t{417}; }},
      {"first and last cells empty", 800, 600,
       [&](index_t) { return static_cast<index_t>(50 + rng() % 400); }},
      {"only the last cell", 300, 700, [](index_t) { return index_t{699}; }},
      {"only the first cell", 300, 700, [](index_t) { return index_t{0}; }},
      {"clumps with long gaps", 2000, 40000,
       [&](index_t i) { return static_cast<index_t>((i % 3) * 17000 + rng() % 5); }},
      {"one boid", 1, 64, [](index_t) { return index_t{63}; }},
      {"one cell in all", 50, 1, [](index_t) { return index_t{0}; }},
  };
  for (const Layout& layout : layouts) {
    std::vector<index_t> keys(layout.count);
    for (index_t i = 0; i < layout.count; ++i) keys[i] = layout.key(i);
    expect_sorted(keys, layout.cells, cpu_sort(keys, layout.cells), "cpu, " + layout.name);
    expect_sorted(keys, layout.cells, gpu_path_sort(keys, layout.cells),
                  "gpu path, " + layout.name);
  }
}

TEST(CountingSort, ThreadsSplitTheCellsWithoutChangingTheResult) {
  // Above 131,072 keys the counting sort splits the cells between two threads.
  std::mt19937 rng(11);
  const index_t cells = 120000;
  std::vector<index_t> keys(250000);
  for (index_t& k : keys) k = static_cast<index_t>(rng() % cells);
  ASSERT_FALSE(cpu::nearly_sorted(keys.data(), static_cast<index_t>(keys.size())));
  const int threads = omp_get_max_threads();
  omp_set_num_threads(1);
  const SortResult one = cpu_sort(keys, cells);
  omp_set_num_threads(2);
  const SortResult two = cpu_sort(keys, cells);
  omp_set_num_threads(threads);
  EXPECT_EQ(one.order, two.order);
  EXPECT_EQ(one.cell_start, two.cell_start);
  expect_sorted(keys, cells, two, "two threads");
}

// Keys as the hashed step leaves them: in cell order but for boids that crossed into a
// neighbouring cell, and a few across the torus's seam (a key near the end of the grid
// early, one near its start late), so each sorting thread lists a few for another.
std::vector<index_t> nearly_sorted_keys(index_t count, index_t cells, std::mt19937& rng) {
  std::vector<index_t> keys(count);
  for (index_t i = 0; i < count; ++i) {
    const auto cell = static_cast<index_t>(std::uint64_t{i} * cells / count);
    const index_t moved = rng() % 10 == 0 ? (rng() % 2 == 0 ? cell + 1 : cell + cells - 1) : cell;
    keys[i] = moved % cells;
  }
  for (int k = 0; k < 50; ++k) keys[rng() % count] = static_cast<index_t>(rng() % cells);
  return keys;
}

TEST(CountingSort, NearlySortedKeysSortAlikeOnAnyNumberOfThreads) {
  // The threads' cells start at the keys that start their chunks (cpu/counting_sort.h).
  std::mt19937 rng(5);
  const index_t cells = 90000;
  const std::vector<index_t> keys = nearly_sorted_keys(300000, cells, rng);
  ASSERT_TRUE(cpu::nearly_sorted(keys.data(), static_cast<index_t>(keys.size())));
  const int threads = omp_get_max_threads();
  omp_set_num_threads(1);
  const SortResult one = cpu_sort(keys, cells);
  expect_sorted(keys, cells, one, "one thread");
  for (const int t : {2, 3, 4, 8}) {
    omp_set_num_threads(t);
    const SortResult many = cpu_sort(keys, cells);
    EXPECT_EQ(one.order, many.order) << t << " threads";
    EXPECT_EQ(one.cell_start, many.cell_start) << t << " threads";
  }
  omp_set_num_threads(threads);
}

TEST(CountingSort, ListsInTheLentScratchWhenItIsLargeEnough) {
  std::mt19937 rng(9);
  const index_t cells = 70000;
  const std::vector<index_t> keys = nearly_sorted_keys(200000, cells, rng);
  SortResult r{std::vector<index_t>(keys.size()), std::vector<index_t>(cells + 1)};
  std::iota(r.order.begin(), r.order.end(), 0u);
  std::vector<index_t> lent(keys.size(), 0xffffffffu);
  const int threads = omp_get_max_threads();
  omp_set_num_threads(2);
  CpuExecutor exec;
  exec.sort_cells(keys.data(), r.order.data(), r.cell_start.data(),
                  static_cast<index_t>(keys.size()), cells,
                  {lent.data(), lent.size() * sizeof(index_t)});
  omp_set_num_threads(threads);
  expect_sorted(keys, cells, r, "lent scratch");
  EXPECT_NE(std::count(lent.begin(), lent.end(), 0xffffffffu), static_cast<long>(lent.size()))
      << "the lists went elsewhere";
}

// What sort_cells_moving moves where, as a permutation: order[to] = from; entries never
// placed stay kUnplaced.
constexpr index_t kUnplaced = 0xffffffffu;
SortResult cpu_sort_moving(const std::vector<index_t>& keys, index_t cells, bool& moved) {
  SortResult r{std::vector<index_t>(keys.size(), kUnplaced), std::vector<index_t>(cells + 1)};
  CpuExecutor exec;
  moved =
      exec.sort_cells_moving(keys.data(), r.cell_start.data(), static_cast<index_t>(keys.size()),
                             cells, [&r](index_t from, index_t to) { r.order[to] = from; });
  return r;
}

TEST(CountingSort, MovesNearlySortedKeysStraightToTheirPlaces) {
  // The hashed step's sort and reorder in one pass (kernels/cell_index.h).
  std::mt19937 rng(13);
  const index_t cells = 90000;
  const std::vector<index_t> keys = nearly_sorted_keys(300000, cells, rng);
  const int threads = omp_get_max_threads();
  for (const int t : {1, 2, 3, 8}) {
    omp_set_num_threads(t);
    bool moved = false;
    const SortResult r = cpu_sort_moving(keys, cells, moved);
    ASSERT_TRUE(moved) << t << " threads";
    expect_sorted(keys, cells, r, std::to_string(t) + " threads, moving");
  }
  omp_set_num_threads(threads);
}

TEST(CountingSort, MovesNothingWhereTheKeysAreFarFromSortedOrTheListsHaveNoRoom) {
  std::mt19937 rng(17);
  const index_t cells = 90000, count = 300000;
  std::vector<index_t> shuffled(count);
  for (index_t& k : shuffled) k = static_cast<index_t>(rng() % cells);
  // In cell order but for every 20th key of the first half, in the last cell: the samples
  // still find them nearly sorted, and the first chunk lists 5 % of its keys for the last
  // thread, more than the 32nd of a chunk it has room for.
  const auto seamed_keys = [count](index_t grid_cells) {
    std::vector<index_t> keys(count);
    for (index_t i = 0; i < count; ++i) {
      keys[i] = i < count / 2 && i % 20 == 0
                    ? grid_cells - 1
                    : static_cast<index_t>(std::uint64_t{i} * grid_cells / count);
    }
    return keys;
  };
  const std::vector<index_t> seamed = seamed_keys(cells);
  ASSERT_TRUE(cpu::nearly_sorted(seamed.data(), count));
  const int threads = omp_get_max_threads();
  omp_set_num_threads(2);
  for (const auto& [name, keys] : {std::pair{"shuffled", shuffled}, std::pair{"seamed", seamed}}) {
    bool moved = true;
    const SortResult r = cpu_sort_moving(keys, cells, moved);
    EXPECT_FALSE(moved) << name;
    EXPECT_EQ(std::count(r.order.begin(), r.order.end(), kUnplaced), static_cast<long>(count))
        << name << ": something was moved";
    expect_sorted(keys, cells, cpu_sort(keys, cells), std::string(name) + ", sorted instead");
  }
  // As many cells as keys, which leaves the lists only their few entries (CpuExecutor's
  // kFewListed): the seamed keys outgrow them.
  bool moved = true;
  cpu_sort_moving(seamed_keys(count), count, moved);
  EXPECT_FALSE(moved) << "seamed, as many cells as keys";
  omp_set_num_threads(threads);
}

TEST(CountingSort, MovesNearlySortedKeysWhereTheCellsLeaveTheListsNoRoom) {
  // A 3D flock at the published example's density has as many cells as boids: a few entries a
  // list still hold what nearly sorted keys list.
  std::mt19937 rng(19);
  const index_t count = 300000;
  const std::vector<index_t> keys = nearly_sorted_keys(count, count, rng);
  const int threads = omp_get_max_threads();
  for (const int t : {2, 3}) {
    omp_set_num_threads(t);
    bool moved = false;
    const SortResult r = cpu_sort_moving(keys, count, moved);
    ASSERT_TRUE(moved) << t << " threads";
    expect_sorted(keys, count, r, std::to_string(t) + " threads, as many cells as keys");
  }
  omp_set_num_threads(threads);
}

TEST(CountingSort, HashedFlightIsTheSameOnOneAndTwoThreads) {
  const FlockParams params = world_of(3400, 10);  // 140,000 boids at about 1.2 per r^2
  const FlockState start = make_initial_state(140000, 12, params);
  const int threads = omp_get_max_threads();
  FlockState result[2];
  for (int t = 1; t <= 2; ++t) {
    omp_set_num_threads(t);
    const auto sim =
        make_simulation({Backend::kCpu, Method::kHashed, Precision::kFloat, params}, start);
    sim->step(3);
    result[t - 1] = sim->state();
  }
  omp_set_num_threads(threads);
  EXPECT_TRUE(bit_identical(result[0], result[1]));
}

// ---------------------------------------------------------------------------------------
// The cell grid at its borders

// Positions within `ulps` steps of cell border k of `grid` (in Real).
template <typename Real>
std::vector<Real> near_border(const kernels::CellGrid<Real, 2>& grid, double world, index_t k,
                              int ulps) {
  std::vector<Real> positions;
  Real x = static_cast<Real>(world * k / grid.counts[0]);
  for (int u = 0; u < ulps; ++u) x = std::nextafter(x, Real(0));
  for (int u = 0; u < 2 * ulps; ++u, x = std::nextafter(x, std::numeric_limits<Real>::max())) {
    positions.push_back(x);
  }
  return positions;
}

// Pairs of positions near borders closer than r (as the kernels compare them) whose cells are
// two or more apart, so that a boid's 3x3 block would miss the other. Cells are at least r
// wide, so such a pair can only straddle two neighbouring borders.
template <typename Real>
int pairs_two_cells_apart(const kernels::CellGrid<Real, 2>& grid, double world, double radius) {
  const auto r2 = static_cast<Real>(radius * radius);
  int found = 0;
  std::vector<Real> previous;
  for (index_t k = 1; k < grid.counts[0]; ++k) {
    const std::vector<Real> here = near_border(grid, world, k, 48);
    for (const Real b : here) {
      const index_t cb = grid.column(b);
      for (const std::vector<Real>* others :
           {static_cast<const std::vector<Real>*>(&previous), &here}) {
        for (const Real a : *others) {
          const Real d = b - a;
          if (a < b && d * d < r2 && cb > grid.column(a) + 1) ++found;
        }
      }
    }
    previous = here;
  }
  return found;
}

template <typename Real>
void expect_no_neighbors_two_cells_apart(double world, double radius) {
  const kernels::CellGrid<Real, 2> grid =
      kernels::make_cell_grid<Real, 2>(radius, {world, world}, 1u << 30, true);
  EXPECT_EQ(pairs_two_cells_apart(grid, world, radius), 0)
      << "world " << world << ", radius " << radius << ", " << grid.counts[0] << " cells";
}

// Found by searching near the borders of grids with cells exactly r wide (no margin): in
// each, two boids closer than r round into cells two apart.
struct RoundingCase {
  double world, radius;
};
const RoundingCase kDoubleCase{13.0, 1.3};
const RoundingCase kFloatCase{213.47784389144968, 3.049683299740138};

TEST(CellGrid, WithoutTheMarginRoundingSplitsNeighborsTwoCellsApart) {
  // The test below has teeth: a grid of cells exactly r wide does fail it.
  kernels::CellGrid<double, 2> exact_d;
  exact_d.counts[0] = exact_d.counts[1] = 10;
  exact_d.per_unit[0] = exact_d.per_unit[1] = 10 / 13.0;
  exact_d.wraps = true;
  EXPECT_GT(pairs_two_cells_apart(exact_d, kDoubleCase.world, kDoubleCase.radius), 0);
  const auto side_f = static_cast<index_t>(std::floor(kFloatCase.world / kFloatCase.radius));
  const auto per_unit = static_cast<float>(side_f / kFloatCase.world);
  kernels::CellGrid<float, 2> exact_f;
  exact_f.counts[0] = exact_f.counts[1] = side_f;
  exact_f.per_unit[0] = exact_f.per_unit[1] = per_unit;
  exact_f.wraps = true;
  EXPECT_GT(pairs_two_cells_apart(exact_f, kFloatCase.world, kFloatCase.radius), 0);
}

TEST(CellGrid, NeighborsAreNeverTwoCellsApart) {
  expect_no_neighbors_two_cells_apart<double>(kDoubleCase.world, kDoubleCase.radius);
  expect_no_neighbors_two_cells_apart<float>(kFloatCase.world, kFloatCase.radius);
  for (const double world : {100.0, 13.0, 1000.0, 9129.0}) {
    for (const double radius : {10.0, 1.3, 0.1, 2.5}) {
      if (world / radius > 2000) continue;  // keeps the search small
      expect_no_neighbors_two_cells_apart<float>(world, radius);
      expect_no_neighbors_two_cells_apart<double>(world, radius);
    }
  }
}

TEST(CellGrid, AtMostOneCellPerBoid) {
  for (const index_t n : {1u, 2u, 10u, 1000u, 123457u}) {
    for (const double height : {1000.0, 10.0, 1e6}) {
      const auto grid = kernels::make_cell_grid<float, 2>(0.01, {1000, height}, n, true);
      EXPECT_LE(grid.cells(), n) << height;
      EXPECT_GE(grid.counts[0], 1u);
      EXPECT_GE(grid.counts[1], 1u);
      const auto box = kernels::make_cell_grid<float, 3>(0.01, {1000, height, 10}, n, true);
      EXPECT_LE(box.cells(), n) << height;
      for (const index_t c : box.counts) EXPECT_GE(c, 1u);
    }
  }
}

}  // namespace
}  // namespace boids
