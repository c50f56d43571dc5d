// The random start: ranges, speeds, independence of boids, seeds and threads, uniformity.
#include <gtest/gtest.h>
#include <omp.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <cstddef>
#include <cstdint>

#include "host/base/errors.h"
#include "host/model/flock.h"
#include "host/model/initial_state.h"
#include "tests/support/test_support.h"

namespace boids {
namespace {

constexpr double kPi = 3.14159265358979323846;

FlockParams params(double world, double max_speed) {
  FlockParams p;
  p.world = test_support::square(world);
  p.max_speed = max_speed;
  return p;
}

std::size_t differing_numbers(const FlockState& a, const FlockState& b, std::size_t count) {
  std::size_t differ = 0;
  for (std::size_t i = 0; i < count; ++i) {
    differ += static_cast<std::size_t>(a.x[i] != b.x[i]) + (a.y[i] != b.y[i]) +
              (a.vx[i] != b.vx[i]) + (a.vy[i] != b.vy[i]);
  }
  return differ;
}

// Restores the OpenMP thread count a test changed.
class ThreadCount {
 public:
  ThreadCount() : saved_(omp_get_max_threads()) {}
  ~ThreadCount() { omp_set_num_threads(saved_); }

 private:
  int saved_;
};

TEST(InitialStateTest, HasTheRequestedNumberOfBoids) {
  for (std::uint64_t n : {1u, 2u, 7u, 1000u}) {
    const FlockState s = make_initial_state(n, 42, FlockParams{});
    EXPECT_EQ(s.size(), n);
    EXPECT_EQ(s.y.size(), n);
    EXPECT_EQ(s.vx.size(), n);
    EXPECT_EQ(s.vy.size(), n);
  }
}

TEST(InitialStateTest, PositionsAreInsideTheWorld) {
  for (double world : {100.0, 37.5, 3.0, 1e-3, 1e6}) {
    const FlockState s = make_initial_state(20000, 7, params(world, 1.0));
    for (std::size_t i = 0; i < s.size(); ++i) {
      ASSERT_TRUE(s.x[i] >= 0.0 && s.x[i] < world)
          << "world " << world << " boid " << i << " x " << s.x[i];
      ASSERT_TRUE(s.y[i] >= 0.0 && s.y[i] < world)
          << "world " << world << " boid " << i << " y " << s.y[i];
    }
  }
}

TEST(InitialStateTest, SpeedsAreMaxSpeed) {
  for (double vmax : {1.0, 2.5, 0.001, 7e3}) {
    const FlockState s = make_initial_state(20000, 11, params(100.0, vmax));
    for (std::size_t i = 0; i < s.size(); ++i) {
      const double speed = std::sqrt(s.vx[i] * s.vx[i] + s.vy[i] * s.vy[i]);
      ASSERT_NEAR(speed, vmax, 1e-15 * vmax) << "v_max " << vmax << " boid " << i;
    }
  }
}

TEST(InitialStateTest, BoidDependsOnlyOnSeedAndIndex) {
  const FlockParams p;
  const FlockState big = make_initial_state(5000, 99, p);
  for (std::uint64_t n : {1u, 10u, 1234u}) {
    const FlockState small = make_initial_state(n, 99, p);
    EXPECT_EQ(differing_numbers(small, big, n), 0u) << "first " << n << " boids";
  }
}

TEST(InitialStateTest, SameSeedSameFlock) {
  const FlockParams p;
  EXPECT_EQ(differing_numbers(make_initial_state(3000, 5, p), make_initial_state(3000, 5, p), 3000),
            0u);
}

TEST(InitialStateTest, DifferentSeedsDiffer) {
  const FlockParams p;
  const std::uint64_t seeds[] = {
      0, 1, 2, 42, 43, 0xffffffffULL, 0x100000000ULL, 0xffffffffffffffffULL};
  for (std::uint64_t a : seeds) {
    for (std::uint64_t b : seeds) {
      if (a == b) continue;
      const FlockState sa = make_initial_state(1000, a, p), sb = make_initial_state(1000, b, p);
      // Independent draws coincide with probability about 2^-53 per number.
      EXPECT_EQ(differing_numbers(sa, sb, 1000), 4000u) << "seeds " << a << " and " << b;
    }
  }
}

TEST(InitialStateTest, BoidsOfOneFlockDiffer) {
  const FlockState s = make_initial_state(1000, 3, FlockParams{});
  for (std::size_t i = 1; i < s.size(); ++i) {
    EXPECT_NE(s.x[i], s.x[i - 1]);
    EXPECT_NE(s.x[i], s.y[i]);
    EXPECT_NE(s.vx[i], s.vx[i - 1]);
  }
}

TEST(InitialStateTest, IndependentOfTheThreadCount) {
  const ThreadCount restore;
  const FlockParams p;
  omp_set_num_threads(1);
  const FlockState one = make_initial_state(100003, 8, p);
  for (int threads : {2, 3, 8}) {
    omp_set_num_threads(threads);
    const FlockState many = make_initial_state(100003, 8, p);
    EXPECT_EQ(differing_numbers(one, many, one.size()), 0u) << threads << " threads";
  }
}

TEST(InitialStateTest, RandomUnitIsInTheHalfOpenUnitInterval) {
  double sum = 0;
  const int n = 100000;
  for (int i = 0; i < n; ++i) {
    const double u = random_unit(17, static_cast<std::uint64_t>(i), 0);
    ASSERT_GE(u, 0.0);
    ASSERT_LT(u, 1.0);
    sum += u;
  }
  // Mean of n uniforms: standard deviation sqrt(1 / (12 n)), about 0.0009.
  EXPECT_NEAR(sum / n, 0.5, 5 * std::sqrt(1.0 / (12.0 * n)));
}

TEST(InitialStateTest, HeadingsAndPositionsAreRoughlyUniform) {
  const std::size_t n = 100000;
  const double world = 100.0;
  const FlockState s = make_initial_state(n, 2024, params(world, 2.0));
  const double nd = static_cast<double>(n);

  // Mean heading: each component of a uniform unit vector has variance 1/2, so each
  // component of the mean has standard deviation sqrt(1 / (2 n)), about 0.0022.
  double hx = 0, hy = 0, px = 0, py = 0;
  std::array<std::size_t, 4> quadrant{};
  constexpr int kSectors = 24;
  std::array<std::size_t, kSectors> sector{};
  std::array<std::size_t, 10> column{};
  for (std::size_t i = 0; i < n; ++i) {
    hx += s.vx[i] / 2.0;
    hy += s.vy[i] / 2.0;
    px += s.x[i];
    py += s.y[i];
    quadrant[(s.vx[i] < 0 ? 1 : 0) + (s.vy[i] < 0 ? 2 : 0)] += 1;
    // Equal angular sectors: a heading drawn from the square instead of the disc, or biased
    // toward the axes or diagonals, would unbalance them.
    const double angle = std::atan2(s.vy[i], s.vx[i]) + kPi;  // [0, 2 pi]
    const int k = static_cast<int>(angle / (2 * kPi) * kSectors);
    sector[k < kSectors ? k : kSectors - 1] += 1;
    column[std::min<std::size_t>(static_cast<std::size_t>(s.x[i] / world * 10), 9)] += 1;
  }
  const double sigma_mean = std::sqrt(1.0 / (2.0 * nd));
  EXPECT_NEAR(hx / nd, 0.0, 5 * sigma_mean);
  EXPECT_NEAR(hy / nd, 0.0, 5 * sigma_mean);
  EXPECT_LT(std::hypot(hx / nd, hy / nd), 5 * sigma_mean);

  // Binomial counts: expected n p, standard deviation sqrt(n p (1 - p)); allow 5 sigma.
  const auto expect_balanced = [nd](const auto& counts, const char* what) {
    const double p = 1.0 / static_cast<double>(counts.size());
    const double sigma = std::sqrt(nd * p * (1 - p));
    for (std::size_t k = 0; k < counts.size(); ++k) {
      EXPECT_NEAR(static_cast<double>(counts[k]), nd * p, 5 * sigma) << what << " " << k;
    }
  };
  expect_balanced(quadrant, "quadrant");
  expect_balanced(sector, "sector");
  expect_balanced(column, "x column");

  // Mean position: uniform on [0, L) has standard deviation L / sqrt(12).
  const double sigma_position = world / std::sqrt(12.0 * nd);
  EXPECT_NEAR(px / nd, world / 2, 5 * sigma_position);
  EXPECT_NEAR(py / nd, world / 2, 5 * sigma_position);
}

}  // namespace
}  // namespace boids

TEST(InitialStateTest, APredatorsSpeedIsSaidWithoutOverflow) {
  // A velocity of 1e300 moves at about 1.4e300, not at "inf" (its square overflows).
  boids::FlockParams params;
  params.predators = 1;
  boids::Particles predator;
  predator.x = {50};
  predator.y = {50};
  predator.vx = {1e300};
  predator.vy = {1e300};
  try {
    boids::check_predator_state(predator, params);
    ADD_FAILURE() << "a predator at 1e300 was taken";
  } catch (const boids::InputError& e) {
    EXPECT_NE(std::string(e.what()).find("predator 0 moves at speed 1.414"), std::string::npos)
        << e.what();
  }
}
