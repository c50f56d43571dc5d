// `boids run --dimensions 3` (docs/3d.md): a flock in a box on the reference backend, its state
// files with a z column, what it measures, and what three dimensions do not take yet.
#include <gtest/gtest.h>

#include <algorithm>

#include <cmath>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "host/io/state_file.h"
#include "host/metrics/metrics.h"
#include "host/model/initial_state.h"
#include "host/reference/reference.h"
#include "tests/support/cli_fixture.h"

namespace boids {
namespace {

class Cli3d : public test_support::CliFixture {
 protected:
  void expect_refused(const std::vector<std::string>& args, const std::string& message) const {
    const test_support::Result r = run(args);
    EXPECT_EQ(r.code, 2) << r.err;
    EXPECT_NE(r.err.find("boids: error: " + message), std::string::npos) << r.err;
  }
};

// The default 3D flock is the published example in the cube that gives its mean neighbour count;
// the run is the reference's flight, its files hold z, and --init continues it exactly.
TEST_F(Cli3d, RunsTheSeedsRulesInABoxAndSavesZ) {
  const test_support::Result r = run({"run", "--dimensions", "3", "--backend", "reference",
                                      "--steps", "40", "--save", path("s.csv"), "--json"});
  ASSERT_EQ(r.code, 0) << r.err;
  const auto json = nlohmann::json::parse(r.out);
  EXPECT_EQ(json["backend"], "reference");
  EXPECT_EQ(json["dimensions"], 3);
  const double side = json["world"].get<double>();
  EXPECT_NEAR(side, std::cbrt(120 / 0.0009), 1e-9);

  FlockParams p;
  p.dimensions = 3;
  p.world.width = p.world.height = p.world.depth = side;
  FlockState expected = make_initial_state(120, 42, p);
  ReferenceStepper stepper(42);
  for (int t = 0; t < 40; ++t) stepper.step(expected, p);
  const FlockState saved = read_state_file(path("s.csv"), p.world);
  ASSERT_EQ(saved.dimensions, 3);
  EXPECT_TRUE(test_support::bit_identical(saved, expected));
  EXPECT_EQ(saved.z, expected.z);
  EXPECT_EQ(saved.vz, expected.vz);
  EXPECT_EQ(test_support::read_file(path("s.csv")).substr(0, 15), "x,y,z,vx,vy,vz\n");
  EXPECT_NEAR(json["polarization"].get<double>(), measure_flock(expected, p).polarization, 1e-15);

  // Continued from its file (whose 120 boids make the same cube), as .npy too, the flight goes
  // on exactly.
  ASSERT_EQ(run({"run", "--dimensions", "3", "--backend", "reference", "--init", path("s.csv"),
                 "--steps", "10", "--save", path("t.npy")})
                .code,
            0);
  for (int t = 0; t < 10; ++t) stepper.step(expected, p);
  const FlockState continued = read_state_file(path("t.npy"), p.world);
  ASSERT_EQ(continued.dimensions, 3);
  EXPECT_EQ(continued.z, expected.z);
  EXPECT_TRUE(test_support::bit_identical(continued, expected));
}

// Spheres from an obstacle file: no boid is inside one at the end (on the default backend, in
// float: within its rounding).
TEST_F(Cli3d, FliesAmongSpheres) {
  test_support::write_file(path("spheres.csv"), "x,y,z,radius\n20,20,20,7\n5,30,10,4\n");
  const test_support::Result r =
      run({"run", "--dimensions", "3", "--world", "40", "--count", "200", "--steps", "100",
           "--max-speed", "2", "--obstacles", path("spheres.csv"), "--save", path("s.npy")});
  ASSERT_EQ(r.code, 0) << r.err;
  FlockParams p;
  p.dimensions = 3;
  p.world.width = p.world.height = p.world.depth = 40;
  const FlockState s = read_state_file(path("s.npy"), p.world);
  for (std::size_t i = 0; i < s.size(); ++i) {
    const double d2 =
        std::pow(s.x[i] - 20, 2) + std::pow(s.y[i] - 20, 2) + std::pow(s.z[i] - 20, 2);
    EXPECT_GE(d2, 49 * (1 - 1e-5)) << "boid " << i;
  }
}

// The kernels fly in a box: by default (hashed, float), and naive double on the cpu backend is
// the reference's flight bit for bit.
TEST_F(Cli3d, TheKernelsFlyInABox) {
  const test_support::Result r = run({"run", "--dimensions", "3", "--steps", "5", "--json"});
  ASSERT_EQ(r.code, 0) << r.err;
  const auto json = nlohmann::json::parse(r.out);
  EXPECT_NE(json["backend"], "reference");
  EXPECT_EQ(json["method"], "hashed");
  ASSERT_EQ(run({"run", "--dimensions", "3", "--backend", "cpu", "--method", "naive", "--precision",
                 "double", "--noise", "0.5", "--steps", "15", "--save", path("k.npy")})
                .code,
            0);
  FlockParams p;
  p.dimensions = 3;
  p.noise = 0.5;
  p.world.width = p.world.height = p.world.depth = std::cbrt(120 / 0.0009);
  FlockState expected = make_initial_state(120, 42, p);
  ReferenceStepper stepper(42);
  for (int t = 0; t < 15; ++t) stepper.step(expected, p);
  const FlockState saved = read_state_file(path("k.npy"), p.world);
  EXPECT_TRUE(test_support::bit_identical(saved, expected));
  EXPECT_EQ(saved.z, expected.z);
  EXPECT_EQ(saved.vz, expected.vz);
}

// A box's flight checkpointed and resumed ends where the whole flight ends, bit for bit, with
// the goal, the wind and a sphere (their z in the checkpoint) on the hashed method.
TEST_F(Cli3d, CheckpointsResumeExactly) {
  test_support::write_file(path("spheres.csv"), "x,y,z,radius\n20,20,20,6\n");
  const std::vector<std::string> flight = {"--dimensions", "3",
                                           "--world",      "40",
                                           "--count",      "300",
                                           "--noise",      "0.3",
                                           "--goal",       "5,6,7",
                                           "--wind",       "0.01,0,-0.02",
                                           "--obstacles",  path("spheres.csv"),
                                           "--backend",    "cpu",
                                           "--precision",  "double"};
  const auto with = [&](std::vector<std::string> args) {
    args.insert(args.begin(), "run");
    args.insert(args.end(), flight.begin(), flight.end());
    return args;
  };
  ASSERT_EQ(run(with({"--steps", "30", "--save", path("whole.csv")})).code, 0);
  ASSERT_EQ(run(with({"--steps", "12", "--checkpoint", path("c.bin")})).code, 0);
  const test_support::Result r =
      run({"run", "--resume", path("c.bin"), "--steps", "30", "--save", path("resumed.csv")});
  ASSERT_EQ(r.code, 0) << r.err;
  EXPECT_EQ(test_support::read_file(path("resumed.csv")),
            test_support::read_file(path("whole.csv")));
  EXPECT_EQ(test_support::read_file(path("whole.csv")).substr(0, 15), "x,y,z,vx,vy,vz\n");
}

// A sweep flies boxes too, each flock alone or side by side (batches hold 2D flocks).
TEST_F(Cli3d, SweepsFlyBoxes) {
  const test_support::Result r =
      run({"sweep", "--dimensions", "3", "--count", "300", "--param", "noise=0.1,1", "--replicas",
           "2", "--steps", "20", "--every", "10", "--csv", path("s.csv")});
  ASSERT_EQ(r.code, 0) << r.err;
  const std::string csv = test_support::read_file(path("s.csv"));
  EXPECT_EQ(std::count(csv.begin(), csv.end(), '\n'), 3) << csv;
  expect_refused({"sweep", "--dimensions", "3", "--count", "300", "--param", "noise=0.1,1",
                  "--schedule", "batched"},
                 "--schedule batched: flocks fly batched in two dimensions only: a flock in "
                 "three flies alone");
}

TEST_F(Cli3d, BoxesAndDensities) {
  const auto world_of = [&](const std::vector<std::string>& extra) {
    std::vector<std::string> args = {"run", "--dimensions", "3", "--steps", "1", "--json"};
    args.insert(args.end(), extra.begin(), extra.end());
    const test_support::Result r = run(args);
    EXPECT_EQ(r.code, 0) << r.err;
    return r.code == 0 ? nlohmann::json::parse(r.out)["world"] : nlohmann::json();
  };
  EXPECT_EQ(world_of({"--world", "30,40,50", "--count", "20"}), nlohmann::json({30, 40, 50}));
  EXPECT_EQ(world_of({"--world", "30", "--count", "20"}), 30);
  EXPECT_NEAR(world_of({"--density", "0.001", "--count", "64"}).get<double>(), 40, 1e-9);
}

// A state file in three dimensions (a header x,y,z,vx,vy,vz, or a .npy file of shape (N, 6))
// flies in a box without --dimensions 3, as Python's from_state takes them from the shape.
TEST_F(Cli3d, AStateFileGivesItsDimensions) {
  ASSERT_EQ(run({"run", "--dimensions", "3", "--count", "40", "--steps", "3", "--world", "50",
                 "--save", path("box.csv")})
                .code,
            0);
  ASSERT_EQ(run({"run", "--dimensions", "3", "--count", "40", "--steps", "3", "--world", "50",
                 "--save", path("box.npy")})
                .code,
            0);
  for (const std::string file : {"box.csv", "box.npy"}) {
    SCOPED_TRACE(file);
    const test_support::Result r = run({"run", "--init", path(file), "--world", "50", "--steps",
                                        "2", "--json", "--save", path("end.csv")});
    ASSERT_EQ(r.code, 0) << r.err;
    EXPECT_EQ(nlohmann::json::parse(r.out)["dimensions"], 3) << r.out;
    EXPECT_EQ(test_support::read_file(path("end.csv")).rfind("x,y,z,vx,vy,vz\n", 0), 0u);
  }
}

TEST_F(Cli3d, WhatThreeDimensionsDoNotTakeYetIsRefused) {
  expect_refused({"run", "--dimensions", "4"}, "--dimensions: expected 2 or 3, got '4'");
  test_support::write_file(path("discs.csv"), "x,y,radius\n10,10,3\n");
  expect_refused({"run", "--dimensions", "3", "--obstacles", path("discs.csv")},
                 "obstacle file '" + path("discs.csv") + "'");
  test_support::write_file(path("spheres.csv"), "x,y,z,radius\n10,10,90,3\n");
  expect_refused(
      {"run", "--dimensions", "3", "--world", "50", "--obstacles", path("spheres.csv")},
      "obstacle file '" + path("spheres.csv") + "', line 2: z = 90 is outside the world [0, 50)");
  expect_refused({"run", "--dimensions", "3", "--goal", "1,2"},
                 "--goal: in three dimensions expected X,Y,Z");
  expect_refused({"run", "--wind", "1,2,3"}, "--wind X,Y,Z needs --dimensions 3");
  expect_refused({"run", "--dimensions", "3", "--world", "50", "--goal", "1,2,60"},
                 "--goal: the point lies outside the world");
  expect_refused({"run", "--dimensions", "3", "--world", "10,20"},
                 "--world: in three dimensions expected L (a cube) or W,H,D");
  expect_refused({"run", "--world", "10,20,30"}, "--world W,H,D needs --dimensions 3");
  // A state file's dimensions are the run's: --dimensions may only repeat them.
  ASSERT_EQ(run({"run", "--dimensions", "3", "--count", "5", "--steps", "0", "--world", "50",
                 "--save", path("box.csv")})
                .code,
            0);
  expect_refused({"run", "--dimensions", "2", "--init", path("box.csv"), "--world", "50"},
                 "--dimensions 2: state file '" + path("box.csv") +
                     "' holds boids in three dimensions (x,y,z,vx,vy,vz)");
  ASSERT_EQ(run({"run", "--count", "5", "--steps", "0", "--save", path("flat.csv")}).code, 0);
  expect_refused({"run", "--dimensions", "3", "--init", path("flat.csv")},
                 "--dimensions 3: state file '" + path("flat.csv") +
                     "' holds boids in two dimensions (x,y,vx,vy)");
  test_support::write_file(path("far.csv"), "x,y,z,vx,vy,vz\n1,2,60,0.5,0,0\n");
  expect_refused(
      {"run", "--dimensions", "3", "--init", path("far.csv"), "--world", "50"},
      "state file '" + path("far.csv") + "', line 2: z = 60 is outside the world [0, 50)");
}

// The default box follows the radius: a radius too large for it is blamed on --radius, which
// the user gave, not on --world or --density, which they did not.
TEST_F(Cli3d, ARadiusTooLargeForTheDefaultBoxIsBlamedOnTheRadius) {
  for (const char* radius : {"1e308", "1e100"}) {
    const test_support::Result r =
        run({"run", "--dimensions", "3", "--radius", radius, "--steps", "1"});
    EXPECT_EQ(r.code, 2) << r.err;
    EXPECT_EQ(r.err.rfind(std::string("boids: error: --radius ") + radius + ":", 0), 0u) << r.err;
    EXPECT_NE(r.err.find("give --world"), std::string::npos) << r.err;
  }
}

}  // namespace
}  // namespace boids
