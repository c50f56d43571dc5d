// A flock flown as parts (PartAccess, host/simulation.h), side by side in one process as MPI
// ranks fly them (host/mpi/rank_flock.h), is the whole flock's flight: bit for bit on the
// naive method, to rounding on the hashed one. The parts' boids change hands here by brute
// force, against every slab: each part's split must give every boid that left it and every
// one near its edges, or a neighbour goes missing and the flight differs.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <memory>
#include <random>
#include <vector>

#include "host/errors.h"
#include "host/initial_state.h"
#include "kernels/cell_grid.h"
#include "tests/test_support.h"

namespace {

using namespace boids;
using test_support::bit_identical;
using test_support::random_state;

struct Slab {
  double low, high;
};

// The distance along an axis of side `side` from s to [low, high), the shorter way round on
// a torus.
double distance_to(double s, const Slab& slab, double side, bool torus) {
  double best = side;
  for (const double shift : {-side, 0.0, side}) {
    if (!torus && shift != 0) continue;
    const double t = s + shift;
    best = std::min(best, std::max({slab.low - t, t - slab.high, 0.0}));
  }
  return best;
}

class Part : public test_support::EngineCaseTest {
 protected:
  // The flock `start` flown `steps` steps as parts in `slabs` of its last axis, gathered.
  FlockState fly_in_parts(const FlockParams& params, const FlockState& start,
                          const std::vector<Slab>& slabs, int steps) const {
    const int axis = params.dimensions - 1;
    const double side = axis == 2 ? params.world.depth : params.world.height;
    const double reach = 1.5 * params.radius;
    SimulationConfig config = this->config(params);
    config.whole_count = start.size();
    FlockState one;
    one.dimensions = params.dimensions;
    one.resize(1);
    std::vector<std::unique_ptr<Simulation>> parts;
    for (std::size_t k = 0; k < slabs.size(); ++k) {
      parts.push_back(make_simulation(config, one));
      parts.back()->part_access().start_part({}, 0);  // empty: the boids arrive below
    }
    // The boids at the parts' edges, and the part each came from (-1: the start).
    std::vector<IndexedBoid> edge;
    std::vector<int> from;
    for (std::size_t i = 0; i < start.size(); ++i) {
      const bool box = params.dimensions == 3;
      edge.push_back({i, start.x[i], start.y[i], box ? start.z[i] : 0.0, start.vx[i], start.vy[i],
                      box ? start.vz[i] : 0.0});
      from.push_back(-1);
    }
    const auto along = [&](const IndexedBoid& b) { return axis == 2 ? b.z : b.y; };
    const auto owner = [&](const IndexedBoid& b) {
      for (std::size_t k = 0; k < slabs.size(); ++k) {
        if (along(b) >= slabs[k].low && along(b) < slabs[k].high) return static_cast<int>(k);
      }
      ADD_FAILURE() << "no slab holds " << along(b);
      return 0;
    };
    const auto by_id = [](const IndexedBoid& a, const IndexedBoid& b) { return a.id < b.id; };
    for (int s = 0; s < steps; ++s) {
      // Each step begins with a split, as a rank's does (the first finds the parts empty, and
      // cuts their grids).
      if (s > 0) {
        edge.clear();
        from.clear();
      }
      for (std::size_t k = 0; k < slabs.size(); ++k) {
        parts[k]->part_access().split_part({axis, slabs[k].low, slabs[k].high, reach}, edge);
        from.resize(edge.size(), static_cast<int>(k));
      }
      for (std::size_t k = 0; k < slabs.size(); ++k) {
        std::vector<IndexedBoid> arrived, ghosts;
        for (std::size_t e = 0; e < edge.size(); ++e) {
          const int o = owner(edge[e]);
          if (o == static_cast<int>(k)) {
            if (from[e] != o) arrived.push_back(edge[e]);
          } else if (distance_to(along(edge[e]), slabs[k], side, params.world.torus()) <= reach) {
            ghosts.push_back(edge[e]);
          }
        }
        std::sort(arrived.begin(), arrived.end(), by_id);
        std::sort(ghosts.begin(), ghosts.end(), by_id);
        parts[k]->part_access().extend_part(arrived, ghosts);
        parts[k]->step(1);
        EXPECT_EQ(parts[k]->steps_taken(), static_cast<std::uint64_t>(s + 1));
      }
    }
    FlockState out;
    out.dimensions = params.dimensions;
    out.resize(start.size());
    std::vector<int> seen(start.size(), 0);
    std::vector<IndexedBoid> own;
    for (const auto& part : parts) {
      part->part_access().own_boids(own);
      for (const IndexedBoid& b : own) {
        ++seen[b.id];
        out.x[b.id] = b.x;
        out.y[b.id] = b.y;
        out.vx[b.id] = b.vx;
        out.vy[b.id] = b.vy;
        if (params.dimensions == 3) {
          out.z[b.id] = b.z;
          out.vz[b.id] = b.vz;
        }
      }
    }
    EXPECT_EQ(std::count(seen.begin(), seen.end(), 1), static_cast<long>(start.size()))
        << "every boid in one part, once";
    return out;
  }

  SimulationConfig config(const FlockParams& params) const {
    return {GetParam().backend, GetParam().method, GetParam().precision, params, /*seed=*/9};
  }

