// The `boids` command line, run as a separate process: exit codes, stdout and stderr, and
// the files it writes (or leaves alone).
#include <fcntl.h>
#include <gtest/gtest.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "host/io/state_file.h"
#include "host/metrics/metrics.h"
#include "host/model/flock.h"
#include "host/model/initial_state.h"
#include "tests/support/cli_fixture.h"
#include "tests/support/test_support.h"

namespace {

namespace fs = std::filesystem;
using boids::test_support::read_file;
using boids::test_support::Result;
using boids::test_support::write_file;

class Cli : public boids::test_support::CliFixture {};

const char* const kKeys[] = {"count",         "steps",
                             "seed",          "backend",
                             "method",        "precision",
                             "polarization",  "flocks",
                             "largest_flock", "mean_nn_distance",
                             "seconds",       "boid_steps_per_second",
                             "bytes_per_boid"};

nlohmann::json parse_json(const std::string& text) {
  try {
    return nlohmann::json::parse(text);
  } catch (const std::exception& e) {
    ADD_FAILURE() << "not JSON: " << e.what() << "\n" << text;
    return nlohmann::json::object();
  }
}

// ---------------------------------------------------------------------------------------

TEST_F(Cli, RunDefaults) {
  for (const char* backend : {"cpu", "reference"}) {
    const Result r = run({"run", "--backend", backend});
    EXPECT_EQ(r.code, 0) << r.err;
    EXPECT_EQ(r.err, "");
    EXPECT_NE(r.out.find("120 boids (boids), 600 steps on " + std::string(backend)),
              std::string::npos)
        << r.out;
    EXPECT_NE(r.out.find("polarization"), std::string::npos) << r.out;
    EXPECT_NE(r.out.find("flocks"), std::string::npos) << r.out;
    EXPECT_NE(r.out.find("mean NN distance"), std::string::npos) << r.out;
  }
}

TEST_F(Cli, Json) {
  const Result r =
      run({"run", "--backend", "cpu", "--count", "50", "--steps", "5", "--seed", "9", "--json"});
  ASSERT_EQ(r.code, 0) << r.err;
  EXPECT_EQ(r.err, "");
  const nlohmann::json j = parse_json(r.out);
  ASSERT_TRUE(j.is_object()) << r.out;
  for (const char* key : kKeys) EXPECT_TRUE(j.contains(key)) << key;
  EXPECT_EQ(j.value("count", 0), 50);
  EXPECT_EQ(j.value("steps", 0), 5);
  EXPECT_EQ(j.value("seed", 0), 9);
  EXPECT_EQ(j.value("backend", ""), "cpu");
  EXPECT_EQ(j.value("method", ""), "hashed");
  EXPECT_EQ(j.value("precision", ""), "float");
  const double polarization = j.value("polarization", -1.0);
  EXPECT_GE(polarization, 0);
  EXPECT_LE(polarization, 1 + 1e-12);
  EXPECT_GE(j.value("flocks", 0), 1);
  EXPECT_LE(j.value("flocks", 0), 50);
  EXPECT_GE(j.value("largest_flock", 0), 1);
  EXPECT_LE(j.value("largest_flock", 0), 50);
  EXPECT_GT(j.value("mean_nn_distance", -1.0), 0);
  EXPECT_GE(j.value("seconds", -1.0), 0);
  EXPECT_GE(j.value("boid_steps_per_second", -1.0), 0);
  // Two boid states (16 bytes each in float) at least; a cell index, but not far more.
  EXPECT_GE(j.value("bytes_per_boid", -1.0), 32.0);
  EXPECT_LE(j.value("bytes_per_boid", -1.0), 1000.0);

  const Result ref =
      run({"run", "--backend", "reference", "--count", "20", "--steps", "0", "--json"});
  ASSERT_EQ(ref.code, 0) << ref.err;
  const nlohmann::json k = parse_json(ref.out);
  EXPECT_EQ(k.value("method", ""), "naive");
  EXPECT_EQ(k.value("precision", ""), "double");
  EXPECT_EQ(k.value("seed", 0), 42);
  // With no steps the metrics are those of the random start, measured here independently.
  const boids::FlockState start = boids::make_initial_state(20, 42, boids::FlockParams{});
  double sx = 0, sy = 0;
  for (std::size_t i = 0; i < start.size(); ++i) {
    const double speed = std::hypot(start.vx[i], start.vy[i]);
    sx += start.vx[i] / speed;
    sy += start.vy[i] / speed;
  }
  EXPECT_NEAR(k.value("polarization", -1.0), std::hypot(sx, sy) / 20, 1e-12);
}

TEST_F(Cli, HashedFloatHoldsAtMost48BytesPerBoid) {
  // At the published example's density; the cell starts are at most 4 bytes per boid at any
  // density.
  for (const char* world : {"288.675", "5000"}) {
    const Result r = run({"run", "--backend", "cpu", "--count", "100000", "--world", world,
                          "--steps", "1", "--json"});
    ASSERT_EQ(r.code, 0) << r.err;
    const double bytes = parse_json(r.out).value("bytes_per_boid", -1.0);
    EXPECT_GT(bytes, 44.0) << world;
    EXPECT_LE(bytes, 48.0) << world;
  }
}

TEST_F(Cli, AFlockThatDoesNotFitIsRefusedBeforeAnythingIsAllocated) {
  // Two billion boids need about 160 GB on the host here; the refusal comes at once.
  for (const char* backend : {"cpu", "reference"}) {
    const Result r =
        run({"run", "--backend", backend, "--count", "2000000000", "--save", "never.csv"});
    EXPECT_EQ(r.code, 1) << r.err;
    EXPECT_EQ(r.err.rfind("boids: error: a flock of 2000000000 boids", 0), 0u) << r.err;
    EXPECT_NE(r.err.find("MiB of host memory; this machine has"), std::string::npos) << r.err;
    EXPECT_EQ(r.out, "");
    EXPECT_TRUE(entries().empty());
  }
}

TEST_F(Cli, HelpAndVersion) {
  Result r = run({"--help"});
  EXPECT_EQ(r.code, 0);
  EXPECT_NE(r.out.find("Usage: boids"), std::string::npos) << r.out;
  EXPECT_EQ(r.err, "");
  r = run({"--version"});
  EXPECT_EQ(r.code, 0);
  EXPECT_EQ(r.out.rfind("boids ", 0), 0u) << r.out;
  EXPECT_EQ(r.err, "");
  r = run({"run", "--help"});
  EXPECT_EQ(r.code, 0);
  EXPECT_NE(r.out.find("Usage: boids run"), std::string::npos) << r.out;
  for (const char* option : {"--count", "--seed", "--backend", "--method", "--precision", "--init",
                             "--save", "--metrics", "--metrics-every", "--json", "--steps"}) {
    EXPECT_NE(r.out.find(option), std::string::npos) << option;
  }
}

// A build whose device code was compiled only to be checked (BOIDS_CUDA_CHECK_ONLY) says so,
// in words and in JSON, and one compiled to be flown says nothing of it.
TEST_F(Cli, InfoSaysWhetherTheDeviceCodeIsBuiltOnlyToBeChecked) {
  const bool check_only = BOIDS_TEST_CUDA_CHECK_ONLY;
  const Result json = run({"info", "--json"});
  ASSERT_EQ(json.code, 0) << json.err;
  EXPECT_EQ(parse_json(json.out)["backends"]["cuda"]["check_only"], check_only) << json.out;
  const Result text = run({"info"});
  ASSERT_EQ(text.code, 0) << text.err;
  EXPECT_EQ(text.out.find("compiled to be checked, not flown") != std::string::npos, check_only)
      << text.out;
}

TEST_F(Cli, NoCommandOrUnknownCommand) {
  Result r = run({});
  EXPECT_EQ(r.code, 2);
  EXPECT_EQ(r.err.rfind("boids: error: ", 0), 0u) << r.err;
  EXPECT_EQ(r.out, "");
  r = run({"fly"});
  EXPECT_EQ(r.code, 2);
  EXPECT_EQ(r.err.rfind("boids: error: ", 0), 0u) << r.err;
  EXPECT_NE(r.err.find("fly"), std::string::npos) << r.err;
  EXPECT_EQ(r.out, "");
  r = run({"fly\naway"});
  EXPECT_EQ(r.code, 2);
  EXPECT_NE(r.err.find("'fly\\naway'"), std::string::npos) << r.err;
}

// The default world is the published model's whatever the count: a flock ten or more times
// as dense as its model's example is told so in the summary, which prints every world.
TEST_F(Cli, EverySummaryPrintsItsWorldAndACrowdedOneSaysSo) {
  const Result crowded = run({"run", "--backend", "cpu", "--count", "1.2e3", "--steps", "1"});
  ASSERT_EQ(crowded.code, 0) << crowded.err;
  EXPECT_NE(crowded.out.find("world              2D, 100 x 100 (a torus), 0.12 boids per unit "
                             "area, r = 10\n                     10 times the boids model's "
                             "example density; --density 0.012 keeps the example's\n"),
            std::string::npos)
      << crowded.out;
  for (const std::vector<std::string>& calm : {std::vector<std::string>{"--count", "1000"},
                                               {"--count", "1200", "--density", "0.012"},
                                               {"--count", "1200", "--world", "400"}}) {
    std::vector<std::string> args = {"run", "--backend", "cpu", "--steps", "1"};
    args.insert(args.end(), calm.begin(), calm.end());
    const Result r = run(args);
    ASSERT_EQ(r.code, 0) << r.err;
    EXPECT_EQ(r.out.find("example density"), std::string::npos) << r.out;
  }
  const Result box = run({"run", "--backend", "cpu", "--steps", "1", "--dimensions", "3"});
  EXPECT_NE(box.out.find("world              3D, "), std::string::npos) << box.out;
}

TEST_F(Cli, BadNumbers) {
  expect_bad({"--count", "abc"}, {"--count", "abc"});
  expect_bad({"--count", "12x"}, {"--count"});
  expect_bad({"--count", "1.5"}, {"--count"});
  expect_bad({"--count", "1.5e0"}, {"--count"});  // 1e3 is 1000: a whole number
  expect_bad({"--count", "+5"}, {"--count"});
  expect_bad({"--count", " 5"}, {"--count"});
  expect_bad({"--count", "5 "}, {"--count"});
  expect_bad({"--count", ""}, {"--count"});
  expect_bad({"--count=", "--steps", "1"}, {"--count"});
  expect_bad({"--count", "-5"}, {"--count"});
  expect_bad({"--count", "0"}, {"--count"});
  expect_bad({"--count", "99999999999999999999"}, {"--count"});
  expect_bad({"--count", "2147483648"}, {"--count"});
  expect_bad({"--seed", "18446744073709551616"}, {"--seed"});
  expect_bad({"--seed", "-1"}, {"--seed"});
  expect_bad({"--seed", "0x10"}, {"--seed"});
  expect_bad({"--steps", "-1"}, {"--steps"});
  expect_bad({"--steps", "ten"}, {"--steps"});
  expect_bad({"--metrics", "m.csv", "--metrics-every", "0"}, {"--metrics-every"});
  expect_bad({"--metrics", "m.csv", "--metrics-every", "-3"}, {"--metrics-every"});
  expect_bad({"--radius", "1.5x"}, {"--radius", "1.5x"});
  expect_bad({"--radius", "0"}, {"--radius"});
  expect_bad({"--radius", "-0"}, {"--radius"});
  expect_bad({"--radius", "-1"}, {"--radius"});
  expect_bad({"--radius", "nan"}, {"--radius"});
  expect_bad({"--radius", "NaN"}, {"--radius"});
  expect_bad({"--radius", "inf"}, {"--radius"});
  expect_bad({"--radius", "infinity"}, {"--radius"});
  expect_bad({"--radius", "1e999"}, {"--radius"});
  expect_bad({"--max-speed", "0"}, {"--max-speed"});
  expect_bad({"--max-speed", "-inf"}, {"--max-speed"});
  expect_bad({"--world", "-100"}, {"--world"});
  expect_bad({"--world", "0"}, {"--world"});
  expect_bad({"--separation", "-0.5"}, {"--separation"});
  expect_bad({"--alignment", "nan"}, {"--alignment"});
  expect_bad({"--cohesion", "inf"}, {"--cohesion"});
  expect_bad({"--cohesion", "x"}, {"--cohesion"});
  expect_bad({"--radius", "1e-400"}, {"--radius", "too small (underflows to 0)"});
  expect_bad({"--world", "1e400"}, {"--world", "too large"});
  // Echoed values stay on one line (expect_bad counts the newlines), escaped and cut.
  expect_bad({"--model", "boids\n\x1b[31m"}, {"--model", "'boids\\n\\x1B[31m'"});
  expect_bad({"--count", std::string(5000, '9')}, {"--count", "(5000 bytes)"});
  expect_bad({"--bogus\r\n"}, {"'--bogus\\r\\n'"});
  expect_bad({"--radius", "1\t"}, {"'1\\t'"});
}

TEST_F(Cli, BadOptions) {
  expect_bad({"--bogus"}, {"--bogus"});
  expect_bad({"--bogus=1"}, {"--bogus"});
  expect_bad({"-c", "5"}, {"-c"});
  expect_bad({"count"}, {"count"});
  expect_bad({"--"}, {"--"});
  expect_bad({"--count"}, {"--count"});
  expect_bad({"--steps", "1", "--seed"}, {"--seed"});
  expect_bad({"--count", "5", "--count", "6"}, {"--count"});
  expect_bad({"--count=5", "--count", "5"}, {"--count"});
  expect_bad({"--json", "--json"}, {"--json"});
  expect_bad({"--json=yes"}, {"--json"});
  expect_bad({"--backend", "gpu"}, {"--backend", "gpu"});
  expect_bad({"--backend", ""}, {"--backend"});
  expect_bad({"--backend", "cpu", "--backend", "reference"}, {"--backend"});
  expect_bad({"--method", "fast"}, {"--method", "fast"});
  expect_bad({"--precision", "half"}, {"--precision", "half"});
  expect_bad({"--backend", "reference", "--precision", "float"}, {"--precision"});
  expect_bad({"--backend", "reference", "--method", "hashed"}, {"--method"});
  expect_bad({"--metrics-every", "10"}, {"--metrics-every"});
  expect_bad({"--save", ""}, {"--save"});
  expect_bad({"--metrics", ""}, {"--metrics"});
  expect_bad({"--init", ""}, {"--init"});
  expect_bad({"--save", "same.csv", "--metrics", "same.csv"}, {"same.csv"});
  expect_bad({"--save", path("no/such/dir/s.csv")}, {"--save"});
  expect_bad({"--metrics", dir_.string()}, {"--metrics"});
  EXPECT_TRUE(entries().empty());
}

TEST_F(Cli, BadModelAndVariantOptions) {
  expect_bad({"--model", "flocking"}, {"--model", "flocking"});
  expect_bad({"--fov", "0"}, {"--fov"});
  expect_bad({"--fov", "361"}, {"--fov", "(0, 360]"});
  expect_bad({"--noise", "-0.1"}, {"--noise"});
  expect_bad({"--noise", "7"}, {"--noise", "2 pi"});
  expect_bad({"--separation-radius", "11"}, {"--separation-radius", "(0, radius"});
  expect_bad({"--boundary", "box"}, {"--boundary", "torus, walls"});
  expect_bad({"--wall-distance", "3"}, {"--wall-distance", "--boundary walls"});
  expect_bad({"--goal", "1"}, {"--goal", "X,Y"});
  expect_bad({"--goal", "1,2,3"}, {"--goal"});
  expect_bad({"--goal", "150,20"}, {"--goal", "outside the world"});
  expect_bad({"--goal-weight", "2"}, {"--goal-weight", "--goal"});
  expect_bad({"--arrival-radius", "5"}, {"--arrival-radius", "needs --goal"});
  expect_bad({"--goal", "5,5", "--arrival-radius", "5"}, {"--arrival-radius", "--model steering"});
  expect_bad({"--model", "vicsek", "--goal", "5,5", "--arrival-radius", "5"},
             {"--arrival-radius", "constant speed"});
  expect_bad({"--model", "steering", "--goal", "5,5", "--arrival-radius", "0"},
             {"--arrival-radius", "> 0"});
  expect_bad({"--wander", "-1"}, {"--wander", ">= 0"});
  expect_bad({"--wander", "2e6"}, {"--wander"});
  expect_bad({"--model", "vicsek", "--wander", "1"}, {"--wander", "under vicsek"});
  expect_bad(
      {"--model", "steering", "--update", "in-place", "--backend", "reference", "--wander", "1"},
      {"--update in-place", "wander"});
  expect_bad({"--wind", "x,1"}, {"--wind"});
  expect_bad({"--world", "0"}, {"--world"});
  expect_bad({"--world", "10,"}, {"--world"});
  expect_bad({"--world", "10,-5"}, {"--world"});
  expect_bad({"--world", "10,5,2"}, {"--world"});
  expect_bad({"--density", "4", "--world", "10"}, {"--density", "--world"});
  expect_bad({"--density", "0"}, {"--density"});
  expect_bad({"--model", "vicsek", "--alignment", "1"}, {"--alignment", "Vicsek"});
  expect_bad({"--model", "vicsek", "--max-speed", "1"}, {"--max-speed", "--speed"});
  expect_bad({"--speed", "1"}, {"--speed", "Vicsek"});
  expect_bad({"--dt", "0.1"}, {"--dt", "steering"});
  expect_bad({"--update", "sideways"}, {"--update"});
  expect_bad({"--update", "in-place"}, {"--update in-place", "--model steering"});
  expect_bad({"--update", "in-place", "--model", "steering"}, {"--update in-place", "reference"});
  expect_bad(
      {"--backend", "reference", "--update", "in-place", "--model", "steering", "--noise", "1"},
      {"--update in-place", "noise"});
  expect_bad({"--obstacles", path("missing.csv")}, {"obstacle file", "missing.csv"});
  expect_bad({"--obstacles", ""}, {"--obstacles"});
  expect_bad({"--plot", "history.jpg"}, {"--plot", ".png"});
  struct Case {
    std::string text, line, detail;
  };
  const Case obstacles[] = {{"x,y,r\n1,2,3\n", "line 1:", "expected the header 'x,y,radius'"},
                            {"x,y,radius\n1,2,0\n", "line 2:", "radius = 0 is not > 0"},
                            {"x,y,radius\n1,2,-3\n", "line 2:", "radius = -3"},
                            {"x,y,radius\n100,2,3\n", "line 2:", "x = 100 is outside the world"},
                            {"x,y,radius\n1,2\n", "line 2:", "expected 3 values"},
                            {"x,y,radius\n1,2,nan\n", "line 2:", "not finite"}};
  for (const Case& c : obstacles) {
    write_file(path("rocks.csv"), c.text);
    expect_bad({"--obstacles", path("rocks.csv"), "--steps", "1"},
               {"obstacle file", c.line, c.detail});
  }
  const Case paths[] = {{"x,z\n1,2\n3,4\n", "line 1:", "expected the header 'x,y'"},
                        {"x,y\n1,2\n1,2\n", "line 3:", "the same point as the one before it"},
                        {"x,y\n1,2\n100,4\n", "line 3:", "x = 100 is outside the world"},
                        {"x,y\n1,2\n3\n", "line 3:", "expected 2 values"},
                        {"x,y\n1,inf\n", "line 2:", "not finite"}};
  for (const Case& c : paths) {
    write_file(path("path.csv"), c.text);
    expect_bad({"--path", path("path.csv"), "--steps", "1"}, {"path file", c.line, c.detail});
  }
  write_file(path("path.csv"), "x,y\n1,2\n");
  expect_bad({"--path", path("path.csv")}, {"path file", "at least two points, got 1"});
  write_file(path("path.csv"), "x,y\n1,2\n8,2\n");  // inside Vicsek's world of side 10 too
  expect_bad({"--path", path("path.csv"), "--model", "vicsek"}, {"--path", "under vicsek"});
  expect_bad({"--path-radius", "3"}, {"--path-radius needs --path"});
  expect_bad({"--path-weight", "3"}, {"--path-weight needs --path"});
  expect_bad({"--path", path("path.csv"), "--path-radius", "0"}, {"--path-radius", "> 0"});
  expect_bad({"--path", path("path.csv"), "--dimensions", "3"}, {"path file", "'x,y,z'"});
  write_file(path("path.csv"), "x,y\n10,20\n10.000000001,20\n");
  expect_bad({"--path", path("path.csv"), "--precision", "float"},
             {"path file '" + path("path.csv") + "', line 3",
              "the same point as the one before it in float precision"});
  expect_bad({"--path", path("missing.csv")}, {"path file", "missing.csv"});
  std::filesystem::remove(path("path.csv"));
  // A start that the variant cannot fly.
  write_file(path("rocks.csv"), "x,y,radius\n50,50,10\n");
  write_file(path("start.csv"), "x,y,vx,vy\n10,10,1,0\n52,50,1,0\n");
  expect_bad({"--obstacles", path("rocks.csv"), "--init", path("start.csv")},
             {"start.csv", "boid 1 starts inside an obstacle"});
  expect_bad({"--model", "vicsek", "--world", "100", "--init", path("start.csv")},
             {"start.csv", "boid 0 moves at speed 1", "--speed 0.03"});
  std::filesystem::remove(path("rocks.csv"));
  std::filesystem::remove(path("start.csv"));
  EXPECT_TRUE(entries().empty());
}

// --min-speed: the floor of the speed clamp. Given, cpu naive double flies the reference's
// flight bit for bit; at its default (v_max / 2) it is the published step, given or not; it
// reports the value in effect, and is refused under Vicsek and above the maximum speed.
TEST_F(Cli, MinSpeedFliesAsTheReference) {
  const auto saved = [&](const std::vector<std::string>& extra, const std::string& name) {
    std::vector<std::string> args = {"run", "--steps", "200", "--noise", "1", "--save", path(name)};
    args.insert(args.end(), extra.begin(), extra.end());
    const Result r = run(args);
    EXPECT_EQ(r.code, 0) << r.err;
    return read_file(path(name));
  };
  for (const std::string floor : {"0.2", "0"}) {
    SCOPED_TRACE("--min-speed " + floor);
    const std::string kernels = saved(
        {"--min-speed", floor, "--backend", "cpu", "--method", "naive", "--precision", "double"},
        "cpu.csv");
    EXPECT_EQ(kernels, saved({"--min-speed", floor, "--backend", "reference"}, "ref.csv"));
    EXPECT_NE(kernels, saved({"--backend", "reference"}, "seed.csv"));
  }
  EXPECT_EQ(saved({"--min-speed", "0.5", "--backend", "reference"}, "half.csv"),
            saved({"--backend", "reference"}, "seed.csv"));
  const Result json = run({"run", "--steps", "1", "--json", "--model", "steering"});
  EXPECT_NE(json.out.find("\"min_speed\": 38.5"), std::string::npos) << json.out;
  expect_bad({"--model", "vicsek", "--min-speed", "0.01"},
             {"--min-speed", "the Vicsek model moves at a constant --speed"});
  expect_bad({"--min-speed", "2"}, {"--min-speed", "max speed = 1"});
  expect_bad({"--min-speed", "-1"}, {"--min-speed", ">= 0"});
}

TEST_F(Cli, ModelsAndVariantsRunAndReportThemselves) {
  write_file(path("rocks.csv"), "x,y,radius\n50,50,10\n");
  const Result r = run({"run",     "--backend", "cpu",        "--model",     "steering",
                        "--world", "300,200",   "--boundary", "walls",       "--fov",
                        "270",     "--noise",   "0.5",        "--obstacles", path("rocks.csv"),
                        "--goal",  "20,30",     "--wind",     "1,0",         "--count",
                        "200",     "--steps",   "20",         "--json"});
  ASSERT_EQ(r.code, 0) << r.err;
  const nlohmann::json j = parse_json(r.out);
  EXPECT_EQ(j.value("model", ""), "steering");
  EXPECT_EQ(j["world"], nlohmann::json({300.0, 200.0}));
  EXPECT_EQ(j.value("boundary", ""), "walls");
  EXPECT_EQ(j.value("fov", 0.0), 270.0);
  EXPECT_EQ(j.value("noise", 0.0), 0.5);
  EXPECT_EQ(j.value("obstacles", 0), 1);
  EXPECT_EQ(j["goal"], nlohmann::json({20.0, 30.0}));
  EXPECT_EQ(j.value("separation_radius", 0.0), 44 * 0.45);  // the lab's
  EXPECT_EQ(j.value("dt", 0.0), 1.0 / 60);
  EXPECT_GE(j.value("order", -1.0), 0.0);
  EXPECT_GT(j.value("mean_neighbors", -1.0), 0.0);
  // The Vicsek model's defaults: Vicsek's figure 2a at density 4.
  const Result v = run({"run", "--backend", "cpu", "--model", "vicsek", "--steps", "5", "--json"});
  ASSERT_EQ(v.code, 0) << v.err;
  const nlohmann::json k = parse_json(v.out);
  EXPECT_EQ(k.value("count", 0), 400);
  EXPECT_EQ(k.value("world", 0.0), 10.0);
  EXPECT_EQ(k.value("max_speed", 0.0), 0.03);
  EXPECT_EQ(k.value("radius", 0.0), 1.0);
  // Wander and a closed path.
  write_file(path("loop.csv"), "x,y\n20,20\n80,20\n50,80\n20,20\n");
  const Result w = run({"run", "--backend", "cpu", "--count", "100", "--steps", "40", "--wander",
                        "0.5", "--path", path("loop.csv"), "--path-weight", "2", "--json"});
  ASSERT_EQ(w.code, 0) << w.err;
  const nlohmann::json l = parse_json(w.out);
  EXPECT_EQ(l.value("wander", 0.0), 0.5);
  EXPECT_EQ(l.value("path_points", 0), 4);
  EXPECT_EQ(l.value("path_closed", false), true);
  EXPECT_EQ(l.value("path_radius", 0.0), 10.0);  // the perception radius
  EXPECT_EQ(l.value("path_weight", 0.0), 2.0);
  // Topological neighbours: each boid heeds its 7 nearest.
  const Result n = run(
      {"run", "--backend", "cpu", "--count", "100", "--steps", "5", "--nearest", "7", "--json"});
  ASSERT_EQ(n.code, 0) << n.err;
  EXPECT_EQ(parse_json(n.out).value("nearest", 0), 7);
  EXPECT_EQ(parse_json(n.out).value("mean_neighbors", 0.0), 7.0);
}

TEST_F(Cli, PlotDrawsTheMetricsSeries) {
  const Result r = run({"run", "--backend", "cpu", "--count", "100", "--steps", "50", "--plot",
                        path("history.png")});
  if (plotting_unavailable(r)) GTEST_SKIP() << r.err;
  ASSERT_EQ(r.code, 0) << r.err;
  const std::string png = read_file(path("history.png"));
  EXPECT_EQ(png.rfind("\x89PNG", 0), 0u);
  EXPECT_GT(png.size(), 10000u);
  EXPECT_EQ(entries(), (std::set<std::string>{"history.png"}));  // no temporary left
}

// The ranges of value_limits.h, both sides of each bound.
TEST_F(Cli, NumbersOutsideTheRangesAreRefused) {
  const auto accepted = [&](std::vector<std::string> args) {
    args.insert(args.begin(), {"run", "--count", "20", "--steps", "2"});
    const Result r = run(args);
    EXPECT_EQ(r.code, 0) << r.err;
  };
  // One step may not carry a boid across the world, or the box between walls.
  expect_bad({"--max-speed", "150"},
             {"--max-speed", "below the world's side 100", "cross the world", "got 150"});
  expect_bad({"--max-speed", "100"}, {"--max-speed", "below the world's side 100"});
  accepted({"--backend", "cpu", "--max-speed", "99"});
  expect_bad({"--world", "100,40", "--max-speed", "45"}, {"--max-speed", "side 40"});
  expect_bad({"--boundary", "walls", "--max-speed", "100"}, {"--max-speed", "side 100"});
  accepted({"--backend", "cpu", "--boundary", "walls", "--max-speed", "99"});
  expect_bad({"--world", "1e-50", "--precision", "double"}, {"--max-speed", "side 1e-50"});
  expect_bad({"--model", "steering", "--dt", "10"}, {"--max-speed", "--dt 10", "below 60"});
  accepted({"--backend", "cpu", "--model", "steering", "--dt", "5"});
  expect_bad({"--model", "vicsek", "--speed", "10"}, {"--speed", "side 10"});
  expect_bad({"--model", "vicsek", "--speed", "5", "--wind", "6,0"}, {"--wind", "below 5"});
  accepted({"--backend", "cpu", "--model", "vicsek", "--speed", "5", "--wind", "4,0"});
  // Double's ranges, on every backend.
  expect_bad({"--backend", "reference", "--world", "1e300"}, {"--world", "1e300", "1e60"});
  expect_bad({"--backend", "reference", "--radius", "1e-200"}, {"--radius", "1e-200", "1e-60"});
  accepted({"--backend", "reference", "--radius", "1e-60"});
  accepted({"--backend", "reference", "--world", "1e60"});
  expect_bad({"--separation", "1.000001e6"}, {"--separation", "1e6"});
  accepted({"--backend", "cpu", "--separation", "1e6", "--goal", "5,5", "--goal-weight", "1e6"});
  expect_bad({"--precision", "double", "--wind", "1e-70,0"}, {"--wind", "1e-70"});
  // Float's.
  expect_bad({"--world", "1e300", "--precision", "float"},
             {"--world", "1e300", "too large for --precision float", "at most 1e9"});
  expect_bad({"--world", "1e20"}, {"--world", "--precision float", "use --precision double"});
  accepted({"--backend", "cpu", "--world", "1e9"});
  accepted({"--backend", "cpu", "--world", "1e20", "--precision", "double"});
  expect_bad({"--radius", "1e-10"}, {"--radius", "too small for --precision float", "1e-9"});
  accepted({"--backend", "cpu", "--radius", "1e-9"});
  expect_bad({"--model", "steering", "--dt", "1e-12"}, {"--dt", "--precision float"});
  expect_bad({"--wind", "1e10,0"}, {"--wind", "--precision float"});
  expect_bad({"--density", "1e-30"}, {"--world", "--precision float"});
  write_file(path("rocks.csv"), "x,y,radius\n50,50,1e-12\n");
  expect_bad({"--obstacles", path("rocks.csv")}, {"--obstacles: obstacle 1 radius", "float"});
  write_file(path("big.csv"), "x,y,radius\n50,50,100\n");
  expect_bad({"--obstacles", path("big.csv")}, {"obstacle 1", "below the world's side 100"});
}

// Velocities a state file may hold: what float cannot take is refused naming the file, the
// line and the column; double takes 1e200, which the first step clamps to v_max.
TEST_F(Cli, StateFileVelocitiesBeyondThePrecisionAreRefused) {
  write_file(path("huge.csv"), "x,y,vx,vy\n10,10,0.5,0\n20,20,1e39,0\n");
  expect_bad({"--init", path("huge.csv")},
             {"huge.csv", "line 3, column 3", "vx = 1e39", "--precision float", "1e20"});
  write_file(path("large.csv"), "x,y,vx,vy\n10,10,0.5,0\n20,20,0,-1.5e20\n");
  expect_bad({"--init", path("large.csv")}, {"line 3, column 4", "use --precision double"});
  write_file(path("fits.csv"), "x,y,vx,vy\n10,10,0.5,0\n20,20,0,-1e20\n");
  EXPECT_EQ(run({"run", "--backend", "cpu", "--init", path("fits.csv"), "--steps", "1"}).code, 0);
  write_file(path("double.csv"), "x,y,vx,vy\n10,10,0.5,0\n20,20,1e200,-1e200\n");
  const Result r = run({"run", "--backend", "reference", "--init", path("double.csv"), "--steps",
                        "1", "--save", path("out.csv")});
  ASSERT_EQ(r.code, 0) << r.err;
  const boids::FlockState out = boids::read_state_file(path("out.csv"), 100.0);
  EXPECT_NEAR(out.vx[1], std::sqrt(0.5), 1e-12);
  EXPECT_NEAR(out.vy[1], -std::sqrt(0.5), 1e-12);
  write_file(path("beyond.csv"), "x,y,vx,vy\n10,10,1e300,0\n");
  expect_bad({"--backend", "reference", "--init", path("beyond.csv")},
             {"line 2, column 3", "1e250"});
}

// --density with --init: the world holds the file's boids at that density, not --count's.
TEST_F(Cli, DensityFitsTheWorldToTheInitFilesBoids) {
  for (const std::string name : {"start.npy", "start.csv"}) {
    const Result made = run({"run", "--backend", "cpu", "--count", "500", "--density", "0.05",
                             "--steps", "0", "--save", path(name)});
    ASSERT_EQ(made.code, 0) << made.err;
    const Result r = run({"run", "--backend", "cpu", "--init", path(name), "--density", "0.05",
                          "--steps", "1", "--json"});
    ASSERT_EQ(r.code, 0) << r.err;
    const auto json = nlohmann::json::parse(r.out);
    EXPECT_EQ(json["count"], 500);
    EXPECT_DOUBLE_EQ(json["world"].get<double>(), std::sqrt(500 / 0.05)) << name;
  }
}

// A boid that the published step's wrap would leave at L is at 0: a saved state reads back.
TEST_F(Cli, SavedStateReadsBack) {
  write_file(path("edge.csv"), "x,y,vx,vy\n0,40,-1e-170,0\n40,0,0,-1e-170\n");
  for (const std::string backend : {"reference", "cpu"}) {
    const Result r = run({"run", "--backend", backend, "--precision", "double", "--init",
                          path("edge.csv"), "--steps", "3", "--save", path("out.csv")});
    ASSERT_EQ(r.code, 0) << r.err;
    const Result again = run({"run", "--backend", backend, "--precision", "double", "--init",
                              path("out.csv"), "--steps", "1"});
    EXPECT_EQ(again.code, 0) << again.err;
  }
}

TEST_F(Cli, BadInitFiles) {
  struct Case {
    std::string name, text;
    int line;
  };
  const std::vector<Case> cases = {
      {"header.csv", "x,y,vx\n1,2,3,4\n", 1},
      {"short.csv", "x,y,vx,vy\n1,2,3,4\n1,2,3\n", 3},
      {"long.csv", "x,y,vx,vy\n1,2,3,4,5\n", 2},
      {"word.csv", "x,y,vx,vy\n1,2,three,4\n", 2},
      {"junk.csv", "x,y,vx,vy\n1,2,3,4\n1.5x,2,3,4\n", 3},
      {"space.csv", "x,y,vx,vy\n1, 2,3,4\n", 2},
      {"nan.csv", "x,y,vx,vy\n1,2,nan,4\n", 2},
      {"inf.csv", "x,y,vx,vy\n1,2,3,-inf\n", 2},
      {"negative.csv", "x,y,vx,vy\n-1,2,3,4\n", 2},
      {"edge.csv", "x,y,vx,vy\n1,100,3,4\n", 2},
      {"empty.csv", "", 1},
      {"header_only.csv", "x,y,vx,vy\n", 2},
      {"binary.csv", std::string("x,y,vx,vy\n1,2,3,4\n\x01\x02\0\xff", 22), 3},
  };
  for (const Case& c : cases) {
    write_file(path(c.name), c.text);
    expect_bad({"--init", path(c.name)}, {path(c.name), "line " + std::to_string(c.line) + ":"});
  }
  // Inside a world of 100 but not of 50.
  write_file(path("world.csv"), "x,y,vx,vy\n60,2,3,4\n");
  expect_bad({"--init", path("world.csv"), "--world", "50"}, {path("world.csv"), "line 2:"});
  expect_bad({"--init", path("missing.csv")}, {path("missing.csv")});
  fs::create_directories(path("dir.csv"));
  expect_bad({"--init", path("dir.csv")}, {path("dir.csv"), "directory"});
  expect_bad({"--init", "/dev/null"}, {"/dev/null"});
}

TEST_F(Cli, FailedRunLeavesOutputFilesUntouched) {
  write_file(path("save.csv"), "old save\n");
  write_file(path("metrics.csv"), "old metrics\n");
  write_file(path("bad.csv"), "x,y,vx,vy\n1,2,3\n");
  expect_bad(
      {"--init", path("bad.csv"), "--save", path("save.csv"), "--metrics", path("metrics.csv")},
      {path("bad.csv")});
  expect_bad({"--backend", "reference", "--precision", "float", "--save", path("save.csv"),
              "--metrics", path("metrics.csv")},
             {"--precision"});
  expect_bad({"--save", path("save.csv"), "--metrics", path("metrics.csv"), "--count", "0"},
             {"--count"});
  EXPECT_EQ(read_file(path("save.csv")), "old save\n");
  EXPECT_EQ(read_file(path("metrics.csv")), "old metrics\n");
  EXPECT_EQ(entries(), (std::set<std::string>{"save.csv", "metrics.csv", "bad.csv"}));

  // A successful run replaces both.
  const Result r = run({"run", "--backend", "cpu", "--count", "30", "--steps", "3", "--save",
                        path("save.csv"), "--metrics", path("metrics.csv")});
  ASSERT_EQ(r.code, 0) << r.err;
  const std::string saved = read_file(path("save.csv"));
  EXPECT_EQ(saved.rfind("x,y,vx,vy\n", 0), 0u) << saved;
  EXPECT_EQ(boids::parse_state(saved, "save.csv", 100).size(), 30u);
  const std::string metrics = read_file(path("metrics.csv"));
  EXPECT_EQ(metrics.rfind("step,polarization,flocks,largest_flock,mean_nn_distance,order,mean_"
                          "neighbors,milling\n0,",
                          0),
            0u)
      << metrics;
  // With each table, its record (host/tools/output_record.h).
  EXPECT_EQ(entries(), (std::set<std::string>{"save.csv", "save.csv.json", "metrics.csv",
                                              "metrics.csv.json", "bad.csv"}));
}

std::vector<std::vector<std::string>> csv_rows(const std::string& text) {
  std::vector<std::vector<std::string>> rows;
  std::istringstream lines(text);
  std::string line;
  while (std::getline(lines, line)) {
    std::vector<std::string> fields;
    std::istringstream cells(line);
    std::string cell;
    while (std::getline(cells, cell, ',')) fields.push_back(cell);
    rows.push_back(fields);
  }
  return rows;
}

TEST_F(Cli, MetricsFileRows) {
  const Result r = run({"run", "--backend", "reference", "--count", "40", "--seed", "3", "--steps",
                        "25", "--metrics", path("m.csv"), "--metrics-every", "10", "--json"});
  ASSERT_EQ(r.code, 0) << r.err;
  const std::string text = read_file(path("m.csv"));
  const auto rows = csv_rows(text);
  ASSERT_EQ(rows.size(), 5u) << text;
  EXPECT_EQ(rows[0],
            (std::vector<std::string>{"step", "polarization", "flocks", "largest_flock",
                                      "mean_nn_distance", "order", "mean_neighbors", "milling"}));
  const char* steps[] = {"0", "10", "20", "25"};
  for (int k = 0; k < 4; ++k) {
    ASSERT_EQ(rows[k + 1].size(), 8u) << text;
    EXPECT_EQ(rows[k + 1][0], steps[k]);
    const double p = std::stod(rows[k + 1][1]);
    EXPECT_GE(p, 0);
    EXPECT_LE(p, 1 + 1e-12);
    EXPECT_GE(std::stoll(rows[k + 1][2]), 1);
    EXPECT_LE(std::stoll(rows[k + 1][3]), 40);
    EXPECT_GT(std::stod(rows[k + 1][4]), 0);
  }
  // Step 0 is the random start, measured here by the library's metrics; step 25 is the run's
  // final result.
  boids::FlockParams params;
  const boids::FlockMetrics start =
      boids::measure_flock(boids::make_initial_state(40, 3, params), params);
  EXPECT_NEAR(std::stod(rows[1][1]), start.polarization, 1e-12);
  EXPECT_EQ(std::stoull(rows[1][2]), start.flocks);
  EXPECT_EQ(std::stoull(rows[1][3]), start.largest_flock);
  EXPECT_NEAR(std::stod(rows[1][4]), start.mean_nn_distance, 1e-12);
  EXPECT_NEAR(std::stod(rows[1][5]), start.order, 1e-12);
  EXPECT_NEAR(std::stod(rows[1][6]), start.mean_neighbors, 1e-12);
  EXPECT_NEAR(std::stod(rows[1][7]), start.milling, 1e-12);
  const nlohmann::json j = parse_json(r.out);
  EXPECT_NEAR(std::stod(rows[4][1]), j.value("polarization", -1.0), 1e-12);
  EXPECT_EQ(std::stoll(rows[4][2]), j.value("flocks", -1));
  EXPECT_EQ(std::stoll(rows[4][3]), j.value("largest_flock", -1));
  EXPECT_NEAR(std::stod(rows[4][4]), j.value("mean_nn_distance", -1.0), 1e-12);
  EXPECT_NEAR(std::stod(rows[4][5]), j.value("order", -1.0), 1e-12);
  EXPECT_NEAR(std::stod(rows[4][6]), j.value("mean_neighbors", -1.0), 1e-12);
  // Step 10 agrees with a run of 10 steps.
  const Result ten = run(
      {"run", "--backend", "reference", "--count", "40", "--seed", "3", "--steps", "10", "--json"});
  ASSERT_EQ(ten.code, 0) << ten.err;
  const nlohmann::json t = parse_json(ten.out);
  EXPECT_NEAR(std::stod(rows[2][1]), t.value("polarization", -1.0), 1e-12);
  EXPECT_EQ(std::stoll(rows[2][2]), t.value("flocks", -1));
  EXPECT_NEAR(std::stod(rows[2][4]), t.value("mean_nn_distance", -1.0), 1e-12);

  // Without --metrics-every: the start and the end.
  ASSERT_EQ(
      run({"run", "--backend", "cpu", "--count", "10", "--steps", "7", "--metrics", path("m2.csv")})
          .code,
      0);
  const auto two = csv_rows(read_file(path("m2.csv")));
  ASSERT_EQ(two.size(), 3u);
  EXPECT_EQ(two[1][0], "0");
  EXPECT_EQ(two[2][0], "7");
}

TEST_F(Cli, SaveThenInitContinuesTheTrajectory) {
  const std::vector<std::string> flock = {"--backend", "reference", "--count",
                                          "80",        "--seed",    "17"};
  auto with = [&](std::vector<std::string> extra) {
    std::vector<std::string> args = {"run"};
    args.insert(args.end(), extra.begin(), extra.end());
    return args;
  };
  std::vector<std::string> a = with(flock), b = with(flock);
  a.insert(a.end(), {"--steps", "10", "--save", path("s10.csv")});
  b.insert(b.end(), {"--steps", "20", "--save", path("s20.csv"), "--json"});
  ASSERT_EQ(run(a).code, 0);
  const Result whole = run(b);
  ASSERT_EQ(whole.code, 0) << whole.err;
  const Result rest = run({"run", "--backend", "reference", "--init", path("s10.csv"), "--steps",
                           "10", "--save", path("s10+10.csv"), "--json"});
  ASSERT_EQ(rest.code, 0) << rest.err;
  const std::string s20 = read_file(path("s20.csv"));
  EXPECT_EQ(boids::parse_state(s20, "s20.csv", 100).size(), 80u);
  EXPECT_EQ(read_file(path("s10+10.csv")), s20);  // bit for bit: the shortest round-trip form
  EXPECT_NE(read_file(path("s10.csv")), s20);
  const nlohmann::json j = parse_json(whole.out), k = parse_json(rest.out);
  for (const char* key : {"polarization", "flocks", "largest_flock", "mean_nn_distance", "count"}) {
    EXPECT_EQ(j[key], k[key]) << key;
  }
  EXPECT_EQ(k.value("seed", 0), 42);  // keys the noise, also with --init

  // Saving after no steps writes the random start exactly.
  std::vector<std::string> c = with(flock);
  c.insert(c.end(), {"--steps", "0", "--save", path("s0.csv")});
  ASSERT_EQ(run(c).code, 0);
  const boids::FlockState start = boids::make_initial_state(80, 17, boids::FlockParams{});
  const boids::FlockState saved = boids::read_state_file(path("s0.csv"), 100);
  ASSERT_EQ(saved.size(), 80u);
  for (std::size_t i = 0; i < 80; ++i) {
    EXPECT_EQ(saved.x[i], start.x[i]);
    EXPECT_EQ(saved.y[i], start.y[i]);
    EXPECT_EQ(saved.vx[i], start.vx[i]);
    EXPECT_EQ(saved.vy[i], start.vy[i]);
  }

  // The cpu backend continues from a saved state too (its own precision, so compared loosely).
  ASSERT_EQ(run({"run", "--backend", "cpu", "--precision", "double", "--init", path("s10.csv"),
                 "--steps", "10", "--save", path("cpu.csv")})
                .code,
            0);
  EXPECT_EQ(boids::read_state_file(path("cpu.csv"), 100).size(), 80u);
}

TEST_F(Cli, NpySaveAndInit) {
  // The same state as .npy and as CSV, bit for bit; and a run continues from the .npy file.
  ASSERT_EQ(
      run({"run", "--backend", "cpu", "--count", "40", "--steps", "5", "--save", path("s.npy")})
          .code,
      0);
  ASSERT_EQ(
      run({"run", "--backend", "cpu", "--count", "40", "--steps", "5", "--save", path("s.csv")})
          .code,
      0);
  const boids::FlockState npy = boids::read_state_file(path("s.npy"), 100);
  const boids::FlockState csv = boids::read_state_file(path("s.csv"), 100);
  ASSERT_EQ(npy.size(), 40u);
  EXPECT_EQ(npy.x, csv.x);
  EXPECT_EQ(npy.vy, csv.vy);
  const Result r = run({"run", "--backend", "cpu", "--init", path("s.npy"), "--steps", "1"});
  EXPECT_EQ(r.code, 0) << r.err;
  write_file(path("bad.npy"), "x,y,vx,vy\n1,2,3,4\n");
  expect_bad({"--init", path("bad.npy")}, {path("bad.npy"), "not a NumPy .npy file"});
}

TEST_F(Cli, ArgumentsAreNotInterpretedByAShell) {
  // A file name with spaces and shell characters is used as given.
  const std::string odd = path("my state; $(rm -rf x) 'q'.csv");
  const Result r = run({"run", "--backend", "cpu", "--count", "5", "--steps", "1", "--save", odd});
  ASSERT_EQ(r.code, 0) << r.err;
  EXPECT_EQ(boids::read_state_file(odd, 100).size(), 5u);
}

}  // namespace

namespace {

// A --plot without matplotlib is said in one line, with what to install; no traceback.
TEST_F(Cli, APlotWithoutMatplotlibSaysSoInOneLine) {
  const std::string module = path("matplotlib.py");
  boids::test_support::write_file(module, "raise ImportError('no matplotlib here')\n");
  const char* before = std::getenv("PYTHONPATH");
  const std::string kept = before ? before : "";
  setenv("PYTHONPATH", module.substr(0, module.rfind('/')).c_str(), 1);
  const Result r = run({"run", "--backend", "cpu", "--count", "20", "--steps", "2", "--metrics",
                        path("m.csv"), "--plot", path("m.png")});
  if (before) {
    setenv("PYTHONPATH", kept.c_str(), 1);
  } else {
    unsetenv("PYTHONPATH");
  }
  EXPECT_NE(r.code, 0);
  EXPECT_NE(r.err.find("--plot: "), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("cannot import matplotlib (Debian: apt install python3-matplotlib"),
            std::string::npos)
      << r.err;
  EXPECT_EQ(r.err.find("Traceback"), std::string::npos) << r.err;
}

}  // namespace
