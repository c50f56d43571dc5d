// The reference in three dimensions (docs/3d.md): a flock in any coordinate plane flies the 2D
// step bit for bit; the axes are interchangeable; the start fills the box with headings uniform
// on the sphere; the metrics count distances across the box's torus; what is not carried over
// yet is refused.
#include <gtest/gtest.h>

#include <cmath>
#include <string>
#include <utility>
#include <vector>

#include "host/errors.h"
#include "host/initial_state.h"
#include "host/metrics.h"
#include "host/reference.h"
#include "tests/test_support.h"

namespace boids {
namespace {

using test_support::bit_identical;

FlockParams box(double side) {
  FlockParams p;
  p.dimensions = 3;
  p.world.width = p.world.height = p.world.depth = side;
  return p;
}

// A flock of 3D boids, one axis held at `level` with no speed along it: `planar` gives the
// other two axes, in the order (x, y), (x, z) or (y, z).
enum class Plane { kXY, kXZ, kYZ };

FlockState lift(const FlockState& planar, Plane plane, double level) {
  FlockState s;
  s.dimensions = 3;
  s.resize(planar.size());
  for (std::size_t i = 0; i < planar.size(); ++i) {
    const double a = planar.x[i], b = planar.y[i], va = planar.vx[i], vb = planar.vy[i];
    switch (plane) {
      case Plane::kXY:
        s.x[i] = a, s.y[i] = b, s.z[i] = level, s.vx[i] = va, s.vy[i] = vb, s.vz[i] = 0;
        break;
      case Plane::kXZ:
        s.x[i] = a, s.y[i] = level, s.z[i] = b, s.vx[i] = va, s.vy[i] = 0, s.vz[i] = vb;
        break;
      case Plane::kYZ:
        s.x[i] = level, s.y[i] = a, s.z[i] = b, s.vx[i] = 0, s.vy[i] = va, s.vz[i] = vb;
        break;
    }
  }
  return s;
}

// The plane's two axes of a 3D flock, as a 2D flock; the third axis must not have moved.
FlockState flatten(const FlockState& s, Plane plane, double level) {
  FlockState f;
  f.resize(s.size());
  for (std::size_t i = 0; i < s.size(); ++i) {
    const double held = plane == Plane::kXY ? s.z[i] : plane == Plane::kXZ ? s.y[i] : s.x[i];
    const double held_v = plane == Plane::kXY ? s.vz[i] : plane == Plane::kXZ ? s.vy[i] : s.vx[i];
    EXPECT_EQ(held, level) << "boid " << i;
    EXPECT_EQ(held_v, 0.0) << "boid " << i;
    f.x[i] = plane == Plane::kYZ ? s.y[i] : s.x[i];
    f.y[i] = plane == Plane::kXY ? s.y[i] : s.z[i];
    f.vx[i] = plane == Plane::kYZ ? s.vy[i] : s.vx[i];
    f.vy[i] = plane == Plane::kXY ? s.vy[i] : s.vz[i];
  }
  return f;
}

// Every added term of the third axis is +0, so a flock in a plane flies the 2D step exactly.
TEST(Reference3d, AFlockInACoordinatePlaneFliesTheTwoDimensionalStep) {
  FlockParams flat;
  flat.world.width = 80;
  flat.world.height = 60;
  const FlockState start = make_initial_state(240, 5, flat);
  FlockState expected = start;
  ReferenceStepper two_d(9);
  for (int t = 0; t < 80; ++t) two_d.step(expected, flat);
  for (const Plane plane : {Plane::kXY, Plane::kXZ, Plane::kYZ}) {
    FlockState s = lift(start, plane, 31.25);
    FlockParams p = box(70);  // the plane's sides are the 2D world's; the third is its own
    double& first = plane == Plane::kYZ ? p.world.height : p.world.width;
    double& second = plane == Plane::kXY ? p.world.height : p.world.depth;
    first = 80;
    second = 60;
    ReferenceStepper three_d(9);
    for (int t = 0; t < 80; ++t) three_d.step(s, p);
    EXPECT_TRUE(bit_identical(flatten(s, plane, 31.25), expected))
        << "plane " << static_cast<int>(plane);
  }
}

// Turning the axes (x, y, z) -> (y, z, x) turns the flight: only the order of the three terms
// of each distance changes, so they agree to rounding.
TEST(Reference3d, TheAxesAreInterchangeable) {
  const FlockParams p = box(60);
  const FlockState start = make_initial_state(200, 11, p);
  FlockState turned = start;
  for (std::size_t i = 0; i < start.size(); ++i) {
    turned.x[i] = start.z[i], turned.y[i] = start.x[i], turned.z[i] = start.y[i];
    turned.vx[i] = start.vz[i], turned.vy[i] = start.vx[i], turned.vz[i] = start.vy[i];
  }
  FlockState a = start, b = turned;
  ReferenceStepper sa, sb;
  for (int t = 0; t < 20; ++t) {
    sa.step(a, p);
    sb.step(b, p);
  }
  double moved = 0;
  for (std::size_t i = 0; i < a.size(); ++i) {
    EXPECT_NEAR(b.y[i], a.x[i], 1e-9);
    EXPECT_NEAR(b.z[i], a.y[i], 1e-9);
    EXPECT_NEAR(b.x[i], a.z[i], 1e-9);
    EXPECT_NEAR(b.vy[i], a.vx[i], 1e-11);
    EXPECT_NEAR(b.vz[i], a.vy[i], 1e-11);
    EXPECT_NEAR(b.vx[i], a.vz[i], 1e-11);
    moved += std::abs(a.vz[i] - start.vz[i]);
  }
  EXPECT_GT(moved, 1.0);  // the boids did steer, along z too
}

// Two 3D boids at (x, y, z) with velocities (vx, vy, vz).
FlockState two_boids(std::vector<double> x, std::vector<double> y, std::vector<double> z,
                     std::vector<double> vx, std::vector<double> vy, std::vector<double> vz) {
  FlockState s;
  s.dimensions = 3;
  s.x = std::move(x), s.y = std::move(y), s.z = std::move(z);
  s.vx = std::move(vx), s.vy = std::move(vy), s.vz = std::move(vz);
  return s;
}

// Two boids within each other's separation radius, apart on every axis: the step by hand.
TEST(Reference3d, TwoBoidsStepAsTheRulesSay) {
  FlockParams p = box(100);
  FlockState s = two_boids({50, 52}, {50, 51}, {50, 52}, {0.6, 0}, {0, 0.6}, {0, 0});
  ReferenceStepper stepper;
  stepper.step(s, p);
  // Boid 0: d = (2, 1, 2), d2 = 9 < r2 / 4; separation -d / 9, alignment (0, 0.6, 0) - v,
  // cohesion d; gains 1.5 * 0.05, 0.05, 0.005.
  const double vx = 0.6 + 0.075 * (-2.0 / 9) + 0.05 * (0 - 0.6) + 0.005 * 2;
  const double vy = 0 + 0.075 * (-1.0 / 9) + 0.05 * 0.6 + 0.005 * 1;
  const double vz = 0 + 0.075 * (-2.0 / 9) + 0.005 * 2;
  const double speed = std::sqrt(vx * vx + vy * vy + vz * vz);  // within [0.5, 1]
  ASSERT_GT(speed, 0.5);
  EXPECT_NEAR(s.vx[0], vx, 1e-15);
  EXPECT_NEAR(s.vy[0], vy, 1e-15);
  EXPECT_NEAR(s.vz[0], vz, 1e-15);
  EXPECT_NEAR(s.z[0], 50 + vz, 1e-13);
  // Boid 1 sees the mirror offset: its z-velocity gains what boid 0's lost.
  EXPECT_NEAR(s.vz[1], -vz, 1e-15);
}

TEST(Reference3d, SpeedsAreClampedAndTheBoxWraps) {
  FlockParams p = box(10);
  FlockState s = two_boids({9.5, 5}, {0.2, 5}, {9.9, 5}, {3, 0.01}, {0, 0}, {4, 0});
  p.radius = 1;  // no neighbours
  ReferenceStepper stepper;
  stepper.step(s, p);
  EXPECT_NEAR(s.vx[0], 0.6, 1e-15);  // 5 clamped to v_max = 1 along (3, 0, 4) / 5
  EXPECT_NEAR(s.vz[0], 0.8, 1e-15);
  EXPECT_NEAR(s.x[0], 0.1, 1e-12);   // 9.5 + 0.6 - 10
  EXPECT_NEAR(s.z[0], 0.7, 1e-12);   // 9.9 + 0.8 - 10
  EXPECT_NEAR(s.vx[1], 0.5, 1e-15);  // 0.01 raised to v_max / 2
}

TEST(Reference3d, TheStartFillsTheBoxWithHeadingsUniformOnTheSphere) {
  FlockParams p = box(40);
  p.world.depth = 20;
  p.max_speed = 2;
  const FlockState s = make_initial_state(20000, 3, p);
  ASSERT_EQ(s.dimensions, 3);
  ASSERT_EQ(s.z.size(), 20000u);
  double mean_z = 0, hx = 0, hy = 0, hz = 0, z2 = 0;
  for (std::size_t i = 0; i < s.size(); ++i) {
    ASSERT_TRUE(s.x[i] >= 0 && s.x[i] < 40 && s.y[i] >= 0 && s.y[i] < 40 && s.z[i] >= 0 &&
                s.z[i] < 20);
    const double speed = std::sqrt(s.vx[i] * s.vx[i] + s.vy[i] * s.vy[i] + s.vz[i] * s.vz[i]);
    ASSERT_NEAR(speed, 2, 1e-14);
    mean_z += s.z[i] / 20000;
    hx += s.vx[i] / 2 / 20000, hy += s.vy[i] / 2 / 20000, hz += s.vz[i] / 2 / 20000;
    z2 += s.vz[i] * s.vz[i] / 4 / 20000;
  }
  EXPECT_NEAR(mean_z, 10, 0.2);
  EXPECT_LT(std::sqrt(hx * hx + hy * hy + hz * hz), 0.03);
  EXPECT_NEAR(z2, 1.0 / 3, 0.01);  // each axis carries a third of a unit heading's square
  EXPECT_TRUE(bit_identical(s, make_initial_state(20000, 3, p)));
  const FlockState other = make_initial_state(20000, 4, p);
  EXPECT_NE(other.z[7], s.z[7]);
  EXPECT_NE(other.vz[7], s.vz[7]);
}

TEST(Reference3d, MetricsMeasureDistancesInTheBox) {
  const FlockParams p = box(100);
  FlockState s;
  s.dimensions = 3;
  s.resize(6);
  // Pairs apart along z only: 5 apart, 6 apart, and 5 across the box's top and bottom.
  s.x = {10, 10, 10, 10, 70, 70}, s.y = {10, 10, 10, 10, 70, 70}, s.z = {10, 15, 60, 66, 98, 3};
  for (std::size_t i = 0; i < 6; ++i) s.vx[i] = 0, s.vy[i] = 0, s.vz[i] = 1;
  FlockMetrics m = measure_flock(s, p);
  EXPECT_EQ(m.flocks, 3u);
  EXPECT_EQ(m.largest_flock, 2u);
  EXPECT_NEAR(m.mean_nn_distance, (5 + 5 + 6 + 6 + 5 + 5) / 6.0, 1e-12);
  EXPECT_NEAR(m.mean_neighbors, 1, 1e-15);
  EXPECT_NEAR(m.polarization, 1, 1e-15);
  s.vz[1] = s.vz[3] = s.vz[5] = -1;
  m = measure_flock(s, p);
  EXPECT_NEAR(m.polarization, 0, 1e-15);
  EXPECT_NEAR(m.order, 0, 1e-15);
}

TEST(Reference3d, WhatIsNotCarriedOverIsRefused) {
  FlockParams p = box(50);
  FlockState s = make_initial_state(10, 1, p);
  ReferenceStepper stepper;
  for (const auto change :
       {+[](FlockParams& q) { q.noise = 0.5; }, +[](FlockParams& q) { q.fov = 200; },
        +[](FlockParams& q) { q.model = Model::kVicsek; },
        +[](FlockParams& q) { q.world.boundary = Boundary::kWalls; }}) {
    FlockParams q = p;
    change(q);
    EXPECT_THROW(stepper.step(s, q), InputError);
  }
  FlockParams flat = p;
  flat.dimensions = 2;
  EXPECT_THROW(stepper.step(s, flat), InputError);
  p.obstacles = {{10, 10, 2}};
  EXPECT_THROW(make_initial_state(10, 1, p), InputError);
}

}  // namespace
}  // namespace boids
