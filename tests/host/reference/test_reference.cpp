// The reference stepper against trajectories computed by hand from the published step's formulas.
//
// Every expected value is written as the published step's arithmetic for that particular
// configuration, in its order: v += ((w_s k_s) s + (w_a k_a)(a / n - v)) + (w_c k_c)(c / n), then
// the clamp chosen by hand (asserted), then x += v and one wrap. The project compiles without
// floating-point contraction, so these expressions round exactly as the published model does
// and the comparisons are exact (EXPECT_EQ on doubles, sign of zero included).
#include <gtest/gtest.h>

#include <cmath>
#include <cstddef>
#include <cstdint>
#include <initializer_list>
#include <random>
#include <utility>
#include <vector>

#include "host/model/flock.h"
#include "host/model/initial_state.h"
#include "host/reference/reference.h"
#include "tests/support/test_support.h"

namespace boids {
namespace {

using test_support::make_state;

// The published step's fixed gains, restated so that the test does not read them from the code
// under test.
constexpr double kSep = 0.05;
constexpr double kAli = 0.05;
constexpr double kCoh = 0.005;

struct B {
  double x, y, vx, vy;
};

FlockParams params(double radius = 10.0, double max_speed = 1.0) {
  FlockParams p;  // separation 1.5, alignment 1, cohesion 1, world 100
  p.radius = radius;
  p.max_speed = max_speed;
  return p;
}

FlockState stepped(FlockState s, const FlockParams& p, int steps = 1) {
  ReferenceStepper stepper;
  for (int i = 0; i < steps; ++i) stepper.step(s, p);
  return s;
}

// Exact equality of a double, sign of zero included (EXPECT_EQ alone treats -0 == +0).
#define EXPECT_SAME(actual, expected)                                   \
  do {                                                                  \
    EXPECT_EQ(actual, expected);                                        \
    EXPECT_EQ(std::signbit(actual), std::signbit(expected)) << #actual; \
  } while (0)

void expect_boid(const FlockState& s, std::size_t i, const B& e) {
  SCOPED_TRACE("boid " + std::to_string(i));
  EXPECT_SAME(s.x[i], e.x);
  EXPECT_SAME(s.y[i], e.y);
  EXPECT_SAME(s.vx[i], e.vx);
  EXPECT_SAME(s.vy[i], e.vy);
}

void expect_same_state(const FlockState& a, const FlockState& b) {
  ASSERT_EQ(a.size(), b.size());
  for (std::size_t i = 0; i < a.size(); ++i) expect_boid(a, i, {b.x[i], b.y[i], b.vx[i], b.vy[i]});
}

double speed_of(double vx, double vy) {
  return std::sqrt(vx * vx + vy * vy);
}

// The mirror image across the diagonal. Every operation of the step is per axis or symmetric
// in the axes (a + b == b + a exactly), so stepping commutes with it bit for bit: the checks
// made along x carry over to y.
FlockState transposed(FlockState s) {
  std::swap(s.x, s.y);
  std::swap(s.vx, s.vy);
  return s;
}

TEST(ReferenceTest, LoneBoidFliesStraight) {
  // 0.375^2 + 0.5^2 = 0.625^2 exactly: inside [0.5, 1], so never rescaled.
  FlockState s = make_state({{50, 50, 0.375, 0.5}});
  expect_boid(stepped(s, params(), 1), 0, {50.375, 50.5, 0.375, 0.5});
  expect_boid(stepped(s, params(), 3), 0, {51.125, 51.5, 0.375, 0.5});
}

TEST(ReferenceTest, SpeedAboveMaxIsScaledToMax) {
  FlockState s = make_state({{20, 20, 3, 4}});  // speed 5
  const double vx = 3.0 / 5.0 * 1.0, vy = 4.0 / 5.0 * 1.0;
  expect_boid(stepped(s, params()), 0, {20.0 + vx, 20.0 + vy, vx, vy});
  const double fx = 3.0 / 5.0 * 2.0, fy = 4.0 / 5.0 * 2.0;
  expect_boid(stepped(s, params(10.0, 2.0)), 0, {20.0 + fx, 20.0 + fy, fx, fy});
}

TEST(ReferenceTest, SpeedExactlyMaxOrHalfMaxIsKept) {
  // 0.75^2 + 1^2 = 1.25^2 and 0.375^2 + 0.5^2 = 0.625^2, exactly.
  const FlockParams p = params(10.0, 1.25);
  expect_boid(stepped(make_state({{20, 20, 0.75, 1.0}}), p), 0, {20.75, 21.0, 0.75, 1.0});
  expect_boid(stepped(make_state({{20, 20, 0.375, 0.5}}), p), 0, {20.375, 20.5, 0.375, 0.5});
  // 7-24-25: rescaling by 25 / 25 would change the last bit, so keeping is visible.
  ASSERT_TRUE(7.0 / 25.0 * 25.0 != 7.0 || 24.0 / 25.0 * 25.0 != 24.0);
  expect_boid(stepped(make_state({{20, 20, 7, 24}}), params(10.0, 25.0)), 0, {27, 44, 7, 24});
  expect_boid(stepped(make_state({{20, 20, 7, 24}}), params(10.0, 50.0)), 0, {27, 44, 7, 24});
}

TEST(ReferenceTest, SpeedJustOutsideTheRangeIsRescaled) {
  // sqrt(v * v) is |v| exactly: one ulp above v_max, or one ulp below v_max / 2.
  const double above = std::nextafter(1.0, 2.0), below = std::nextafter(0.5, 0.0);
  expect_boid(stepped(make_state({{20, 20, above, 0}}), params()), 0,
              {20.0 + above / above * 1.0, 20, above / above * 1.0, 0.0 / above * 1.0});
  expect_boid(stepped(make_state({{20, 20, 0, -below}}), params()), 0,
              {20, 20.0 + -below / below * 0.5, 0.0 / below * 0.5, -below / below * 0.5});
}

TEST(ReferenceTest, SpeedBelowHalfMaxIsRaisedToHalfMax) {
  // Speed 0.3125 exactly, below v_max / 2 = 0.5.
  ASSERT_EQ(speed_of(0.1875, 0.25), 0.3125);
  const double vx = 0.1875 / 0.3125 * 0.5, vy = 0.25 / 0.3125 * 0.5;
  expect_boid(stepped(make_state({{20, 20, 0.1875, 0.25}}), params()), 0,
              {20.0 + vx, 20.0 + vy, vx, vy});
}

TEST(ReferenceTest, SpeedThatOverflowsIsClampedAlongItsDirection) {
  // 1e200^2 overflows, and the published step's speed would be +inf, which zeroes the velocity. The
  // speed is taken of the velocity scaled by 2^-600 instead (exact), and clamped to v_max.
  const double u = 1e200 * 0x1.0p-600;
  const double speed = std::sqrt(u * u + u * u);
  const double v = u / speed * 1.0;
  expect_boid(stepped(make_state({{90, 30, 1e200, -1e200}}), params()), 0, {90 + v, 30 - v, v, -v});
  // Every model that clamps or normalises keeps the direction.
  for (const Model model : {Model::kBoids, Model::kSteering, Model::kVicsek}) {
    SCOPED_TRACE(to_string(model));
    FlockParams p = params();
    p.model = model;
    p.world.boundary = Boundary::kTorus;
    p.noise = model == Model::kBoids ? 0.5 : 0.0;  // the variants' step, not the published one
    const FlockState after = stepped(make_state({{50, 50, 3e250, 4e250}, {10, 10, -1e-170, 0}}), p);
    const double vmax = p.max_speed;
    if (model != Model::kBoids) {
      EXPECT_NEAR(after.vx[0], 0.6 * vmax, 1e-12 * vmax);
      EXPECT_NEAR(after.vy[0], 0.8 * vmax, 1e-12 * vmax);
    } else {
      EXPECT_NEAR(std::hypot(after.vx[0], after.vy[0]), vmax, 1e-12 * vmax);
    }
    for (double value :
         {after.x[0], after.y[0], after.vx[1], after.vy[1], after.x[1], after.y[1]}) {
      EXPECT_TRUE(std::isfinite(value));
    }
    EXPECT_TRUE(after.x[1] >= 0 && after.x[1] < p.world.width);
  }
}

TEST(ReferenceTest, BoidAtRestStaysAtRest) {
  // Speed 0 is neither above v_max nor inside (0, v_max / 2): no division, no NaN.
  const FlockState s = make_state({{40, 60, 0, 0}, {70, 30, -0.0, -0.0}, {70, 50, 5e-324, 0}});
  const FlockState after = stepped(s, params(), 5);
  expect_boid(after, 0, {40, 60, 0.0, 0.0});
  expect_boid(after, 1, {70, 30, -0.0, -0.0});
  // A subnormal velocity squares to 0: speed 0, kept as is, and too small to move the boid.
  expect_boid(after, 2, {70, 50, 5e-324, 0.0});
}

TEST(ReferenceTest, BoidAtRestIsSteeredByNeighbor) {
  // Two boids at rest 3 apart: neighbours, and closer than r / 2 = 5, so they push apart.
  const FlockState after = stepped(make_state({{30, 30, 0, 0}, {33, 30, 0, 0}}), params());
  const double d2 = 3.0 * 3.0 + 0.0 * 0.0;
  double vx0 =
      0.0 + (1.5 * kSep * (0.0 - 3.0 / d2) + 1.0 * kAli * (0.0 / 1 - 0.0) + 1.0 * kCoh * (3.0 / 1));
  double vy0 =
      0.0 + (1.5 * kSep * (0.0 - 0.0 / d2) + 1.0 * kAli * (0.0 / 1 - 0.0) + 1.0 * kCoh * (0.0 / 1));
  double vx1 = 0.0 + (1.5 * kSep * (0.0 + 3.0 / d2) + 1.0 * kAli * (0.0 / 1 - 0.0) +
                      1.0 * kCoh * ((0.0 - 3.0) / 1));
  double vy1 = vy0;
  const double speed0 = speed_of(vx0, vy0), speed1 = speed_of(vx1, vy1);
  ASSERT_GT(speed0, 0.0);
  ASSERT_LT(speed0, 0.5);
  ASSERT_GT(speed1, 0.0);
  ASSERT_LT(speed1, 0.5);
  vx0 = vx0 / speed0 * 0.5;
  vy0 = vy0 / speed0 * 0.5;
  vx1 = vx1 / speed1 * 0.5;
  vy1 = vy1 / speed1 * 0.5;
  // sqrt(v * v) is |v| exactly, so they leave along the x axis at exactly v_max / 2.
  EXPECT_EQ(vx0, -0.5);
  EXPECT_EQ(vx1, 0.5);
  expect_boid(after, 0, {30.0 + vx0, 30.0 + vy0, vx0, vy0});
  expect_boid(after, 1, {33.0 + vx1, 30.0 + vy1, vx1, vy1});
}

TEST(ReferenceTest, CoincidentBoidsAreNeighborsWithoutSeparation) {
  const FlockState s = make_state({{10, 10, 0.5, 0}, {10, 10, 0, 0.7}});
  // Offset 0: counted (alignment acts), but no separation, whatever its weight.
  double vx0 = 0.5 + (1.5 * kSep * 0.0 + 1.0 * kAli * (0.0 / 1 - 0.5) + 1.0 * kCoh * (0.0 / 1));
  double vy0 = 0.0 + (1.5 * kSep * 0.0 + 1.0 * kAli * (0.7 / 1 - 0.0) + 1.0 * kCoh * (0.0 / 1));
  const double vx1 =
      0.0 + (1.5 * kSep * 0.0 + 1.0 * kAli * (0.5 / 1 - 0.0) + 1.0 * kCoh * (0.0 / 1));
  const double vy1 =
      0.7 + (1.5 * kSep * 0.0 + 1.0 * kAli * (0.0 / 1 - 0.7) + 1.0 * kCoh * (0.0 / 1));
  const double speed0 = speed_of(vx0, vy0);
  ASSERT_LT(speed0, 0.5);
  vx0 = vx0 / speed0 * 0.5;
  vy0 = vy0 / speed0 * 0.5;
  ASSERT_GE(speed_of(vx1, vy1), 0.5);
  ASSERT_LE(speed_of(vx1, vy1), 1.0);

  const FlockState after = stepped(s, params());
  expect_boid(after, 0, {10.0 + vx0, 10.0 + vy0, vx0, vy0});
  expect_boid(after, 1, {10.0 + vx1, 10.0 + vy1, vx1, vy1});
  FlockParams strong = params();
  strong.separation = 1000;
  expect_same_state(stepped(s, strong), after);
}

TEST(ReferenceTest, OffsetWhoseSquareUnderflowsIsANeighborWithoutSeparation) {
  // dx = 5e-324 squares to 0: neighbours, and d2 > 0 fails, so no separation.
  const FlockState s = make_state({{0, 60, 0.5, 0.25}, {5e-324, 60, -0.5, 0}});
  const double dx = 5e-324 - 0.0;
  ASSERT_EQ(dx * dx + 0.0 * 0.0, 0.0);
  const double vx0 =
      0.5 + (1.5 * kSep * 0.0 + 1.0 * kAli * (-0.5 / 1 - 0.5) + 1.0 * kCoh * (dx / 1));
  const double vy0 =
      0.25 + (1.5 * kSep * 0.0 + 1.0 * kAli * (0.0 / 1 - 0.25) + 1.0 * kCoh * (0.0 / 1));
  double vx1 =
      -0.5 + (1.5 * kSep * 0.0 + 1.0 * kAli * (0.5 / 1 - -0.5) + 1.0 * kCoh * ((0.0 - dx) / 1));
  double vy1 = 0.0 + (1.5 * kSep * 0.0 + 1.0 * kAli * (0.25 / 1 - 0.0) + 1.0 * kCoh * (0.0 / 1));
  ASSERT_GE(speed_of(vx0, vy0), 0.5);
  ASSERT_LE(speed_of(vx0, vy0), 1.0);
  const double speed1 = speed_of(vx1, vy1);
  ASSERT_GT(speed1, 0.0);
  ASSERT_LT(speed1, 0.5);
  vx1 = vx1 / speed1 * 0.5;
  vy1 = vy1 / speed1 * 0.5;
  // Boid 1 moves left from 5e-324: below 0, so it wraps to x + L.
  ASSERT_LT(5e-324 + vx1, 0.0);
  const FlockState after = stepped(s, params());
  expect_boid(after, 0, {0.0 + vx0, 60.0 + vy0, vx0, vy0});
  expect_boid(after, 1, {(5e-324 + vx1) + 100.0, 60.0 + vy1, vx1, vy1});
}

TEST(ReferenceTest, ExactlyRadiusApartAreNotNeighbors) {
  // d2 = 100 = r^2 along an axis and along a 6-8-10 diagonal: not neighbours, so each flies
  // as if alone.
  const FlockState s =
      make_state({{30, 10, 0.625, 0}, {40, 10, 0, 0.625}, {60, 60, 0.5, 0}, {66, 68, 0, 0.5}});
  const FlockState after = stepped(s, params());
  expect_boid(after, 0, {30.625, 10, 0.625, 0});
  expect_boid(after, 1, {40, 10.625, 0, 0.625});
  expect_boid(after, 2, {60.5, 60, 0.5, 0});
  expect_boid(after, 3, {66, 68.5, 0, 0.5});

  // One ulp more radius makes them neighbours, and the flight changes.
  const FlockState wider = stepped(s, params(std::nextafter(10.0, 11.0)));
  for (std::size_t i = 0; i < 4; ++i) {
    EXPECT_TRUE(wider.vx[i] != after.vx[i] || wider.vy[i] != after.vy[i]) << "boid " << i;
  }
}

TEST(ReferenceTest, ExactlyHalfRadiusApartAreNeighborsWithoutSeparation) {
  // d2 = 25 = r^2 / 4: neighbours (alignment, cohesion), but separation needs d2 < r^2 / 4.
  const FlockState s = make_state({{50, 10, 0.375, 0.5}, {55, 10, -0.625, 0}});
  const double vx0 =
      0.375 + (1.5 * kSep * 0.0 + 1.0 * kAli * (-0.625 / 1 - 0.375) + 1.0 * kCoh * (5.0 / 1));
  const double vy0 =
      0.5 + (1.5 * kSep * 0.0 + 1.0 * kAli * (0.0 / 1 - 0.5) + 1.0 * kCoh * (0.0 / 1));
  const double vx1 =
      -0.625 + (1.5 * kSep * 0.0 + 1.0 * kAli * (0.375 / 1 - -0.625) + 1.0 * kCoh * (-5.0 / 1));
  const double vy1 =
      0.0 + (1.5 * kSep * 0.0 + 1.0 * kAli * (0.5 / 1 - 0.0) + 1.0 * kCoh * (0.0 / 1));
  for (double speed : {speed_of(vx0, vy0), speed_of(vx1, vy1)}) {
    ASSERT_GE(speed, 0.5);
    ASSERT_LE(speed, 1.0);
  }
  const FlockState after = stepped(s, params());
  expect_boid(after, 0, {50.0 + vx0, 10.0 + vy0, vx0, vy0});
  expect_boid(after, 1, {55.0 + vx1, 10.0 + vy1, vx1, vy1});
  FlockParams strong = params();
  strong.separation = 1000;
  expect_same_state(stepped(s, strong), after);
}

TEST(ReferenceTest, JustInsideRadiusAreNeighbors) {
  const double x1 = std::nextafter(80.0, 0.0);
  const FlockState s = make_state({{70, 10, 0.5, 0.5}, {x1, 10, 0.5, -0.5}});
  const double dx = x1 - 70.0;
  const double d2 = dx * dx + 0.0 * 0.0;
  ASSERT_LT(d2, 100.0);
  ASSERT_GE(d2, 25.0);
  const double vx0 =
      0.5 + (1.5 * kSep * 0.0 + 1.0 * kAli * (0.5 / 1 - 0.5) + 1.0 * kCoh * (dx / 1));
  const double vy0 =
      0.5 + (1.5 * kSep * 0.0 + 1.0 * kAli * (-0.5 / 1 - 0.5) + 1.0 * kCoh * (0.0 / 1));
  const double vx1 =
      0.5 + (1.5 * kSep * 0.0 + 1.0 * kAli * (0.5 / 1 - 0.5) + 1.0 * kCoh * ((0.0 - dx) / 1));
  const double vy1 =
      -0.5 + (1.5 * kSep * 0.0 + 1.0 * kAli * (0.5 / 1 - -0.5) + 1.0 * kCoh * (0.0 / 1));
  for (double speed : {speed_of(vx0, vy0), speed_of(vx1, vy1)}) {
    ASSERT_GE(speed, 0.5);
    ASSERT_LE(speed, 1.0);
  }
  const FlockState after = stepped(s, params());
  expect_boid(after, 0, {70.0 + vx0, 10.0 + vy0, vx0, vy0});
  expect_boid(after, 1, {x1 + vx1, 10.0 + vy1, vx1, vy1});
}

TEST(ReferenceTest, JustInsideHalfRadiusSeparate) {
  const double x1 = std::nextafter(15.0, 0.0);
  const FlockState s = make_state({{10, 30, 0.25, -0.25}, {x1, 30, 0.125, 0.875}});
  const double dx = x1 - 10.0;
  const double d2 = dx * dx + 0.0 * 0.0;
  ASSERT_LT(d2, 25.0);
  const double sx0 = 0.0 - dx / d2, sy0 = 0.0 - 0.0 / d2;
  const double sx1 = 0.0 + dx / d2, sy1 = 0.0 + 0.0 / d2;
  double vx0 = 0.25 + (1.5 * kSep * sx0 + 1.0 * kAli * (0.125 / 1 - 0.25) + 1.0 * kCoh * (dx / 1));
  double vy0 =
      -0.25 + (1.5 * kSep * sy0 + 1.0 * kAli * (0.875 / 1 - -0.25) + 1.0 * kCoh * (0.0 / 1));
  const double vx1 =
      0.125 + (1.5 * kSep * sx1 + 1.0 * kAli * (0.25 / 1 - 0.125) + 1.0 * kCoh * ((0.0 - dx) / 1));
  const double vy1 =
      0.875 + (1.5 * kSep * sy1 + 1.0 * kAli * (-0.25 / 1 - 0.875) + 1.0 * kCoh * (0.0 / 1));
  const double speed0 = speed_of(vx0, vy0);
  ASSERT_GT(speed0, 0.0);
  ASSERT_LT(speed0, 0.5);
  vx0 = vx0 / speed0 * 0.5;
  vy0 = vy0 / speed0 * 0.5;
  ASSERT_GE(speed_of(vx1, vy1), 0.5);
  ASSERT_LE(speed_of(vx1, vy1), 1.0);
  const FlockState after = stepped(s, params());
  expect_boid(after, 0, {10.0 + vx0, 30.0 + vy0, vx0, vy0});
  expect_boid(after, 1, {x1 + vx1, 30.0 + vy1, vx1, vy1});
}

TEST(ReferenceTest, NeighborsAcrossTheEdgeOfTheWorld) {
  // x: 99.5 - 0.5 = 99 > L / 2, so the offset is 99 - 100 = -1 (1 apart across x = 0).
  const FlockState s = make_state({{0.5, 50, 0.625, 0.125}, {99.5, 50, -0.375, 0.5}});
  const double dx = 99.0 - 100.0, dy = 0.0, d2 = dx * dx + dy * dy;
  const double sx0 = 0.0 - dx / d2, sy0 = 0.0 - dy / d2;
  const double sx1 = 0.0 + dx / d2, sy1 = 0.0 + dy / d2;
  const double vx0 =
      0.625 + (1.5 * kSep * sx0 + 1.0 * kAli * (-0.375 / 1 - 0.625) + 1.0 * kCoh * (dx / 1));
  const double vy0 =
      0.125 + (1.5 * kSep * sy0 + 1.0 * kAli * (0.5 / 1 - 0.125) + 1.0 * kCoh * (dy / 1));
  const double vx1 = -0.375 + (1.5 * kSep * sx1 + 1.0 * kAli * (0.625 / 1 - -0.375) +
                               1.0 * kCoh * ((0.0 - dx) / 1));
  const double vy1 =
      0.5 + (1.5 * kSep * sy1 + 1.0 * kAli * (0.125 / 1 - 0.5) + 1.0 * kCoh * ((0.0 - dy) / 1));
  for (double speed : {speed_of(vx0, vy0), speed_of(vx1, vy1)}) {
    ASSERT_GE(speed, 0.5);
    ASSERT_LE(speed, 1.0);
  }
  const FlockState after = stepped(s, params());
  expect_boid(after, 0, {0.5 + vx0, 50.0 + vy0, vx0, vy0});
  expect_boid(after, 1, {99.5 + vx1, 50.0 + vy1, vx1, vy1});
}

TEST(ReferenceTest, NeighborsAcrossTheCornerCrossBothEdges) {
  // Offset (0.25 - 99.75) + 100 = 0.5 on both axes; both boids then cross both edges.
  const FlockState s = make_state({{99.75, 99.75, 0.5, 0.5}, {0.25, 0.25, -0.5, 0.5}});
  const double d = -99.5 + 100.0, d2 = d * d + d * d;
  ASSERT_EQ(d, 0.5);
  const double s0 = 0.0 - d / d2, s1 = 0.0 + d / d2;
  const double vx0 = 0.5 + (1.5 * kSep * s0 + 1.0 * kAli * (-0.5 / 1 - 0.5) + 1.0 * kCoh * (d / 1));
  const double vy0 = 0.5 + (1.5 * kSep * s0 + 1.0 * kAli * (0.5 / 1 - 0.5) + 1.0 * kCoh * (d / 1));
  const double vx1 =
      -0.5 + (1.5 * kSep * s1 + 1.0 * kAli * (0.5 / 1 - -0.5) + 1.0 * kCoh * ((0.0 - d) / 1));
  const double vy1 =
      0.5 + (1.5 * kSep * s1 + 1.0 * kAli * (0.5 / 1 - 0.5) + 1.0 * kCoh * ((0.0 - d) / 1));
  for (double speed : {speed_of(vx0, vy0), speed_of(vx1, vy1)}) {
    ASSERT_GE(speed, 0.5);
    ASSERT_LE(speed, 1.0);
  }
  ASSERT_GE(99.75 + vx0, 100.0);
  ASSERT_GE(99.75 + vy0, 100.0);
  ASSERT_LT(0.25 + vx1, 0.0);
  ASSERT_GE(0.25 + vy1, 0.0);
  const FlockState after = stepped(s, params());
  expect_boid(after, 0, {(99.75 + vx0) - 100.0, (99.75 + vy0) - 100.0, vx0, vy0});
  expect_boid(after, 1, {(0.25 + vx1) + 100.0, 0.25 + vy1, vx1, vy1});
}

TEST(ReferenceTest, OffsetOfExactlyHalfTheWorldIsNotWrapped) {
  // x offset +50 = L / 2: the published step wraps only beyond L / 2, so boid 0 sees boid 1 at +50
  // (cohesion pulls it right) and boid 1 sees boid 0 at -50.
  const FlockState s = make_state({{10, 70, 0.5, 0}, {60, 70, 0.5, 0}});
  const double vx0 =
      0.5 + (1.5 * kSep * 0.0 + 1.0 * kAli * (0.5 / 1 - 0.5) + 1.0 * kCoh * (50.0 / 1));
  const double vx1 =
      0.5 + (1.5 * kSep * 0.0 + 1.0 * kAli * (0.5 / 1 - 0.5) + 1.0 * kCoh * ((0.0 - 50.0) / 1));
  const double vy =
      0.0 + (1.5 * kSep * 0.0 + 1.0 * kAli * (0.0 / 1 - 0.0) + 1.0 * kCoh * (0.0 / 1));
  ASSERT_LE(vx0, 1.0);
  ASSERT_GE(vx1, 0.0);  // rescaled below: speed 0.25 < 0.5
  const double speed1 = speed_of(vx1, vy);
  ASSERT_LT(speed1, 0.5);
  const double wx1 = vx1 / speed1 * 0.5, wy1 = vy / speed1 * 0.5;
  const FlockState after = stepped(s, params(60.0));
  expect_boid(after, 0, {10.0 + vx0, 70.0 + vy, vx0, vy});
  expect_boid(after, 1, {60.0 + wx1, 70.0 + wy1, wx1, wy1});
  // In the other order the pair's offset is -50 = -L / 2, which is not wrapped either.
  const FlockState reversed = make_state({{60, 70, 0.5, 0}, {10, 70, 0.5, 0}});
  const FlockState swapped = stepped(reversed, params(60.0));
  expect_boid(swapped, 0, {60.0 + wx1, 70.0 + wy1, wx1, wy1});
  expect_boid(swapped, 1, {10.0 + vx0, 70.0 + vy, vx0, vy});
  expect_same_state(stepped(transposed(s), params(60.0)), transposed(after));
  expect_same_state(stepped(transposed(reversed), params(60.0)), transposed(swapped));
}

TEST(ReferenceTest, OffsetJustBeyondHalfTheWorldIsWrapped) {
  // One ulp beyond L / 2 the offset wraps to just under -L / 2: the pull reverses.
  const double x1 = std::nextafter(60.0, 100.0);
  const FlockState s = make_state({{10, 70, 0.5, 0}, {x1, 70, 0.5, 0}});
  const double raw = x1 - 10.0;
  ASSERT_GT(raw, 50.0);
  const double dx = raw - 100.0;
  double vx0 = 0.5 + (1.5 * kSep * 0.0 + 1.0 * kAli * (0.5 / 1 - 0.5) + 1.0 * kCoh * (dx / 1));
  const double vx1 =
      0.5 + (1.5 * kSep * 0.0 + 1.0 * kAli * (0.5 / 1 - 0.5) + 1.0 * kCoh * ((0.0 - dx) / 1));
  double vy0 = 0.0 + (1.5 * kSep * 0.0 + 1.0 * kAli * (0.0 / 1 - 0.0) + 1.0 * kCoh * (0.0 / 1));
  const double vy1 = vy0;
  const double speed0 = speed_of(vx0, vy0);
  ASSERT_GT(speed0, 0.0);
  ASSERT_LT(speed0, 0.5);
  vx0 = vx0 / speed0 * 0.5;
  vy0 = vy0 / speed0 * 0.5;
  ASSERT_LE(vx1, 1.0);
  ASSERT_GE(vx1, 0.5);
  const FlockState after = stepped(s, params(60.0));
  expect_boid(after, 0, {10.0 + vx0, 70.0 + vy0, vx0, vy0});
  expect_boid(after, 1, {x1 + vx1, 70.0 + vy1, vx1, vy1});
  expect_same_state(stepped(transposed(s), params(60.0)), transposed(after));
}

TEST(ReferenceTest, CrossingTheEdgesWrapsOnce) {
  struct Case {
    B start, end;
  };
  const Case cases[] = {
      {{99.75, 30, 0.5, 0}, {0.25, 30, 0.5, 0}},    // x >= L: x - L
      {{0.25, 30, -0.5, 0}, {99.75, 30, -0.5, 0}},  // x < 0: x + L
      {{99.5, 30, 0.5, 0}, {0, 30, 0.5, 0}},        // x == L exactly: 0
      {{0.5, 30, -0.5, 0}, {0, 30, -0.5, 0}},       // x == 0 exactly: kept
      {{30, 99.75, 0, 0.5}, {30, 0.25, 0, 0.5}},    // y >= L
      {{30, 0.25, 0, -0.5}, {30, 99.75, 0, -0.5}},  // y < 0
      {{30, 99.5, 0, 0.5}, {30, 0, 0, 0.5}},        // y == L exactly: 0
      {{30, 0.5, 0, -0.5}, {30, 0, 0, -0.5}},       // y == 0 exactly: kept
      {{99.5, 0.5, 0.5, -0.5}, {0, 0, 0.5, -0.5}},  // both
      // A negative velocity too small to survive squaring: speed 0 keeps it, as the published step
      // does, and 0 - 1e-170 wraps to -1e-170 + 100, which rounds to L itself. The published step
      // leaves the boid there, outside its own world (a saved state would not read back);
      // the torus identifies L with 0, and so does the engine.
      {{0, 40, -1e-170, 0}, {0, 40, -1e-170, 0}},
      {{30, 0, 0, -1e-170}, {30, 0, 0, -1e-170}},
  };
  for (const Case& c : cases) {
    SCOPED_TRACE("start x " + std::to_string(c.start.x) + " y " + std::to_string(c.start.y));
    expect_boid(stepped(make_state({{c.start.x, c.start.y, c.start.vx, c.start.vy}}), params()), 0,
                c.end);
  }
}

TEST(ReferenceTest, MeanOverSeveralNeighborsInPairOrder) {
  // Three mutual neighbours, all closer than r / 2. Each boid's sums gather its pairs in the
  // published step's loop order: pairs (0,1), (0,2), (1,2).
  const FlockState s = make_state({{50, 50, 0.5, 0}, {52, 50, 0, 0.5}, {50, 53, -0.5, 0}});
  // Pair (0,1): offset (2, 0), d2 4. Pair (0,2): (0, 3), d2 9. Pair (1,2): (-2, 3), d2 13.
  const double ax0 = (0.0 + 0.0) + -0.5, ay0 = (0.0 + 0.5) + 0.0;
  const double cx0 = (0.0 + 2.0) + 0.0, cy0 = (0.0 + 0.0) + 3.0;
  const double sx0 = (0.0 - 2.0 / 4.0) - 0.0 / 9.0, sy0 = (0.0 - 0.0 / 4.0) - 3.0 / 9.0;
  const double ax1 = (0.0 + 0.5) + -0.5, ay1 = (0.0 + 0.0) + 0.0;
  const double cx1 = (0.0 - 2.0) + -2.0, cy1 = (0.0 - 0.0) + 3.0;
  const double sx1 = (0.0 + 2.0 / 4.0) - -2.0 / 13.0, sy1 = (0.0 + 0.0 / 4.0) - 3.0 / 13.0;
  const double ax2 = (0.0 + 0.5) + 0.0, ay2 = (0.0 + 0.0) + 0.5;
  const double cx2 = (0.0 - 0.0) - -2.0, cy2 = (0.0 - 3.0) - 3.0;
  const double sx2 = (0.0 + 0.0 / 9.0) + -2.0 / 13.0, sy2 = (0.0 + 3.0 / 9.0) + 3.0 / 13.0;

  const double vx0 =
      0.5 + (1.5 * kSep * sx0 + 1.0 * kAli * (ax0 / 2 - 0.5) + 1.0 * kCoh * (cx0 / 2));
  const double vy0 =
      0.0 + (1.5 * kSep * sy0 + 1.0 * kAli * (ay0 / 2 - 0.0) + 1.0 * kCoh * (cy0 / 2));
  const double vx1 =
      0.0 + (1.5 * kSep * sx1 + 1.0 * kAli * (ax1 / 2 - 0.0) + 1.0 * kCoh * (cx1 / 2));
  const double vy1 =
      0.5 + (1.5 * kSep * sy1 + 1.0 * kAli * (ay1 / 2 - 0.5) + 1.0 * kCoh * (cy1 / 2));
  const double vx2 =
      -0.5 + (1.5 * kSep * sx2 + 1.0 * kAli * (ax2 / 2 - -0.5) + 1.0 * kCoh * (cx2 / 2));
  const double vy2 =
      0.0 + (1.5 * kSep * sy2 + 1.0 * kAli * (ay2 / 2 - 0.0) + 1.0 * kCoh * (cy2 / 2));
  // All three end slower than v_max / 2 and are rescaled to it.
  const double speed0 = speed_of(vx0, vy0), speed1 = speed_of(vx1, vy1);
  const double speed2 = speed_of(vx2, vy2);
  for (double speed : {speed0, speed1, speed2}) {
    ASSERT_GT(speed, 0.0);
    ASSERT_LT(speed, 0.5);
  }
  const double wx0 = vx0 / speed0 * 0.5, wy0 = vy0 / speed0 * 0.5;
  const double wx1 = vx1 / speed1 * 0.5, wy1 = vy1 / speed1 * 0.5;
  const double wx2 = vx2 / speed2 * 0.5, wy2 = vy2 / speed2 * 0.5;
  const FlockState after = stepped(s, params());
  expect_boid(after, 0, {50.0 + wx0, 50.0 + wy0, wx0, wy0});
  expect_boid(after, 1, {52.0 + wx1, 50.0 + wy1, wx1, wy1});
  expect_boid(after, 2, {50.0 + wx2, 53.0 + wy2, wx2, wy2});
}

// An all-pairs step written independently of the reference: each boid gathers its
// neighbours in ascending index order (rather than the published step's scatter over pairs i < j),
// which adds the same terms in the same order, so the results must agree bit for bit.
void gather_step(FlockState& s, const FlockParams& p) {
  const std::size_t n = s.size();
  const double L = p.world.width, r2 = p.radius * p.radius, s2 = r2 / 4;
  const auto wrap = [L](double d) { return d > L / 2 ? d - L : d < -(L / 2) ? d + L : d; };
  FlockState next = s;
  for (std::size_t i = 0; i < n; ++i) {
    int count = 0;
    double ax = 0, ay = 0, cx = 0, cy = 0, sx = 0, sy = 0;
    for (std::size_t j = 0; j < n; ++j) {
      if (j == i) continue;
      const double dx = wrap(s.x[j] - s.x[i]), dy = wrap(s.y[j] - s.y[i]);
      const double d2 = dx * dx + dy * dy;
      if (!(d2 < r2)) continue;
      ++count;
      ax += s.vx[j];
      ay += s.vy[j];
      cx += dx;
      cy += dy;
      if (d2 > 0 && d2 < s2) {
        sx -= dx / d2;
        sy -= dy / d2;
      }
    }
    double vx = s.vx[i], vy = s.vy[i];
    if (count > 0) {
      const double ws = p.separation * kSep, wa = p.alignment * kAli, wc = p.cohesion * kCoh;
      vx = vx + ((ws * sx + wa * (ax / count - vx)) + wc * (cx / count));
      vy = vy + ((ws * sy + wa * (ay / count - vy)) + wc * (cy / count));
    }
    const double speed = std::sqrt(vx * vx + vy * vy);
    const double target = speed > p.max_speed                      ? p.max_speed
                          : (speed > 0 && speed < p.max_speed / 2) ? p.max_speed / 2
                                                                   : 0;
    if (target > 0) {
      vx = vx / speed * target;
      vy = vy / speed * target;
    }
    double x = s.x[i] + vx, y = s.y[i] + vy;
    x = x < 0 ? x + L : x >= L ? x - L : x;
    y = y < 0 ? y + L : y >= L ? y - L : y;
    next.x[i] = x;
    next.y[i] = y;
    next.vx[i] = vx;
    next.vy[i] = vy;
  }
  s = next;
}

void expect_matches_gather(FlockState s, const FlockParams& p, int steps) {
  FlockState mine = s;
  ReferenceStepper stepper;
  for (int step = 1; step <= steps; ++step) {
    stepper.step(s, p);
    gather_step(mine, p);
    SCOPED_TRACE("step " + std::to_string(step));
    std::size_t differ = 0;
    for (std::size_t i = 0; i < s.size(); ++i) {
      differ += (s.x[i] != mine.x[i]) + (s.y[i] != mine.y[i]) + (s.vx[i] != mine.vx[i]) +
                (s.vy[i] != mine.vy[i]);
    }
    ASSERT_EQ(differ, 0u) << "numbers that differ from the independent step";
  }
}

TEST(ReferenceTest, MatchesIndependentAllPairsStepOnRandomFlock) {
  FlockParams p;
  p.world = test_support::square(
      60);  // dense enough that most boids have neighbours, many closer than r / 2
  expect_matches_gather(make_initial_state(200, 12345, p), p, 20);
}

TEST(ReferenceTest, MatchesIndependentAllPairsStepWithOtherParameters) {
  // Positions and velocities from a generator unrelated to the engine's; speeds in [0, 3)
  // so that both clamps act.
  FlockParams p;
  p.world = test_support::square(45.5);
  p.radius = 7.3;
  p.separation = 2.7;
  p.alignment = 0.6;
  p.cohesion = 1.9;
  p.max_speed = 1.4;
  std::mt19937_64 gen(2718281828);
  std::uniform_real_distribution<double> position(0.0, p.world.width), velocity(-2.1, 2.1);
  FlockState s;
  for (int i = 0; i < 200; ++i) {
    double x = position(gen), y = position(gen);
    s.x.push_back(x < p.world.width ? x : 0.0);
    s.y.push_back(y < p.world.height ? y : 0.0);
    s.vx.push_back(velocity(gen));
    s.vy.push_back(velocity(gen));
  }
  expect_matches_gather(s, p, 20);
}

}  // namespace
}  // namespace boids
