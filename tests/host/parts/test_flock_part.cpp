// A flock flown as parts (PartAccess, host/core/simulation.h), side by side in one process as MPI
// ranks fly them (host/mpi/rank_flock.h), is the whole flock's flight: bit for bit on the
// naive method, to rounding on the hashed one. The parts' boids change hands here by brute
// force, against every slab: each part's split must give every boid that left it and every
// one near its edges, or a neighbour goes missing and the flight differs.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <memory>
#include <random>
#include <utility>
#include <vector>

#include "host/base/errors.h"
#include "host/model/initial_state.h"
#include "host/parts/joined_metrics.h"
#include "host/parts/part_access.h"
#include "kernels/cell_grid.h"
#include "tests/support/side_by_side_parts.h"
#include "tests/support/test_support.h"

namespace {

using namespace boids;
using test_support::bit_identical;
using test_support::random_state;

using test_support::SideBySide;
using test_support::Slab;

class Part : public test_support::EngineCaseTest {
 protected:
  // The flock `start` flown `steps` steps as parts in `slabs` of its last axis, gathered.
  FlockState fly_in_parts(const FlockParams& params, const FlockState& start,
                          const std::vector<Slab>& slabs, int steps) const {
    SideBySide parts(config(params), start, slabs);
    for (int s = 0; s < steps; ++s) {
      parts.step();
      EXPECT_EQ(parts.steps_taken(), static_cast<std::uint64_t>(s + 1));
    }
    return parts.gather();
  }

  SimulationConfig config(const FlockParams& params) const {
    return {GetParam().backend, GetParam().method, GetParam().precision, params, /*seed=*/9};
  }

  void expect_whole_flight(const test_support::PartFlight& f, int steps) const {
    expect_whole_flight(f.params, f.start, f.slabs, steps);
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

// The parts' metrics put together against the whole flock's, on the same backend after the
// same flight: the flocks, the largest and the neighbours exactly, the rest to rounding. The
// flight then goes on as it would have without them.
void expect_whole_metrics(const SimulationConfig& config, const FlockState& start,
                          const std::vector<Slab>& slabs, int steps) {
  const auto whole = make_simulation(config, start);
  SideBySide parts(config, start, slabs);
  // The naive flights are the same bit for bit, so their metrics are sums of the same terms;
  // the hashed flights part by rounding.
  const double tolerance = config.method == Method::kNaive          ? 1e-12
                           : config.precision == Precision::kDouble ? 1e-9
                                                                    : 1e-4;
  for (int round = 0; round < 2; ++round) {
    const FlockMetrics a = whole->metrics(), b = parts.metrics();
    EXPECT_EQ(a.flocks, b.flocks) << "after " << whole->steps_taken() << " steps";
    EXPECT_EQ(a.largest_flock, b.largest_flock);
    EXPECT_EQ(a.mean_neighbors, b.mean_neighbors);
    EXPECT_NEAR(a.polarization, b.polarization, tolerance);
    EXPECT_NEAR(a.milling, b.milling, tolerance);
    EXPECT_NEAR(a.order, b.order, tolerance);
    EXPECT_NEAR(a.mean_nn_distance, b.mean_nn_distance, tolerance * a.mean_nn_distance);
    whole->step(static_cast<std::uint64_t>(steps));
    for (int s = 0; s < steps; ++s) parts.step();
  }
  if (config.method == Method::kNaive) {
    EXPECT_TRUE(bit_identical(whole->state(), parts.gather()));
  }
}

TEST_P(Part, MeasuresAsTheWholeFlock) {
  FlockParams params;
  params.world = test_support::square(200);
  params.noise = 0.3;
  const FlockState start = random_state(500, 200, 0, 0, 11);
  expect_whole_metrics(config(params), start, {{0, 47}, {47, 130}, {130, 200}}, 8);
}

// Boids far apart: most have their nearest in another part, beyond the ghosts' reach.
TEST_P(Part, MeasuresASparseFlock) {
  FlockParams params;
  params.world = test_support::square(300);
  const FlockState start = random_state(40, 300, 0, 0, 12);
  expect_whole_metrics(config(params), start, {{0, 70}, {70, 160}, {160, 230}, {230, 300}}, 5);
}

// Flocks gathered across the faces, a thin slab, walls.
TEST_P(Part, MeasuresAClumpedFlockBetweenWalls) {
  FlockParams params;
  params.world.boundary = Boundary::kWalls;
  const FlockState start = random_state(400, 100, 3, 8, 13);
  expect_whole_metrics(config(params), start, {{0, 30}, {30, 55}, {55, 60}, {60, 100}}, 6);
}

TEST_P(Part, MeasuresABox) {
  FlockParams params = test_support::box(80);
  params.noise = 0.2;
  const FlockState start = make_initial_state(900, 14, params);
  expect_whole_metrics(config(params), start, {{0, 25}, {25, 80}}, 5);
}

// Noise keyed by each boid's index in the whole flock, and a wind along the slabs' axis that
// carries boids from part to part every step.
// The flights of tests/support/side_by_side_parts.h, each named there.
TEST_P(Part, FliesAsTheWholeFlock) {
  expect_whole_flight(test_support::part_flight("windy"), 12);
}

TEST_P(Part, FliesAsTheWholeFlockBetweenWalls) {
  expect_whole_flight(test_support::part_flight("walls"), 10);
}

TEST_P(Part, EmptyPartsStepAndGrow) {
  expect_whole_flight(test_support::part_flight("gathered"), 12);
}

TEST_P(Part, FliesAsTheWholeFlockInABox) {
  expect_whole_flight(test_support::part_flight("box"), 8);
}

TEST_P(Part, FliesAsTheWholeFlockOnWindowsOfTheGrid) {
  expect_whole_flight(test_support::part_flight("windows"), 10);
}

TEST_P(Part, FliesAsTheWholeFlockOnWindowsOfABox) {
  expect_whole_flight(test_support::part_flight("box windows"), 8);
}

// A rank's start fills its parts a piece at a time, in the order its boids arrive.
TEST_P(Part, FilledAPieceAtATimeIsThePartStartedWhole) {
  FlockParams params;
  params.world = test_support::square(120);
  params.noise = 0.2;
  test_support::expect_filled_as_started(config(params), random_state(700, 120, 2, 10, 15), 64);
  test_support::expect_filled_as_started(config(test_support::box(60)),
                                         make_initial_state(500, 16, test_support::box(60)), 100);
}

INSTANTIATE_TEST_SUITE_P(backends, Part, test_support::every_engine_case(),
                         test_support::engine_case_name);

TEST(PartOfTheReference, IsRefused) {
  const FlockState start = random_state(50, 100, 0, 0, 2);
  const auto reference = make_simulation(
      {Backend::kReference, Method::kNaive, Precision::kDouble, FlockParams{}}, start);
  EXPECT_THROW(part_access(*reference), InputError);
}

// A window of a grid's rows (a part's grid, kernels/cell_grid.h): every boid within r of a
// boid in the window, its coordinate along the window taken across the torus's edge where
// that brings it near, lies in that boid's block of cells; across x the grid still wraps.
TEST(WindowGrid, BlocksHoldEveryNeighbor) {
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
