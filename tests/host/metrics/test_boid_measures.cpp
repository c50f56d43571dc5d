// Each boid's measures (host/metrics/boid_measures.h) against all pairs counted here, and their
// sums against the flock-wide metrics (host/metrics/metrics.h), in two and three dimensions,
// on a torus and between walls, with worlds a few radii wide (a cell's neighbours wrap onto
// each other) and many.
#include <gtest/gtest.h>

#include <algorithm>
#include <atomic>
#include <cmath>
#include <map>
#include <random>
#include <vector>

#include "host/metrics/boid_measures.h"
#include "host/metrics/metrics.h"
#include "tests/support/test_support.h"

namespace boids {
namespace {

using test_support::random_state;

// A box of side `side`, the boids in clumps as random_state places them, z uniform.
FlockState box_state(std::size_t n, double side, std::uint64_t seed) {
  FlockState s = random_state(n, side, 6, side / 20, seed);
  s.dimensions = 3;
  std::mt19937_64 rng(seed + 1);
  std::uniform_real_distribution<double> u(0, side), v(-1, 1);
  s.z.resize(n);
  s.vz.resize(n);
  for (std::size_t i = 0; i < n; ++i) {
    s.z[i] = u(rng);
    s.vz[i] = v(rng);
  }
  return s;
}

double distance(const FlockState& s, std::size_t i, std::size_t j, const World& w) {
  double d2 = 0;
  const std::vector<double>* axes[3] = {&s.x, &s.y, &s.z};
  const double sides[3] = {w.width, w.height, w.depth};
  for (int a = 0; a < s.dimensions; ++a) {
    double d = (*axes[a])[j] - (*axes[a])[i];
    if (w.torus()) d -= sides[a] * std::round(d / sides[a]);
    d2 += d * d;
  }
  return std::sqrt(d2);
}

struct Case {
  FlockState state;
  World world;
  double radius;
};

std::vector<Case> cases() {
  std::vector<Case> all;
  for (const Boundary b : {Boundary::kTorus, Boundary::kWalls}) {
    all.push_back({random_state(700, 100, 5, 4, 11), World{100, 100, b}, 10});
    all.push_back({random_state(300, 25, 0, 0, 12), World{25, 25, b}, 10});  // under 3 cells
    all.push_back({random_state(2000, 100, 0, 0, 13), World{100, 100, b}, 0.7});
    all.push_back({random_state(400, 100, 3, 10, 16), World{100, 100, b}, 45});  // a page's top
    all.push_back({random_state(300, 100, 0, 0, 17), World{100, 100, b}, 1e300});
    World box{60, 60, b};
    box.depth = 60;
    all.push_back({box_state(900, 60, 14), box, 8});
    World small{20, 20, b};
    small.depth = 20;
    all.push_back({box_state(200, 20, 15), small, 9});
  }
  return all;
}

TEST(BoidMeasures, NeighbourCountsAreThoseOfAllPairs) {
  for (const Case& c : cases()) {
    const std::vector<std::uint32_t> counts = neighbor_counts(c.state, c.radius, c.world);
    ASSERT_EQ(counts.size(), c.state.size());
    std::size_t differ = 0;
    for (std::size_t i = 0; i < c.state.size(); ++i) {
      std::uint32_t direct = 0;
      for (std::size_t j = 0; j < c.state.size(); ++j)
        direct += j != i && distance(c.state, i, j, c.world) < c.radius;
      differ += counts[i] != direct;
    }
    EXPECT_EQ(differ, 0u) << c.state.dimensions << "D, " << to_string(c.world.boundary)
                          << ", radius " << c.radius;
  }
}

TEST(BoidMeasures, NeighbourCountsSumToTheMeanNeighbourCount) {
  const FlockState s = random_state(5000, 100, 8, 5, 21);
  const World world{100, 100, Boundary::kTorus};
  const std::vector<std::uint32_t> counts = neighbor_counts(s, 10, world);
  double sum = 0;
  for (const std::uint32_t c : counts) sum += c;
  EXPECT_NEAR(sum / 5000.0, mean_neighbor_count(s, 10, world), 1e-9);
}

// Flocks as the metrics count them: how many, the largest first, and two boids closer than
// the radius always in one flock; boids in one flock joined by a chain of such pairs.
TEST(BoidMeasures, FlockRanksAreTheMetricsFlocks) {
  for (const Case& c : cases()) {
    const std::vector<std::uint32_t> ranks = flock_ranks(c.state, c.radius, c.world);
    ASSERT_EQ(ranks.size(), c.state.size());
    std::map<std::uint32_t, std::uint64_t> sizes;
    for (const std::uint32_t r : ranks) sizes[r] += 1;
    FlockParams p;
    p.world = c.world;
    p.radius = c.radius;
    p.dimensions = c.state.dimensions;
    const auto flocks = [&]() -> FlockCount {
      if (c.state.dimensions == 2) return count_flocks(c.state, c.radius, c.world);
      const FlockMetrics box = measure_flock_3d(c.state, p);
      return {box.flocks, box.largest_flock};
    };
    const FlockCount m = flocks();
    EXPECT_EQ(sizes.size(), m.flocks);
    EXPECT_EQ(sizes.rbegin()->first + 1, sizes.size());  // ranks 0 .. flocks - 1
    EXPECT_EQ(sizes[0], m.largest);
    for (std::uint32_t r = 1; r < sizes.size(); ++r) EXPECT_LE(sizes[r], sizes[r - 1]);
    for (std::size_t i = 0; i < c.state.size(); ++i) {
      for (std::size_t j = i + 1; j < c.state.size(); ++j) {
        if (distance(c.state, i, j, c.world) < c.radius) {
          ASSERT_EQ(ranks[i], ranks[j]);
        }
      }
    }
  }
}

// A count stops at its bound; the boids below it keep their counts.
TEST(BoidMeasures, NeighbourCountsStopAtTheirBound) {
  const FlockState s = random_state(3000, 100, 4, 6, 22);
  const World world{100, 100, Boundary::kTorus};
  const std::vector<std::uint32_t> all = neighbor_counts(s, 12, world);
  MeasureLimits limits;
  limits.most_neighbors = 40;
  const std::vector<std::uint32_t> bounded = neighbor_counts(s, 12, world, limits);
  std::size_t at_bound = 0;
  for (std::size_t i = 0; i < s.size(); ++i) {
    EXPECT_EQ(bounded[i], std::min<std::uint32_t>(all[i], 40)) << i;
    at_bound += all[i] >= 40;
  }
  EXPECT_GT(at_bound, 100u);
  EXPECT_LT(at_bound, s.size());
}

TEST(BoidMeasures, ACancelledMeasureStops) {
  const FlockState s = random_state(2000, 100, 0, 0, 23);
  const World world{100, 100, Boundary::kTorus};
  std::atomic<bool> cancel{true};
  MeasureLimits limits;
  limits.cancelled = &cancel;
  EXPECT_THROW(neighbor_counts(s, 10, world, limits), MeasureCancelled);
  EXPECT_THROW(flock_ranks(s, 10, world, limits), MeasureCancelled);
  cancel = false;
  EXPECT_EQ(neighbor_counts(s, 10, world, limits), neighbor_counts(s, 10, world));
  EXPECT_EQ(flock_ranks(s, 10, world, limits), flock_ranks(s, 10, world));
}

TEST(BoidMeasures, AFlockOfNoneAndOfOne) {
  const World world{10, 10, Boundary::kTorus};
  EXPECT_TRUE(neighbor_counts(FlockState{}, 1, world).empty());
  EXPECT_TRUE(flock_ranks(FlockState{}, 1, world).empty());
  FlockState one = random_state(1, 10, 0, 0, 3);
  EXPECT_EQ(neighbor_counts(one, 1, world), std::vector<std::uint32_t>{0});
  EXPECT_EQ(flock_ranks(one, 1, world), std::vector<std::uint32_t>{0});
}

}  // namespace
}  // namespace boids
