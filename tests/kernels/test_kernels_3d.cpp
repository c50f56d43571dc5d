// The kernels in three dimensions (docs/3d.md), written once per backend, method and
// precision against the 3D reference: naive double flies the reference's step bit for bit,
// hashed double and float within the 2D tolerances; a flock in a plane of a box flies the
// kernels' own 2D step bit for bit on every path; the metrics are the host's.
#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <functional>
#include <string>
#include <vector>

#include "host/base/errors.h"
#include "host/core/flock_batch.h"
#include "host/core/simulation.h"
#include "host/core/viewer_access.h"
#include "host/metrics/metrics.h"
#include "host/model/initial_state.h"
#include "host/reference/reference.h"
#include "tests/support/test_support.h"

namespace boids {
namespace {

using test_support::EngineCase;
using test_support::EngineCaseTest;

using test_support::box;

struct Variant3d {
  std::string name;
  std::function<void(FlockParams&)> set;
};

// The boids model's rules in a cube at the published example's mean neighbour count, and every
// variant in 3D.
std::vector<Variant3d> variants_3d() {
  return {
      {"seed", [](FlockParams&) {}},
      {"fov", [](FlockParams& p) { p.fov = 250; }},
      {"separation-noise",
       [](FlockParams& p) {
         p.separation_radius = 4;
         p.noise = 0.6;
       }},
      {"walls", [](FlockParams& p) { p.world.boundary = Boundary::kWalls; }},
      {"spheres-goal-wind",
       [](FlockParams& p) {
         p.obstacles = {Obstacle{20, 20, 8, 30}, Obstacle{50, 40, 6, 10}, Obstacle{54, 44, 5, 14}};
         p.has_goal = true;
         p.goal = {60, 10, 55};
         p.goal_weight = 1.5;
         p.wind = {0.05, -0.02, 0.03};
       }},
      {"walls-spheres-noise",
       [](FlockParams& p) {
         p.world.boundary = Boundary::kWalls;
         p.obstacles = {Obstacle{35, 35, 10, 35}};
         p.noise = 1.0;
         p.max_speed = 3;
       }},
      {"steering",
       [](FlockParams& p) {
         p.model = Model::kSteering;
         p.max_speed = 40;
         p.dt = 0.05;
         p.fov = 300;
       }},
      {"steering-walls-goal-noise",
       [](FlockParams& p) {
         p.model = Model::kSteering;
         p.max_speed = 40;
         p.dt = 0.05;
         p.world.boundary = Boundary::kWalls;
         p.has_goal = true;
         p.goal = {10, 60, 30};
         p.goal_weight = 0.5;
         p.noise = 0.4;
       }},
      {"vicsek-noise",
       [](FlockParams& p) {
         p.model = Model::kVicsek;
         p.max_speed = 0.5;
         p.noise = 2.0;
       }},
      {"vicsek-walls-goal-wind",
       [](FlockParams& p) {
         p.model = Model::kVicsek;
         p.max_speed = 0.5;
         p.world.boundary = Boundary::kWalls;
         p.has_goal = true;
         p.goal = {60, 40, 20};
         p.goal_weight = 0.5;
         p.wind = {0.02, 0, -0.03};
       }},
  };
}

// The largest difference of two coordinates along an axis (across the torus's edge).
double axis_error(double a, double b, double side, bool torus) {
  double d = std::abs(a - b);
  if (torus) d = std::min(d, side - d);
  return d;
}

// Whether boid i has another boid so near a threshold (the radius, the separation radius, the
// edge of its field of view) that float rounding may decide it otherwise than double.
bool near_a_threshold(const FlockState& s, const FlockParams& p, std::size_t i) {
  const double sides[3] = {p.world.width, p.world.height, p.world.depth};
  const double band = 1e-4 * p.radius;
  const double c = std::cos(p.fov / 2 * kPi / 180);
  for (std::size_t j = 0; j < s.size(); ++j) {
    if (j == i) continue;
    const double raw[3] = {s.x[j] - s.x[i], s.y[j] - s.y[i], s.z[j] - s.z[i]};
    double d[3];
    for (int a = 0; a < 3; ++a) {
      d[a] = p.world.torus() ? std::remainder(raw[a], sides[a]) : raw[a];
    }
    const double distance = std::sqrt(d[0] * d[0] + d[1] * d[1] + d[2] * d[2]);
    if (std::abs(distance - p.radius) < band) return true;
    if (std::abs(distance - p.effective_separation_radius()) < band) return true;
    if (p.fov < 360 && distance < p.radius + band) {
      const double v[3] = {s.vx[i], s.vy[i], s.vz[i]};
      const double speed = std::sqrt(v[0] * v[0] + v[1] * v[1] + v[2] * v[2]);
      const double along = d[0] * v[0] + d[1] * v[1] + d[2] * v[2];
      if (std::abs(along - c * distance * speed) < 1e-4 * distance * speed) return true;
    }
  }
  return false;
}

// How far a backend's flight is from the reference's: the largest position and velocity
// error over the boids that no threshold makes uncertain in float.
double largest_error(const FlockState& got, const FlockState& expected, const FlockState& start,
                     const FlockParams& p, bool skip_thresholds) {
  const double sides[3] = {p.world.width, p.world.height, p.world.depth};
  double worst = 0;
  for (std::size_t i = 0; i < got.size(); ++i) {
    if (skip_thresholds && near_a_threshold(start, p, i)) continue;
    const double gp[3] = {got.x[i], got.y[i], got.z[i]};
    const double ep[3] = {expected.x[i], expected.y[i], expected.z[i]};
    const double gv[3] = {got.vx[i], got.vy[i], got.vz[i]};
    const double ev[3] = {expected.vx[i], expected.vy[i], expected.vz[i]};
    for (int a = 0; a < 3; ++a) {
      worst = std::max(
          {worst, axis_error(gp[a], ep[a], sides[a], p.world.torus()), std::abs(gv[a] - ev[a])});
    }
  }
  return worst;
}

class Kernels3d : public EngineCaseTest {};

// Every variant flies the reference's step: naive double bit for bit over 10 steps, hashed
// double within 1e-9 after 10, float within 1e-4 after 1 (as `boids validate` holds 2D).
TEST_P(Kernels3d, FlyTheReferencesStep) {
  const EngineCase c = GetParam();
  const bool exact = c.method == Method::kNaive && c.precision == Precision::kDouble;
  const int steps = c.precision == Precision::kFloat ? 1 : 10;
  const double tolerance = c.precision == Precision::kFloat ? 1e-4 : 1e-9;
  std::uint64_t seed = 31;
  for (const Variant3d& v : variants_3d()) {
    FlockParams p = box(70);
    v.set(p);
    const FlockState start = make_initial_state(300, seed, p);
    FlockState expected = start;
    ReferenceStepper stepper(seed);
    for (int t = 0; t < steps; ++t) stepper.step(expected, p);
    const auto sim = make_simulation({c.backend, c.method, c.precision, p, seed}, start);
    sim->step(steps);
    const FlockState got = sim->state();
    ASSERT_EQ(got.dimensions, 3);
    if (exact) {
      EXPECT_TRUE(test_support::bit_identical(got, expected)) << v.name;
      EXPECT_EQ(got.z, expected.z) << v.name;
      EXPECT_EQ(got.vz, expected.vz) << v.name;
    }
    EXPECT_LE(largest_error(got, expected, start, p, c.precision == Precision::kFloat), tolerance)
        << v.name;
    ++seed;
  }
}

// A flock large enough that the hashed step's blocks lie away from the torus's edges (its
// offsets need no wrapping there) flies the reference's step too.
TEST_P(Kernels3d, ALargerFlockFliesTheReferencesStep) {
  const EngineCase c = GetParam();
  FlockParams p = box(150);
  p.fov = 300;
  const FlockState start = make_initial_state(3000, 4, p);
  const int steps = c.precision == Precision::kFloat ? 1 : 3;
  FlockState expected = start;
  ReferenceStepper stepper(4);
  for (int t = 0; t < steps; ++t) stepper.step(expected, p);
  const auto sim = make_simulation({c.backend, c.method, c.precision, p, 4}, start);
  sim->step(steps);
  const FlockState got = sim->state();
  if (c.method == Method::kNaive && c.precision == Precision::kDouble) {
    EXPECT_TRUE(test_support::bit_identical(got, expected));
    EXPECT_EQ(got.z, expected.z);
  }
  EXPECT_LE(largest_error(got, expected, start, p, c.precision == Precision::kFloat),
            c.precision == Precision::kFloat ? 1e-4 : 1e-9);
}

// A 2D flock lifted into the plane z = level of a box, its third axis still.
FlockState lift(const FlockState& flat, double level) {
  FlockState s = flat;
  s.dimensions = 3;
  s.z.assign(flat.size(), level);
  s.vz.assign(flat.size(), 0.0);
  return s;
}

// In a plane of the box every added term of the third axis is +0, and the hashed step's
// blocks of cells hold the same boids in the same order as the 2D grid's: the kernels' 3D
// step is their 2D step bit for bit, on every path, under every model, with the variants (but
// the noise, whose cone is not the 2D turn), between walls and among spheres cut through
// their middles.
TEST_P(Kernels3d, AFlockInAPlaneFliesTheTwoDimensionalStep) {
  const EngineCase c = GetParam();
  FlockParams flat;
  flat.world.width = flat.world.height = 100;
  const std::vector<std::function<void(FlockParams&)>> settings = {
      [](FlockParams&) {},
      [](FlockParams& p) {
        p.fov = 240;
        p.separation_radius = 3;
        p.has_goal = true;
        p.goal = {70, 20, 0};
        p.wind = {0.03, -0.01, 0};
      },
      [](FlockParams& p) {
        p.world.boundary = Boundary::kWalls;
        p.obstacles = {{30, 30, 8}, {60, 70, 6}, {66, 74, 5}};
      },
      [](FlockParams& p) {
        p.model = Model::kSteering;
        p.max_speed = 40;
        p.dt = 0.05;
      },
      [](FlockParams& p) {
        p.model = Model::kVicsek;
        p.max_speed = 0.5;
        p.world.boundary = Boundary::kWalls;
      },
  };
  int index = 0;
  for (const auto& set : settings) {
    FlockParams two_d = flat;
    set(two_d);
    FlockParams three_d = two_d;
    three_d.dimensions = 3;
    three_d.world.depth = 40;  // three layers of cells: the 2D grid's cells, stacked
    const double level = 20;   // farther from the floor and ceiling than walls reach
    three_d.goal.z = level;
    for (Obstacle& o : three_d.obstacles) o.z = level;
    const FlockState start = make_initial_state(400, 12, two_d);
    const auto planar = make_simulation({c.backend, c.method, c.precision, two_d, 3}, start);
    const auto lifted =
        make_simulation({c.backend, c.method, c.precision, three_d, 3}, lift(start, level));
    planar->step(25);
    lifted->step(25);
    const FlockState s = lifted->state();
    EXPECT_TRUE(test_support::bit_identical(s, planar->state())) << "setting " << index;
    EXPECT_TRUE(std::all_of(s.z.begin(), s.z.end(), [&](double z) { return z == level; }));
    EXPECT_TRUE(std::all_of(s.vz.begin(), s.vz.end(), [](double v) { return v == 0; }));
    ++index;
  }
}

// The backends' metrics (over their cell grid) are the host's (over every pair).
TEST_P(Kernels3d, MetricsAreTheHosts) {
  const EngineCase c = GetParam();
  for (const bool walls : {false, true}) {
    FlockParams p = box(100);  // sparse enough for several flocks
    if (walls) p.world.boundary = Boundary::kWalls;
    const auto sim =
        make_simulation({c.backend, c.method, c.precision, p, 8}, make_initial_state(500, 8, p));
    sim->step(10);
    const FlockMetrics got = sim->metrics(), host = measure_flock_3d(sim->state(), p);
    const double close = c.precision == Precision::kDouble ? 1e-12 : 1e-5;
    EXPECT_NEAR(got.polarization, host.polarization, close);
    EXPECT_NEAR(got.milling, host.milling, close);
    EXPECT_NEAR(got.order, host.order, close);
    EXPECT_NEAR(got.mean_nn_distance, host.mean_nn_distance, close * 10);
    if (c.precision == Precision::kDouble) {
      EXPECT_EQ(got.flocks, host.flocks);
      EXPECT_EQ(got.largest_flock, host.largest_flock);
      EXPECT_EQ(got.mean_neighbors, host.mean_neighbors);
    }
    EXPECT_GT(host.flocks, 1u);  // the test has flocks to count
  }
}

// Saved and continued: a 3D flock resumed from its state and order flies on exactly.
TEST_P(Kernels3d, ResumesExactly) {
  const EngineCase c = GetParam();
  FlockParams p = box(50);
  p.noise = 0.3;
  const FlockState start = make_initial_state(200, 2, p);
  const auto whole = make_simulation({c.backend, c.method, c.precision, p, 2}, start);
  whole->step(20);
  const auto first = make_simulation({c.backend, c.method, c.precision, p, 2}, start);
  first->step(12);
  const auto second = make_simulation({c.backend, c.method, c.precision, p, 2}, start);
  second->resume(first->state(), first->backend_order(), first->steps_taken());
  second->step(8);
  EXPECT_TRUE(test_support::bit_identical(second->state(), whole->state()));
  EXPECT_EQ(second->state().z, whole->state().z);
}

// What the viewer draws of a 3D flock: six floats a boid (x, y, z, vx, vy, vz), in the
// backend's order; the pointer is a predator in 2D only.
TEST_P(Kernels3d, RenderDataHoldsSixFloatsABoid) {
  const EngineCase c = GetParam();
  const FlockParams p = box(40);
  const auto sim =
      make_simulation({c.backend, c.method, c.precision, p, 3}, make_initial_state(300, 3, p));
  sim->step(4);
  const FlockState s = sim->state();
  std::vector<std::array<float, 6>> expected, got(s.size());
  for (std::size_t i = 0; i < s.size(); ++i) {
    expected.push_back({static_cast<float>(s.x[i]), static_cast<float>(s.y[i]),
                        static_cast<float>(s.z[i]), static_cast<float>(s.vx[i]),
                        static_cast<float>(s.vy[i]), static_cast<float>(s.vz[i])});
  }
  viewer_access(*sim).copy_render_data(got.front().data());
  std::sort(expected.begin(), expected.end());
  std::sort(got.begin(), got.end());
  EXPECT_EQ(got, expected);
  EXPECT_THROW(viewer_access(*sim).apply_predator({10, 10, 5, 1}), InputError);
}

INSTANTIATE_TEST_SUITE_P(EveryBackend, Kernels3d, test_support::every_engine_case(),
                         test_support::engine_case_name);

// A batch holds 2D flocks; a 3D flock flies alone.
TEST(Kernels3dBatches, AreRefused) {
  const FlockParams p = box(60);
  const FlockState start = make_initial_state(20, 8, p);
  const SimulationConfig c{Backend::kCpu, Method::kHashed, Precision::kFloat, p, 1};
  try {
    make_batch({c, c}, {start, start});
    ADD_FAILURE() << "a batch of 3D flocks was accepted";
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find("in two dimensions only: a flock in three flies alone"),
              std::string::npos)
        << e.what();
  }
}

}  // namespace
}  // namespace boids
