// The flock metrics (host/metrics/metrics.h) on hand-computed cases, and against brute-force
// all-pairs versions written here on random states.
#include <gtest/gtest.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdint>
#include <limits>
#include <numeric>
#include <random>
#include <vector>

#include "host/metrics/metrics.h"
#include "host/model/flock.h"
#include "tests/support/test_support.h"

namespace boids {
namespace {

using test_support::make_state;
using test_support::random_state;

// Boids at rest at the given positions.
FlockState at(const std::vector<std::pair<double, double>>& positions) {
  FlockState s;
  for (const auto& [x, y] : positions) {
    s.x.push_back(x);
    s.y.push_back(y);
    s.vx.push_back(1);
    s.vy.push_back(0);
  }
  return s;
}

// ---------------------------------------------------------------------------------------
// Polarization

TEST(Polarization, AlignedBoidsGiveOne) {
  const FlockState s = make_state({{1, 1, 1, 0}, {2, 2, 3, 0}, {3, 3, 0.25, 0}, {4, 4, 1e6, 0}});
  EXPECT_DOUBLE_EQ(polarization(s), 1.0);
  const FlockState diagonal = make_state({{1, 1, 1, 1}, {2, 2, 2, 2}, {3, 3, 0.5, 0.5}});
  EXPECT_NEAR(polarization(diagonal), 1.0, 1e-15);
}

TEST(Polarization, OppositePairsGiveZero) {
  const FlockState s = make_state({{1, 1, 1, 0}, {2, 2, -2, 0}, {3, 3, 0, 3}, {4, 4, 0, -0.5}});
  EXPECT_NEAR(polarization(s), 0.0, 1e-15);
  const FlockState diagonal = make_state({{1, 1, 3, 4}, {2, 2, -6, -8}});
  EXPECT_NEAR(polarization(diagonal), 0.0, 1e-15);
}

TEST(Polarization, BoidAtRestAddsNothingButCounts) {
  // (1/2) |(1, 0) + (0, 0)| = 1/2.
  EXPECT_DOUBLE_EQ(polarization(make_state({{1, 1, 5, 0}, {2, 2, 0, 0}})), 0.5);
  // (1/4) |3 * (0, 1)| = 3/4.
  EXPECT_DOUBLE_EQ(
      polarization(make_state({{1, 1, 0, 2}, {2, 2, 0, 0}, {3, 3, 0, 1}, {4, 4, 0, 7}})), 0.75);
  EXPECT_EQ(polarization(make_state({{1, 1, 0, 0}})), 0.0);
  EXPECT_EQ(polarization(make_state({{1, 1, -0.0, 0.0}, {2, 2, 0, -0.0}})), 0.0);
}

TEST(Polarization, PerpendicularUnitVectors) {
  EXPECT_NEAR(polarization(make_state({{1, 1, 1, 0}, {2, 2, 0, 1}})), std::sqrt(2.0) / 2, 1e-15);
  EXPECT_NEAR(polarization(make_state({{1, 1, -4, 0}, {2, 2, 0, 0.1}})), std::sqrt(2.0) / 2, 1e-15);
}

TEST(Polarization, EmptyFlockIsZero) {
  EXPECT_EQ(polarization(FlockState{}), 0.0);
}

TEST(Polarization, ExtremeButFiniteSpeedsStillCount) {
  // Any finite velocity is a valid state; only a boid at rest adds nothing. Squaring these
  // speeds overflows or underflows, the unit vectors do not.
  const double huge = 1e200, tiny = std::numeric_limits<double>::denorm_min();
  EXPECT_NEAR(polarization(make_state({{1, 1, huge, 0}, {2, 2, 0, huge}})), std::sqrt(2.0) / 2,
              1e-15);
  EXPECT_NEAR(polarization(make_state({{1, 1, tiny, 0}, {2, 2, 1, 0}})), 1.0, 1e-15);
  EXPECT_NEAR(polarization(make_state({{1, 1, -huge, -huge}, {2, 2, 1e-310, 1e-310}})), 0.0, 1e-12);
}

TEST(Polarization, MatchesDirectSumOnRandomVelocities) {
  std::mt19937_64 rng(11);
  std::uniform_real_distribution<double> u(-3, 3);
  for (int n : {1, 2, 7, 100, 1000}) {
    FlockState s;
    double sx = 0, sy = 0;
    for (int i = 0; i < n; ++i) {
      const double vx = u(rng), vy = u(rng);
      s.x.push_back(0);
      s.y.push_back(0);
      s.vx.push_back(vx);
      s.vy.push_back(vy);
      const double speed = std::hypot(vx, vy);
      sx += vx / speed;
      sy += vy / speed;
    }
    EXPECT_NEAR(polarization(s), std::hypot(sx, sy) / n, 1e-12) << "n = " << n;
  }
}

// ---------------------------------------------------------------------------------------
// Flocks

TEST(Flocks, EmptyAndSingle) {
  const FlockCount none = count_flocks(FlockState{}, 10, 100);
  EXPECT_EQ(none.flocks, 0u);
  EXPECT_EQ(none.largest, 0u);
  const FlockCount one = count_flocks(at({{50, 50}}), 10, 100);
  EXPECT_EQ(one.flocks, 1u);
  EXPECT_EQ(one.largest, 1u);
}

TEST(Flocks, ChainIsOneFlock) {
  // Ten boids 5 apart on a line: only neighbours are linked (r = 6), yet links chain.
  std::vector<std::pair<double, double>> p;
  for (int i = 0; i < 10; ++i) p.push_back({5.0 + 5.0 * i, 50});
  const FlockCount c = count_flocks(at(p), 6, 100);
  EXPECT_EQ(c.flocks, 1u);
  EXPECT_EQ(c.largest, 10u);
  // A diagonal staircase chain as well.
  std::vector<std::pair<double, double>> q;
  for (int i = 0; i < 12; ++i) q.push_back({10.0 + 3.0 * i, 10.0 + 3.0 * i});  // 4.24 apart
  const FlockCount d = count_flocks(at(q), 4.5, 100);
  EXPECT_EQ(d.flocks, 1u);
  EXPECT_EQ(d.largest, 12u);
  const FlockCount broken = count_flocks(at(q), 4.2, 100);
  EXPECT_EQ(broken.flocks, 12u);
  EXPECT_EQ(broken.largest, 1u);
}

TEST(Flocks, PairsExactlyRApartAreNotLinked) {
  // 13 - 10 = 3 and 3 * 3 = 9 = r^2 exactly: d^2 < r^2 is false.
  const FlockCount c = count_flocks(at({{10, 50}, {13, 50}}), 3, 100);
  EXPECT_EQ(c.flocks, 2u);
  EXPECT_EQ(c.largest, 1u);
  // 3-4-5 triangle: d^2 = 25 = r^2.
  EXPECT_EQ(count_flocks(at({{10, 10}, {13, 14}}), 5, 100).flocks, 2u);
  // The same across the edge: 98 - 1 = 97, wrapped to -3.
  EXPECT_EQ(count_flocks(at({{1, 50}, {98, 50}}), 3, 100).flocks, 2u);
  // Just inside r they are linked.
  EXPECT_EQ(count_flocks(at({{10, 50}, {12.999, 50}}), 3, 100).flocks, 1u);
  EXPECT_EQ(count_flocks(at({{1, 50}, {98.001, 50}}), 3, 100).flocks, 1u);
}

TEST(Flocks, LinksAcrossTheTorusEdges) {
  EXPECT_EQ(count_flocks(at({{0.5, 50}, {99.5, 50}}), 2, 100).flocks, 1u);     // x edge
  EXPECT_EQ(count_flocks(at({{50, 0.5}, {50, 99.5}}), 2, 100).flocks, 1u);     // y edge
  EXPECT_EQ(count_flocks(at({{0.5, 0.5}, {99.5, 99.5}}), 2, 100).flocks, 1u);  // corner
  EXPECT_EQ(count_flocks(at({{0.5, 99.5}, {99.5, 0.5}}), 2, 100).flocks, 1u);  // other corner
  EXPECT_EQ(count_flocks(at({{0, 0}, {99.9, 99.9}, {0, 99.9}, {99.9, 0}}), 0.5, 100).largest, 4u);
  // Not linked through the middle of the world.
  EXPECT_EQ(count_flocks(at({{0.5, 50}, {50.5, 50}}), 2, 100).flocks, 2u);
}

TEST(Flocks, FewCellsPerAxisNeitherDoubleCountNorMiss) {
  // Radius 40 in a world of 100: fewer than 3 cells of width >= r per axis.
  // 10, 45, 80: 35 apart in turn and 30 apart across the edge; one flock of 3.
  FlockCount c = count_flocks(at({{10, 50}, {45, 50}, {80, 50}}), 40, 100);
  EXPECT_EQ(c.flocks, 1u);
  EXPECT_EQ(c.largest, 3u);
  // Two boids 50 apart in x and y: distance 70.7 > 40.
  c = count_flocks(at({{10, 10}, {60, 60}}), 40, 100);
  EXPECT_EQ(c.flocks, 2u);
  EXPECT_EQ(c.largest, 1u);
  // Linked only across the edge, in cells far apart in the grid.
  c = count_flocks(at({{1, 1}, {99, 99}, {50, 50}}), 40, 100);
  EXPECT_EQ(c.flocks, 2u);
  EXPECT_EQ(c.largest, 2u);
  // Each radius from one cell per axis to four, every placement of a few boids.
  for (double radius : {5.0,   10.0, 20.0,  25.0,  30.0, 33.0, 34.0, 36.4, 36.41, 40.0, 40.31,
                        40.32, 42.0, 43.01, 43.02, 44.0, 49.0, 50.0, 60.0, 75.0,  150.0}) {
    const FlockState s = at({{5, 5}, {95, 5}, {50, 5}, {5, 60}, {70, 70}});
    // Squared wrapped distances by hand, for A(5,5) B(95,5) C(50,5) D(5,60) E(70,70):
    // AB 10^2 = 100; DE 35^2 + 10^2 = 1325; CE 20^2 + 35^2 = 1625; BE 25^2 + 35^2 = 1850;
    // AC, BC, AD 45^2 = 2025; BD 10^2 + 45^2 = 2125; AE 35^2 + 35^2 = 2450; CD 45^2 + 45^2.
    const double r2 = radius * radius;
    std::uint64_t flocks, largest;
    if (r2 <= 100) {
      flocks = 5, largest = 1;
    } else if (r2 <= 1325) {
      flocks = 4, largest = 2;  // {A, B}
    } else if (r2 <= 1625) {
      flocks = 3, largest = 2;  // {A, B}, {D, E}, {C}
    } else if (r2 <= 1850) {
      flocks = 2, largest = 3;  // {A, B}, {C, D, E}
    } else {
      flocks = 1, largest = 5;  // BE joins them
    }
    c = count_flocks(s, radius, 100);
    EXPECT_EQ(c.flocks, flocks) << "radius " << radius;
    EXPECT_EQ(c.largest, largest) << "radius " << radius;
  }
}

TEST(Flocks, LargestFlock) {
  // Groups of 3, 5 and 1, far apart.
  const FlockState s = at({{10, 10},
                           {11, 10},
                           {12, 10},  // 3
                           {50, 50},
                           {50, 51},
                           {50, 52},
                           {51, 52},
                           {52, 52},    // 5
                           {80, 20}});  // 1
  const FlockCount c = count_flocks(s, 1.5, 100);
  EXPECT_EQ(c.flocks, 3u);
  EXPECT_EQ(c.largest, 5u);
  FlockParams params;
  params.radius = 1.5;
  const FlockMetrics m = measure_flock(s, params);
  EXPECT_EQ(m.flocks, 3u);
  EXPECT_EQ(m.largest_flock, 5u);
}

TEST(Flocks, CoincidentBoidsAreOneFlock) {
  const FlockCount c = count_flocks(at({{30, 30}, {30, 30}, {30, 30}, {70, 70}}), 1, 100);
  EXPECT_EQ(c.flocks, 2u);
  EXPECT_EQ(c.largest, 3u);
}

// ---------------------------------------------------------------------------------------
// Mean nearest-neighbour distance

TEST(NearestNeighbor, HandComputed) {
  EXPECT_EQ(mean_nearest_neighbor_distance(FlockState{}, 100), 0.0);
  EXPECT_EQ(mean_nearest_neighbor_distance(at({{50, 50}}), 100), 0.0);
  EXPECT_DOUBLE_EQ(mean_nearest_neighbor_distance(at({{10, 10}, {13, 14}}), 100), 5.0);
  // On a line at 0, 1, 3: nearest 1, 1, 2.
  EXPECT_DOUBLE_EQ(mean_nearest_neighbor_distance(at({{20, 50}, {21, 50}, {23, 50}}), 100),
                   4.0 / 3);
  // Wrapped: 0.5 and 99.5 are 1 apart; so are the corners.
  EXPECT_DOUBLE_EQ(mean_nearest_neighbor_distance(at({{0.5, 50}, {99.5, 50}}), 100), 1.0);
  EXPECT_NEAR(mean_nearest_neighbor_distance(at({{0.5, 0.5}, {99.5, 99.5}}), 100), std::sqrt(2.0),
              1e-12);
  // Farthest apart on the torus: half the diagonal.
  EXPECT_NEAR(mean_nearest_neighbor_distance(at({{0, 0}, {50, 50}}), 100), std::sqrt(2.0) * 50,
              1e-12);
  // A 10 x 10 lattice of spacing 10 wraps into a perfect lattice: every nearest is 10.
  std::vector<std::pair<double, double>> lattice;
  for (int i = 0; i < 10; ++i)
    for (int j = 0; j < 10; ++j) lattice.push_back({5.0 + 10 * i, 5.0 + 10 * j});
  EXPECT_NEAR(mean_nearest_neighbor_distance(at(lattice), 100), 10.0, 1e-12);
}

TEST(NearestNeighbor, CoincidentBoidsGiveZero) {
  EXPECT_EQ(mean_nearest_neighbor_distance(at({{30, 30}, {30, 30}}), 100), 0.0);
  EXPECT_EQ(mean_nearest_neighbor_distance(at({{0, 0}, {0, 0}, {0, 0}, {0, 0}}), 100), 0.0);
  // Two coincident (0 each) and a third 4 away from them: (0 + 0 + 4) / 3.
  EXPECT_DOUBLE_EQ(mean_nearest_neighbor_distance(at({{30, 30}, {30, 30}, {34, 30}}), 100),
                   4.0 / 3);
}

TEST(MeasureFlock, CombinesTheMetrics) {
  const FlockState s = make_state({{10, 10, 1, 0}, {13, 14, 0, 1}, {60, 60, 0, 0}});
  FlockParams params;
  params.radius = 6;
  params.world = test_support::square(100);
  const FlockMetrics m = measure_flock(s, params);
  EXPECT_NEAR(m.polarization, std::sqrt(2.0) / 3, 1e-15);
  EXPECT_EQ(m.flocks, 2u);
  EXPECT_EQ(m.largest_flock, 2u);
  // Nearest: 5, 5, and (60,60)-(13,14): sqrt(47^2 + 46^2).
  EXPECT_NEAR(m.mean_nn_distance, (5 + 5 + std::sqrt(47.0 * 47 + 46.0 * 46)) / 3, 1e-12);
}

// A ring of n boids of radius `r` about (cx, cy), each heading along it (anticlockwise), its
// positions wrapped onto a torus of side `side`, or none (side 0).
FlockState ring(int n, double cx, double cy, double r, double side) {
  FlockState s;
  for (int i = 0; i < n; ++i) {
    const double a = 2 * M_PI * i / n;
    double x = cx + r * std::cos(a), y = cy + r * std::sin(a);
    if (side > 0) {
      x = std::fmod(x + side, side);
      y = std::fmod(y + side, side);
    }
    s.x.push_back(x);
    s.y.push_back(y);
    s.vx.push_back(-2 * std::sin(a));
    s.vy.push_back(2 * std::cos(a));
  }
  return s;
}

TEST(Milling, IsOneForAMillAndZeroForAParallelGroup) {
  World walls{100, 100, Boundary::kWalls};
  EXPECT_NEAR(milling(ring(60, 50, 50, 20, 0), walls), 1, 1e-12);
  FlockState clockwise = ring(60, 50, 50, 20, 0);
  for (double& v : clockwise.vx) v = -v;
  for (double& v : clockwise.vy) v = -v;
  EXPECT_NEAR(milling(clockwise, walls), 1, 1e-12);  // a norm: either way round
  FlockState parallel = ring(60, 50, 50, 20, 0);
  for (std::size_t i = 0; i < parallel.size(); ++i) {
    parallel.vx[i] = 1;
    parallel.vy[i] = 0.5;
  }
  EXPECT_NEAR(milling(parallel, walls), 0, 1e-12);
  EXPECT_NEAR(polarization(ring(60, 50, 50, 20, 0)), 0, 1e-12);
}

TEST(Milling, FindsTheCentreOfAGroupAcrossTheTorusEdges) {
  // A ring about the corner of the torus: a plain mean position would lie at the world's middle
  // (about 0.9 about it); the circular mean puts it at the corner, about which it mills whole.
  const FlockState s = ring(80, 0, 0, 15, 100);
  EXPECT_NEAR(milling(s, World{100, 100, Boundary::kTorus}), 1, 1e-9);
  EXPECT_LT(milling(s, World{100, 100, Boundary::kWalls}), 0.95);
  EXPECT_NEAR(milling(ring(80, 50, 0, 15, 100), World{100, 100, Boundary::kTorus}), 1, 1e-9);
}

TEST(Milling, TakesTheCrossProductsNormInThreeDimensions) {
  // A ring in the plane x + y + z = const (tilted), each boid heading along it.
  FlockState s;
  s.dimensions = 3;
  const double e1[3] = {1 / std::sqrt(2.0), -1 / std::sqrt(2.0), 0};
  const double e2[3] = {1 / std::sqrt(6.0), 1 / std::sqrt(6.0), -2 / std::sqrt(6.0)};
  for (int i = 0; i < 50; ++i) {
    const double a = 2 * M_PI * i / 50, c = std::cos(a), t = std::sin(a);
    s.x.push_back(50 + 10 * (c * e1[0] + t * e2[0]));
    s.y.push_back(50 + 10 * (c * e1[1] + t * e2[1]));
    s.z.push_back(50 + 10 * (c * e1[2] + t * e2[2]));
    s.vx.push_back(-t * e1[0] + c * e2[0]);
    s.vy.push_back(-t * e1[1] + c * e2[1]);
    s.vz.push_back(-t * e1[2] + c * e2[2]);
  }
  FlockParams p;
  p.dimensions = 3;
  p.world = World{100, 100, Boundary::kTorus, 100};
  EXPECT_NEAR(milling(s, p.world), 1, 1e-12);
  EXPECT_NEAR(measure_flock(s, p).milling, 1, 1e-12);
}

// ---------------------------------------------------------------------------------------
// Against brute force

// |d| on a ring of circumference `world`, for |d| < world.
double ring_distance(double a, double b, double world) {
  const double d = std::fabs(a - b);
  return std::min(d, world - d);
}

double brute_distance_sq(const FlockState& s, std::size_t i, std::size_t j, const World& world) {
  const double dx =
      world.torus() ? ring_distance(s.x[i], s.x[j], world.width) : std::fabs(s.x[i] - s.x[j]);
  const double dy =
      world.torus() ? ring_distance(s.y[i], s.y[j], world.height) : std::fabs(s.y[i] - s.y[j]);
  return dx * dx + dy * dy;
}

double brute_distance_sq(const FlockState& s, std::size_t i, std::size_t j, double world) {
  return brute_distance_sq(s, i, j, test_support::square(world));
}

double brute_mean_neighbors(const FlockState& s, double radius, const World& world) {
  double pairs = 0;
  for (std::size_t i = 0; i < s.size(); ++i)
    for (std::size_t j = 0; j < s.size(); ++j)
      if (j != i && brute_distance_sq(s, i, j, world) < radius * radius) pairs += 1;
  return pairs / static_cast<double>(s.size());
}

FlockCount brute_flocks(const FlockState& s, double radius, const World& world) {
  const std::size_t n = s.size();
  // Labels spread by repeated relaxation over all pairs until nothing changes.
  std::vector<std::size_t> label(n);
  std::iota(label.begin(), label.end(), std::size_t{0});
  std::vector<std::vector<std::size_t>> adjacent(n);
  for (std::size_t i = 0; i < n; ++i)
    for (std::size_t j = i + 1; j < n; ++j)
      if (brute_distance_sq(s, i, j, world) < radius * radius) {
        adjacent[i].push_back(j);
        adjacent[j].push_back(i);
      }
  std::vector<bool> seen(n, false);
  FlockCount result{0, 0};
  for (std::size_t start = 0; start < n; ++start) {
    if (seen[start]) continue;
    ++result.flocks;
    std::uint64_t size = 0;
    std::vector<std::size_t> stack = {start};
    seen[start] = true;
    while (!stack.empty()) {
      const std::size_t i = stack.back();
      stack.pop_back();
      ++size;
      for (std::size_t j : adjacent[i])
        if (!seen[j]) {
          seen[j] = true;
          stack.push_back(j);
        }
    }
    result.largest = std::max(result.largest, size);
  }
  return result;
}

double brute_mean_nn(const FlockState& s, const World& world) {
  const std::size_t n = s.size();
  if (n < 2) return 0;
  double sum = 0;
  for (std::size_t i = 0; i < n; ++i) {
    double best = std::numeric_limits<double>::infinity();
    for (std::size_t j = 0; j < n; ++j)
      if (j != i) best = std::min(best, brute_distance_sq(s, i, j, world));
    sum += std::sqrt(best);
  }
  return sum / static_cast<double>(n);
}

FlockCount brute_flocks(const FlockState& s, double radius, double world) {
  return brute_flocks(s, radius, test_support::square(world));
}

double brute_mean_nn(const FlockState& s, double world) {
  return brute_mean_nn(s, test_support::square(world));
}

struct Layout {
  std::size_t n;
  double world;
  int clumps;
  double spread;
};

const Layout kLayouts[] = {
    {2, 100, 0, 0},   {3, 100, 0, 0},     {5, 100, 0, 0},    {17, 100, 0, 0},
    {60, 100, 0, 0},  {300, 100, 0, 0},   {1000, 100, 0, 0}, {2500, 100, 0, 0},
    {50, 100, 3, 2},  {400, 100, 5, 1},   {1500, 100, 4, 3}, {1500, 100, 2, 15},
    {800, 7.5, 0, 0}, {800, 7.5, 3, 0.2}, {600, 1e4, 6, 30}, {900, 100, 1, 0.01}};

TEST(BruteForce, CountFlocksMatchesAllPairs) {
  std::uint64_t seed = 1;
  for (const Layout& layout : kLayouts) {
    const FlockState s = random_state(layout.n, layout.world, layout.clumps, layout.spread, seed++);
    for (double fraction : {0.001, 0.01, 0.03, 0.08, 0.2, 0.33, 0.34, 0.4, 0.5, 0.7, 1.5}) {
      const double radius = fraction * layout.world;
      const FlockCount expected = brute_flocks(s, radius, layout.world);
      const FlockCount got = count_flocks(s, radius, layout.world);
      EXPECT_EQ(got.flocks, expected.flocks) << "n " << layout.n << " world " << layout.world
                                             << " clumps " << layout.clumps << " radius " << radius;
      EXPECT_EQ(got.largest, expected.largest)
          << "n " << layout.n << " world " << layout.world << " clumps " << layout.clumps
          << " radius " << radius;
    }
  }
}

TEST(BruteForce, CountFlocksAtTheRadiusOfTheNearestPairs) {
  // Radii equal to actual pair distances (squared distances right at r^2) exercise the strict
  // comparison on random data.
  const FlockState s = random_state(200, 100, 0, 0, 99);
  std::mt19937_64 rng(5);
  for (int trial = 0; trial < 20; ++trial) {
    const std::size_t i = rng() % s.size(), j = rng() % s.size();
    if (i == j) continue;
    const double radius = std::sqrt(brute_distance_sq(s, i, j, 100));
    const FlockCount expected = brute_flocks(s, radius, 100);
    const FlockCount got = count_flocks(s, radius, 100);
    EXPECT_EQ(got.flocks, expected.flocks) << "radius " << radius;
    EXPECT_EQ(got.largest, expected.largest) << "radius " << radius;
  }
}

TEST(BruteForce, MeanNearestNeighborMatchesAllPairs) {
  std::uint64_t seed = 100;
  for (const Layout& layout : kLayouts) {
    const FlockState s = random_state(layout.n, layout.world, layout.clumps, layout.spread, seed++);
    const double expected = brute_mean_nn(s, layout.world);
    EXPECT_NEAR(mean_nearest_neighbor_distance(s, layout.world), expected, 1e-12 * expected)
        << "n " << layout.n << " world " << layout.world << " clumps " << layout.clumps;
  }
}

TEST(BruteForce, MeanNeighborCountMatchesAllPairs) {
  std::uint64_t seed = 300;
  for (const Layout& layout : kLayouts) {
    if (layout.n > 1500) continue;  // all pairs, twice
    const FlockState s = random_state(layout.n, layout.world, layout.clumps, layout.spread, seed++);
    for (double fraction : {0.001, 0.01, 0.03, 0.08, 0.2, 0.33, 0.4, 0.7}) {
      const double radius = fraction * layout.world;
      const World world = test_support::square(layout.world);
      EXPECT_EQ(mean_neighbor_count(s, radius, world), brute_mean_neighbors(s, radius, world))
          << "n " << layout.n << " world " << layout.world << " clumps " << layout.clumps
          << " radius " << radius;
    }
  }
}

// Rectangles, on a torus and between walls: every metric against all pairs.
TEST(BruteForce, RectanglesAndWalls) {
  std::uint64_t seed = 500;
  for (const Boundary boundary : {Boundary::kTorus, Boundary::kWalls}) {
    for (const auto& [width, height] : {std::pair{100.0, 40.0}, std::pair{30.0, 200.0}}) {
      const World world{width, height, boundary};
      for (const int clumps : {0, 4}) {
        FlockState s = random_state(900, 1, clumps, 0.03, seed++);
        for (std::size_t i = 0; i < s.size(); ++i) {  // the unit square stretched to the world
          s.x[i] *= width;
          s.y[i] *= height;
        }
        for (const double radius : {0.5, 3.0, 9.0, 25.0}) {
          const std::string what = to_string(boundary) + " " + std::to_string(width) + "x" +
                                   std::to_string(height) + " clumps " + std::to_string(clumps) +
                                   " radius " + std::to_string(radius);
          const FlockCount expected = brute_flocks(s, radius, world);
          const FlockCount got = count_flocks(s, radius, world);
          EXPECT_EQ(got.flocks, expected.flocks) << what;
          EXPECT_EQ(got.largest, expected.largest) << what;
          EXPECT_EQ(mean_neighbor_count(s, radius, world), brute_mean_neighbors(s, radius, world))
              << what;
        }
        const double nn = brute_mean_nn(s, world);
        EXPECT_NEAR(mean_nearest_neighbor_distance(s, world), nn, 1e-12 * nn)
            << to_string(boundary) << " " << width << "x" << height;
      }
    }
  }
}

TEST(OrderParameter, HandComputed) {
  const FlockState s = make_state({{1, 1, 1, 0}, {2, 2, 0, 1}, {3, 3, -1, 0}, {4, 4, 0, 0.5}});
  // Sum of velocities (0, 1.5) over 4 boids at v_max 2.
  EXPECT_DOUBLE_EQ(order_parameter(s, 2.0), 1.5 / 8);
  EXPECT_EQ(order_parameter(FlockState{}, 1.0), 0.0);
}

TEST(BruteForce, MeasureFlockMatchesAllPairs) {
  const FlockState s = random_state(700, 100, 3, 5, 4242);
  FlockParams params;
  params.radius = 4;
  const FlockMetrics m = measure_flock(s, params);
  const FlockCount flocks = brute_flocks(s, 4, 100);
  EXPECT_EQ(m.flocks, flocks.flocks);
  EXPECT_EQ(m.largest_flock, flocks.largest);
  EXPECT_NEAR(m.mean_nn_distance, brute_mean_nn(s, 100), 1e-12);
  EXPECT_NEAR(m.polarization, polarization(s), 0);
}

// ---------------------------------------------------------------------------------------
// A million boids: the metrics' passes at scale, in the default build. Under the sanitizers a
// million boids (31,000 neighbours each in the first) take a minute apiece, for the same code
// the flocks above run through under them.

#if defined(BOIDS_SANITIZED)
#define BOIDS_SKIP_A_MILLION() \
  GTEST_SKIP() << "a million boids are the default build's: minutes under the sanitizers"
#else
#define BOIDS_SKIP_A_MILLION() static_cast<void>(0)
#endif

void measure_million(const FlockState& s, const FlockParams& params, const char* what) {
  const auto start = std::chrono::steady_clock::now();
  const FlockMetrics m = measure_flock(s, params);
  const double seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  std::printf("%s: %.3f s (polarization %.4f, %llu flocks, largest %llu, mean NN %.5f)\n", what,
              seconds, m.polarization, static_cast<unsigned long long>(m.flocks),
              static_cast<unsigned long long>(m.largest_flock), m.mean_nn_distance);
  EXPECT_GE(m.flocks, 1u);
  EXPECT_LE(m.largest_flock, s.size());
  EXPECT_GT(m.mean_nn_distance, 0);
}

TEST(Million, UniformDefaultParameters) {
  BOIDS_SKIP_A_MILLION();
  const FlockState s = random_state(1000000, 100, 0, 0, 7);
  measure_million(s, FlockParams{}, "1M uniform, r 10, L 100");
}

TEST(Million, UniformSmallRadius) {
  BOIDS_SKIP_A_MILLION();
  const FlockState s = random_state(1000000, 1000, 0, 0, 8);
  FlockParams params;
  params.world = test_support::square(1000);
  params.radius = 1;
  measure_million(s, params, "1M uniform, r 1, L 1000");
}

TEST(Million, Clumped) {
  BOIDS_SKIP_A_MILLION();
  const FlockState s = random_state(1000000, 1000, 20, 10, 9);
  FlockParams params;
  params.world = test_support::square(1000);
  measure_million(s, params, "1M in 20 clumps, r 10, L 1000");
}

}  // namespace
}  // namespace boids