  // The parts' flight against the whole flock's: bit for bit on the naive method; on the
  // hashed one, which adds the ghosts after a cell's own boids, to rounding.
  void expect_whole_flight(const FlockParams& params, const FlockState& start,
                           const std::vector<Slab>& slabs, int steps) const {
    const auto whole = make_simulation(config(params), start);
    whole->step(static_cast<std::uint64_t>(steps));
    const FlockState a = whole->state(), b = fly_in_parts(params, start, slabs, steps);
    if (GetParam().method == Method::kNaive) {
      EXPECT_TRUE(bit_identical(a, b));
      return;
    }
    const double tolerance = GetParam().precision == Precision::kDouble ? 1e-9 : 1e-4;
    double worst = 0;
    for (std::size_t i = 0; i < a.size(); ++i) {
      worst = std::max({worst, std::abs(a.vx[i] - b.vx[i]), std::abs(a.vy[i] - b.vy[i])});
      if (params.dimensions == 3) worst = std::max(worst, std::abs(a.vz[i] - b.vz[i]));
    }
    EXPECT_LE(worst, tolerance);
  }
};

// Noise keyed by each boid's index in the whole flock, and a wind along the slabs' axis that
// carries boids from part to part every step.
TEST_P(Part, FliesAsTheWholeFlock) {
  FlockParams params;
  params.noise = 0.3;
  params.wind.y = 0.6;
  const FlockState start = random_state(500, 100, 0, 0, 4);
  expect_whole_flight(params, start, {{0, 23}, {23, 61}, {61, 100}}, 12);
}

// Walls: no slab reaches across the world's edge.
TEST_P(Part, FliesAsTheWholeFlockBetweenWalls) {
  FlockParams params;
  params.world.boundary = Boundary::kWalls;
  const FlockState start = random_state(400, 100, 3, 8, 5);
  expect_whole_flight(params, start, {{0, 50}, {50, 100}}, 10);
}

// A flock gathered in one place leaves most parts empty: they step no boids, and grow when
// boids arrive.
TEST_P(Part, EmptyPartsStepAndGrow) {
  FlockParams params;
  params.wind.y = 1.0;
  const FlockState start = random_state(300, 100, 1, 3, 6);
  expect_whole_flight(params, start, {{0, 20}, {20, 40}, {40, 60}, {60, 80}, {80, 100}}, 12);
}

// A box cut along z.
TEST_P(Part, FliesAsTheWholeFlockInABox) {
  FlockParams params = test_support::box(60);
  params.noise = 0.2;
  const FlockState start = make_initial_state(600, 7, params);
  expect_whole_flight(params, start, {{0, 25}, {25, 60}}, 8);
}

// A world wide enough that each part's grid is a window of the whole grid's rows, and ghosts
// cross the torus's edge into the first and last slabs.
TEST_P(Part, FliesAsTheWholeFlockOnWindowsOfTheGrid) {
  FlockParams params;
  params.world = test_support::square(300);
  params.noise = 0.2;
  params.wind.y = 0.8;
  const FlockState start = random_state(2500, 300, 0, 0, 8);
  expect_whole_flight(params, start, {{0, 70}, {70, 160}, {160, 230}, {230, 300}}, 10);
}

TEST_P(Part, FliesAsTheWholeFlockOnWindowsOfABox) {
  const FlockParams params = test_support::box(120);
  const FlockState start = make_initial_state(1500, 9, params);
  expect_whole_flight(params, start, {{0, 40}, {40, 80}, {80, 120}}, 8);
}

INSTANTIATE_TEST_SUITE_P(backends, Part, test_support::every_engine_case(),
                         test_support::engine_case_name);

TEST(PartOfTheReference, IsRefused) {
  const FlockState start = random_state(50, 100, 0, 0, 2);
  const auto reference = make_simulation(
      {Backend::kReference, Method::kNaive, Precision::kDouble, FlockParams{}}, start);
  EXPECT_THROW(reference->part_access(), InputError);
}

// A window of a grid's rows (a part's grid, kernels/cell_grid.h): every boid within r of a
// boid in the window, its coordinate along the window taken across the torus's edge where
// that brings it near, lies in that boid's block of cells; across x the grid still wraps.
TEST(WindowGrid, BlocksHoldEveryNeighbour) {
  const double side[2] = {300, 300};
  const kernels::CellGrid<float, 2> whole =
      kernels::make_cell_grid<float, 2>(10, side, 100000, true);
  for (const int first_row : {-2, 5, static_cast<int>(whole.counts[1]) - 9}) {
    kernels::CellGrid<float, 2> window = whole;
    window.window = true;
    window.counts[1] = 12;
    const double width = 300.0 / whole.counts[1];
    window.origin = static_cast<float>(first_row * width);
    std::mt19937_64 rng(static_cast<std::uint64_t>(first_row + 10));
    std::uniform_real_distribution<double> along(window.origin + width, window.origin + 11 * width),
        across(0, 300), offset(-10, 10);
    int checked = 0;
    for (int k = 0; k < 4000; ++k) {
      const double dx = offset(rng), dy = offset(rng);
      if (dx * dx + dy * dy >= 100) continue;
      const float p[2] = {static_cast<float>(across(rng)), static_cast<float>(along(rng))};
      double qx = p[0] + dx;
      qx -= 300 * std::floor(qx / 300);
      const float q[2] = {static_cast<float>(qx), static_cast<float>(p[1] + dy)};
      const kernels::index_t key = window.key(q);
      bool found = false;
      window.for_each_block_run(window.key(p), [&](kernels::index_t first, kernels::index_t last) {
        found = found || (key >= first && key <= last);
      });
      EXPECT_TRUE(found) << "(" << p[0] << ", " << p[1] << ") and (" << q[0] << ", " << q[1]
                         << ") on rows from " << first_row;
      ++checked;
    }
    EXPECT_GT(checked, 2000);
  }
}

}  // namespace
