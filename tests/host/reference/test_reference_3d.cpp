// The reference in three dimensions (docs/3d.md): a flock in any coordinate plane flies the 2D
// step bit for bit; the axes are interchangeable; the start fills the box with headings uniform
// on the sphere; the metrics count distances across the box's torus; what is not carried over
// yet is refused.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <string>
#include <utility>
#include <vector>

#include "host/base/errors.h"
#include "host/core/flock_batch.h"
#include "host/core/simulation.h"
#include "host/metrics/metrics.h"
#include "host/model/initial_state.h"
#include "host/reference/reference.h"
#include "tests/support/test_support.h"

namespace boids {
namespace {

using test_support::bit_identical;

using test_support::box;

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

// Every added term of the third axis is +0, so a flock in a plane flies the 2D step exactly:
// under the boids model's rules, with the field of view, the separation radius, the goal and the
// wind in the plane, and under Vicsek's model.
void expect_planar_flight_is_two_dimensional(const FlockParams& flat, int steps) {
  const FlockState start = make_initial_state(240, 5, flat);
  FlockState expected = start;
  ReferenceStepper two_d(9);
  for (int t = 0; t < steps; ++t) two_d.step(expected, flat);
  for (const Plane plane : {Plane::kXY, Plane::kXZ, Plane::kYZ}) {
    // The third axis: deep enough that its walls never reach the plane.
    const double depth = std::max(70.0, 3 * flat.effective_wall_distance()), level = depth / 2;
    FlockState s = lift(start, plane, level);
    FlockParams p = flat;  // the plane's sides are the 2D world's; the third is its own
    p.dimensions = 3;
    p.world.depth = depth;
    double& first = plane == Plane::kYZ ? p.world.height : p.world.width;
    double& second = plane == Plane::kXY ? p.world.height : p.world.depth;
    first = flat.world.width;
    second = flat.world.height;
    const auto in_plane = [&](const Vec3& v, double held) {
      return plane == Plane::kXY   ? Vec3{v.x, v.y, held}
             : plane == Plane::kXZ ? Vec3{v.x, held, v.y}
                                   : Vec3{held, v.x, v.y};
    };
    p.goal = in_plane(flat.goal, level);
    p.wind = in_plane(flat.wind, 0);
    for (Obstacle& o : p.obstacles) {  // spheres whose middles are the plane's discs
      const Vec3 centre = in_plane({o.x, o.y, 0}, level);
      o = Obstacle{centre.x, centre.y, o.radius, centre.z};
    }
    ReferenceStepper three_d(9);
    for (int t = 0; t < steps; ++t) three_d.step(s, p);
    EXPECT_TRUE(bit_identical(flatten(s, plane, level), expected))
        << "plane " << static_cast<int>(plane);
  }
}

TEST(Reference3d, AFlockInACoordinatePlaneFliesTheTwoDimensionalStep) {
  FlockParams flat;
  flat.world.width = 80;
  flat.world.height = 60;
  expect_planar_flight_is_two_dimensional(flat, 80);
}

TEST(Reference3d, SoItDoesBetweenWalls) {
  FlockParams flat;
  flat.world.width = 80;
  flat.world.height = 60;
  flat.world.boundary = Boundary::kWalls;
  flat.wall_distance = 12;
  flat.max_speed = 2;  // boids reach the walls, and some cross and are reflected
  expect_planar_flight_is_two_dimensional(flat, 120);
  flat.model = Model::kVicsek;
  flat.radius = 4;
  expect_planar_flight_is_two_dimensional(flat, 120);
}

// Walls push on every axis and reflect: a fast, noisy flock never leaves the box.
TEST(Reference3d, WallsKeepEveryBoidInTheBox) {
  FlockParams p = box(30);
  p.world.depth = 12;
  p.world.boundary = Boundary::kWalls;
  p.max_speed = 3;
  p.noise = 2;
  FlockState s = make_initial_state(300, 6, p);
  ReferenceStepper stepper(6);
  double lowest = 12, highest = 0;
  for (int t = 0; t < 200; ++t) {
    stepper.step(s, p);
    for (std::size_t i = 0; i < s.size(); ++i) {
      ASSERT_TRUE(s.x[i] >= 0 && s.x[i] < 30 && s.y[i] >= 0 && s.y[i] < 30 && s.z[i] >= 0 &&
                  s.z[i] < 12)
          << "boid " << i << " at step " << t;
      lowest = std::min(lowest, s.z[i]);
      highest = std::max(highest, s.z[i]);
    }
  }
  EXPECT_LT(lowest, 1);  // they did reach the floor and the ceiling
  EXPECT_GT(highest, 11);
}

// Spheres cut by the plane through their middles are its discs: the flight among them is the
// 2D flight among discs, under every model, on the torus and between walls.
TEST(Reference3d, SoItDoesAmongSpheres) {
  FlockParams flat;
  flat.world.width = 80;
  flat.world.height = 60;
  flat.max_speed = 1.5;
  flat.obstacles = {{20, 20, 6}, {50, 30, 9}, {70, 50, 4}, {52, 36, 5}};  // two overlap
  for (const Model model : {Model::kBoids, Model::kSteering, Model::kVicsek}) {
    FlockParams p = flat;
    p.model = model;
    if (model == Model::kSteering) p.max_speed = 40;
    if (model == Model::kVicsek) p.radius = 4;
    expect_planar_flight_is_two_dimensional(p, 80);
    p.world.boundary = Boundary::kWalls;
    expect_planar_flight_is_two_dimensional(p, 80);
  }
}

// No boid ends a step inside a sphere, whatever its speed.
TEST(Reference3d, SpheresKeepEveryBoidOut) {
  FlockParams p = box(40);
  p.max_speed = 4;
  p.noise = 1;
  p.obstacles = {Obstacle{20, 20, 8, 20}, Obstacle{5, 35, 5, 30}, Obstacle{30, 8, 6, 2}};
  FlockState s = make_initial_state(300, 7, p);
  ReferenceStepper stepper(7);
  for (int t = 0; t < 150; ++t) {
    stepper.step(s, p);
    for (std::size_t i = 0; i < s.size(); ++i) {
      for (const Obstacle& o : p.obstacles) {
        const double d[3] = {std::remainder(s.x[i] - o.x, 40.0), std::remainder(s.y[i] - o.y, 40.0),
                             std::remainder(s.z[i] - o.z, 40.0)};
        ASSERT_GE(d[0] * d[0] + d[1] * d[1] + d[2] * d[2], o.radius * o.radius * (1 - 1e-12))
            << "boid " << i << " at step " << t;
      }
    }
  }
}

// The steering model in a plane flies its 2D step too: on the torus with the variants,
// and between walls.
TEST(Reference3d, SoDoesTheSteeringModel) {
  FlockParams flat;
  flat.model = Model::kSteering;
  flat.world.width = 400;
  flat.world.height = 300;
  flat.radius = 44;
  flat.separation = 1.6;
  flat.cohesion = 0.9;
  flat.max_speed = 110;
  flat.fov = 300;
  flat.has_goal = true;
  flat.goal = {100, 200};
  flat.wind = {4, -3};
  expect_planar_flight_is_two_dimensional(flat, 60);
  flat.world.boundary = Boundary::kWalls;
  expect_planar_flight_is_two_dimensional(flat, 60);
}

TEST(Reference3d, SoItDoesWithTheVariantsAndUnderVicsek) {
  FlockParams flat;
  flat.world.width = 80;
  flat.world.height = 60;
  flat.fov = 250;
  flat.separation_radius = 3;
  flat.has_goal = true;
  flat.goal = {20, 45};
  flat.goal_weight = 2;
  flat.wind = {0.03, -0.02};
  expect_planar_flight_is_two_dimensional(flat, 60);
  FlockParams vicsek = flat;
  vicsek.model = Model::kVicsek;
  vicsek.radius = 4;
  vicsek.max_speed = 0.5;
  vicsek.separation_radius = 0;
  vicsek.goal_weight = 0.3;
  expect_planar_flight_is_two_dimensional(vicsek, 60);
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

// The reference backend flies a 3D flock through the Simulation interface: its state, z and
// vz included, and its metrics are the reference's.
TEST(Reference3d, TheReferenceBackendFliesInThreeDimensions) {
  const FlockParams p = box(60);
  const FlockState start = make_initial_state(150, 8, p);
  const auto sim =
      make_simulation({Backend::kReference, Method::kNaive, Precision::kDouble, p, 5}, start);
  sim->step(12);
  FlockState expected = start;
  ReferenceStepper stepper(5);
  for (int t = 0; t < 12; ++t) stepper.step(expected, p);
  const FlockState got = sim->state();
  ASSERT_EQ(got.dimensions, 3);
  EXPECT_TRUE(bit_identical(got, expected));
  EXPECT_EQ(got.z, expected.z);
  EXPECT_EQ(got.vz, expected.vz);
  EXPECT_NE(got.z, start.z);
  const FlockMetrics m = sim->metrics(), oracle = measure_flock_3d(expected, p);
  EXPECT_EQ(m.polarization, oracle.polarization);
  EXPECT_EQ(m.milling, oracle.milling);
  EXPECT_EQ(m.flocks, oracle.flocks);
  EXPECT_EQ(m.mean_nn_distance, oracle.mean_nn_distance);
}

// Starts and configurations of other dimensions do not mix.
TEST(Reference3d, DimensionsDoNotMix) {
  const FlockParams p = box(60);
  const FlockState start = make_initial_state(20, 8, p);
  const auto refused = [](const auto& make, const std::string& expected) {
    try {
      make();
      ADD_FAILURE() << "accepted; expected: " << expected;
    } catch (const InputError& e) {
      EXPECT_NE(std::string(e.what()).find(expected), std::string::npos) << e.what();
    }
  };
  FlockParams flat = p;
  flat.dimensions = 2;
  const SimulationConfig two_d{Backend::kReference, Method::kNaive, Precision::kDouble, flat, 1};
  refused([&] { make_simulation(two_d, start); }, "a start in 3 dimensions cannot fly in 2");
  FlockParams four = p;
  four.dimensions = 4;
  refused(
      [&] {
        make_simulation({Backend::kReference, Method::kNaive, Precision::kDouble, four, 1}, start);
      },
      "a flock flies in 2 or 3 dimensions, not 4");
}

// The published example (120 boids, weights 1.5 / 1 / 1, r = 10, 600 steps) over 20 seeds, in its
// 100 x 100 square and in a cube at the same mean neighbour count (0.0009 boids per unit
// volume: side 51.1). docs/3d.md quotes what this prints.
TEST(Reference3d, TheSeedsExampleInACubeAtTheSameNeighborDensity) {
  for (const int dimensions : {2, 3}) {
    FlockParams p = dimensions == 3 ? box(std::cbrt(120 / 0.0009)) : FlockParams{};
    double start = 0, order = 0, lowest = 1, flocks = 0, largest = 0, nn = 0;
    for (std::uint64_t seed = 1; seed <= 20; ++seed) {
      FlockState s = make_initial_state(120, seed, p);
      start += measure_flock(s, p).polarization / 20;
      ReferenceStepper stepper(seed);
      for (int t = 0; t < 600; ++t) stepper.step(s, p);
      const FlockMetrics m = measure_flock(s, p);
      order += m.polarization / 20;
      lowest = std::min(lowest, m.polarization);
      flocks += static_cast<double>(m.flocks) / 20;
      largest += static_cast<double>(m.largest_flock) / 20;
      nn += m.mean_nn_distance / 20;
    }
    std::printf(
        "%dD: polarization %.3f at the start, %.3f after 600 steps (lowest %.3f); "
        "%.2f flocks, the largest %.1f boids; nearest neighbour %.2f\n",
        dimensions, start, order, lowest, flocks, largest, nn);
    EXPECT_GT(order, 5 * start) << dimensions << "D: the boids align";
  }
}

// The noise turns each heading to a direction uniform on the cap of half-angle eta / 2 around
// it: never farther than eta / 2, cos(theta) uniform in [cos(eta / 2), 1] (mean halfway), the
// azimuth uniform (no side preferred), the speed kept; at eta = 2 pi the headings are uniform
// on the sphere.
TEST(Reference3d, NoiseTurnsHeadingsUniformlyWithinACone) {
  FlockParams p = box(1000);  // no boid sees another
  p.radius = 1e-3;
  p.noise = 1.2;
  FlockState s = make_initial_state(4000, 2, p);
  const FlockState before = s;
  ReferenceStepper stepper(3);
  stepper.step(s, p);
  double mean_cos = 0, side = 0;
  for (std::size_t i = 0; i < s.size(); ++i) {
    const double a[3] = {before.vx[i], before.vy[i], before.vz[i]};
    const double b[3] = {s.vx[i], s.vy[i], s.vz[i]};
    const double cos_t = (a[0] * b[0] + a[1] * b[1] + a[2] * b[2]);  // speeds are 1
    ASSERT_NEAR(std::sqrt(b[0] * b[0] + b[1] * b[1] + b[2] * b[2]), 1, 1e-12);
    ASSERT_GE(cos_t, std::cos(0.6) - 1e-12) << "boid " << i;
    mean_cos += cos_t / 4000;
    // The turn's side: its component along a fixed direction perpendicular to the heading.
    const double n[3] = {a[1], -a[0], 0};
    side += (b[0] * n[0] + b[1] * n[1]) / 4000;
  }
  EXPECT_NEAR(mean_cos, (1 + std::cos(0.6)) / 2, 0.003);
  EXPECT_NEAR(side, 0, 0.01);

  p.noise = 2 * kPi;
  ReferenceStepper full(4);
  full.step(s, p);
  double z2 = 0, hx = 0, hy = 0, hz = 0;
  for (std::size_t i = 0; i < s.size(); ++i) {
    z2 += s.vz[i] * s.vz[i] / 4000;
    hx += s.vx[i] / 4000, hy += s.vy[i] / 4000, hz += s.vz[i] / 4000;
  }
  EXPECT_NEAR(z2, 1.0 / 3, 0.02);
  EXPECT_LT(std::sqrt(hx * hx + hy * hy + hz * hz), 0.04);
  // The draws are the seed's: the same flight again, another with another seed.
  FlockState again = before, other = before;
  ReferenceStepper same(3), different(5);
  p.noise = 1.2;
  same.step(again, p);
  different.step(other, p);
  FlockState once = before;
  ReferenceStepper first(3);
  first.step(once, p);
  EXPECT_TRUE(bit_identical(again, once));
  EXPECT_NE(other.vz[10], once.vz[10]);
}

// The field of view is a cone about the heading: a boid straight behind along z is not seen.
TEST(Reference3d, TheFieldOfViewIsACone) {
  FlockParams p = box(100);
  p.fov = 180;
  FlockState s = two_boids({50, 50}, {50, 50}, {50, 45}, {0, 0}, {0, 0.3}, {0.7, 0.7});
  FlockState alone = two_boids({50}, {50}, {50}, {0}, {0}, {0.7});
  ReferenceStepper a, b;
  a.step(s, p);
  b.step(alone, p);
  EXPECT_EQ(s.vz[0], alone.vz[0]);  // boid 0 heads +z; boid 1 is 5 behind it
  EXPECT_EQ(s.vy[0], 0.0);
  EXPECT_NE(s.vy[1], 0.3);  // boid 1 sees boid 0 ahead, and aligns
}

TEST(Reference3d, WhatIsNotCarriedOverIsRefused) {
  FlockParams p = box(50);
  FlockState s = make_initial_state(10, 1, p);
  ReferenceStepper stepper;
  FlockParams in_place = p;
  in_place.update = Update::kInPlace;
  EXPECT_THROW(stepper.step(s, in_place), InputError);
  FlockParams flat = p;
  flat.dimensions = 2;
  EXPECT_THROW(stepper.step(s, flat), InputError);
  p.obstacles = {Obstacle{25, 25, 50, 25}};  // a sphere holding the whole box
  EXPECT_THROW(make_initial_state(10, 1, p), InputError);
}

}  // namespace
}  // namespace boids
