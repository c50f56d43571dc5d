// Refusals that explain themselves: each names its option or file once, says the bound it
// holds (0 is not "allowed" where it is refused), and what a flight saved in float precision
// holds by rounding is no reason to refuse it again.
#include <gtest/gtest.h>

#include <algorithm>
#include <string>
#include <vector>

#include "tests/support/cli_fixture.h"
#include "tests/support/test_support.h"

namespace boids {
namespace {

using test_support::Result;
using test_support::write_file;

class Refusals : public test_support::CliFixture {
 protected:
  // `boids args...` is refused as bad input, in one line that holds every one of `words`.
  Result refused(const std::vector<std::string>& args,
                 const std::vector<std::string>& words) const {
    const Result r = run(args);
    EXPECT_EQ(r.code, 2) << r.err;
    EXPECT_EQ(r.err.rfind("boids: error: ", 0), 0u) << r.err;
    EXPECT_EQ(std::count(r.err.begin(), r.err.end(), '\n'), 1) << r.err;
    for (const std::string& w : words) EXPECT_NE(r.err.find(w), std::string::npos) << r.err;
    return r;
  }
};

std::size_t occurrences(const std::string& text, const std::string& part) {
  std::size_t count = 0;
  for (std::size_t at = text.find(part); at != std::string::npos; at = text.find(part, at + 1)) {
    ++count;
  }
  return count;
}

// A .npy file of float64 numbers of `shape`, all zero (numpy.save's layout, version 1.0).
std::string npy_of_zeros(std::size_t rows, std::size_t columns) {
  std::string header = "{'descr': '<f8', 'fortran_order': False, 'shape': (" +
                       std::to_string(rows) + ", " + std::to_string(columns) + "), }";
  while ((10 + header.size() + 1) % 64 != 0) header += ' ';
  header += '\n';
  std::string bytes = std::string("\x93NUMPY\x01\x00", 8);
  bytes += static_cast<char>(header.size() & 0xff);
  bytes += static_cast<char>(header.size() >> 8);
  return bytes + header + std::string(rows * columns * 8, '\0');
}

TEST_F(Refusals, AStateFileIsNamedOnce) {
  write_file(path("five.npy"), npy_of_zeros(3, 5));
  const Result shape =
      refused({"run", "--backend", "cpu", "--init", path("five.npy")},
              {"state file '" + path("five.npy") + "': its shape is (3, 5); expected (N, 4)"});
  EXPECT_EQ(occurrences(shape.err, "five.npy"), 1u) << shape.err;
  write_file(path("cut.npy"), npy_of_zeros(3, 4).substr(0, 100));
  const Result cut = refused({"run", "--backend", "cpu", "--init", path("cut.npy")},
                             {"state file '" + path("cut.npy") + "': truncated"});
  EXPECT_EQ(occurrences(cut.err, "cut.npy"), 1u) << cut.err;
}

TEST_F(Refusals, ObstaclesThatLeaveNoRoomNameTheirFile) {
  write_file(path("rock.csv"), "x,y,radius\n50,50,99\n");
  refused({"run", "--backend", "cpu", "--obstacles", path("rock.csv")},
          {"--obstacles '" + path("rock.csv") + "': the obstacles cover the whole world"});
}

TEST_F(Refusals, ABoundWhereZeroIsRefusedDoesNotOfferZero) {
  write_file(path("speck.csv"), "x,y,radius\n50,50,1e-10\n");
  const Result speck = refused({"run", "--backend", "cpu", "--obstacles", path("speck.csv")},
                               {"obstacle 1 radius: 1e-10 is too small for --precision float "
                                "(at least 1e-9); use --precision double"});
  EXPECT_EQ(speck.err.find("unless 0"), std::string::npos) << speck.err;
  const Result radius = refused({"run", "--backend", "cpu", "--radius", "1e-10"},
                                {"--radius: 1e-10 is too small for --precision float"});
  EXPECT_EQ(radius.err.find("unless 0"), std::string::npos) << radius.err;
  refused({"run", "--backend", "cpu", "--wind", "1e-10,0"},
          {"--wind: 1e-10 is too small for --precision float (at least 1e-9 unless 0)"});
}

// A Vicsek flight in float keeps its speeds V to float's rounding: the state it saves starts
// again. A state off the speed is refused with the numbers as they were given.
TEST_F(Refusals, AVicsekStartIsHeldToItsPrecisionsRounding) {
  const std::vector<std::string> vicsek = {"run",        "--backend", "cpu", "--model",
                                           "vicsek",     "--noise",   "1",   "--wind",
                                           "0.01,0.002", "--steps",   "10"};
  std::vector<std::string> save = vicsek;
  save.insert(save.end(), {"--save", path("v.csv")});
  ASSERT_EQ(run(save).code, 0);
  std::vector<std::string> again = vicsek;
  again.insert(again.end(), {"--init", path("v.csv")});
  const Result r = run(again);
  EXPECT_EQ(r.code, 0) << r.err;
  write_file(path("slow.csv"), "x,y,vx,vy\n1,2,0.1,0\n");
  refused({"run", "--backend", "cpu", "--model", "vicsek", "--init", path("slow.csv")},
          {"state file '" + path("slow.csv") +
           "': boid 0 moves at speed 0.1: the vicsek model's boids all move at --speed 0.03"});
}

// 10^18 steps at most: the step counter and H5MD's int64 step never wrap.
TEST_F(Refusals, StepsAreBounded) {
  refused({"run", "--backend", "cpu", "--steps", "1000000000000000001"},
          {"--steps: expected a whole number from 0 to 1000000000000000000"});
  refused({"sweep", "--param", "noise=1,2", "--discard", "999999999999999999", "--steps", "10",
           "--every", "10"},
          {"--discard + --steps: 1000000000000000009 steps is more than a flight takes"});
}

// Topological neighbours: a whole number of them, at most 32, in one process and not in the
// steering lab's own loop.
TEST_F(Refusals, NearestNeighborsAreAWholeNumberUpTo32) {
  refused({"run", "--nearest", "33"}, {"--nearest: expected a whole number from 0 to 32"});
  refused({"run", "--nearest", "2.5"}, {"--nearest"});
  refused({"run", "--nearest", "-1"}, {"--nearest"});
  // One rule of whole numbers on every front end: a whole value, in digits, with a fraction of
  // zeros or with an exponent; no sign, so not -0.
  refused({"run", "--nearest", "-0"}, {"--nearest: expected a whole number from 0 to 32"});
  refused({"run", "--nearest", "3.01"}, {"--nearest: expected a whole number"});
  for (const char* three : {"3", "3.0", "3e0", "0.3e1"}) {
    const Result r = run({"run", "--nearest", three, "--count", "1.2e2", "--steps", "1",
                          "--backend", "cpu", "--json"});
    EXPECT_EQ(r.code, 0) << three << ": " << r.err;
    EXPECT_NE(r.out.find("\"nearest\": 3"), std::string::npos) << three << ": " << r.out;
  }
  refused({"run", "--model", "steering", "--update", "in-place", "--backend", "reference",
           "--nearest", "3"},
          {"--update in-place", "nearest neighbours"});
  refused({"sweep", "--param", "nearest=0,7.5", "--steps", "10"}, {"--nearest", "7.5"});
}

// A bound both precisions share is not float's: a weight beyond 1e6 under --precision float is
// outside boids' range, not "too large for --precision float".
TEST_F(Refusals, ABoundDoubleSharesDoesNotBlameFloat) {
  const Result r = run({"run", "--wander", "2e6", "--precision", "float"});
  EXPECT_EQ(r.code, 2) << r.err;
  EXPECT_NE(r.err.find("--wander: 2e6 is outside the range boids accepts"), std::string::npos)
      << r.err;
  EXPECT_EQ(r.err.find("float"), std::string::npos) << r.err;
}

TEST_F(Refusals, PredatorsAreAWholeNumberUpTo1000UnderModelsThatSteer) {
  refused({"run", "--predators", "1001"}, {"--predators: expected a whole number from 0 to 1000"});
  refused({"run", "--predators", "1.5"}, {"--predators"});
  refused({"run", "--model", "vicsek", "--predators", "2"}, {"--predators", "under vicsek"});
  refused({"run", "--predator-speed", "2"}, {"--predator-speed needs --predators K"});
  refused({"run", "--flee-radius", "5"}, {"--flee-radius needs --predators K"});
  refused({"run", "--predators", "1", "--predator-speed", "0"}, {"--predator-speed"});
  refused({"run", "--predators", "1", "--predator-speed", "150"},
          {"--predator-speed: a predator's step (150) must be below the world's side 100"});
  refused({"run", "--model", "steering", "--update", "in-place", "--backend", "reference",
           "--predators", "3"},
          {"--update in-place", "predators"});
}

// A box's depth, and the z of the wind, the goal and the spheres, are held to the ranges of
// the other axes, and a step must stay shorter than the box's smallest side.
TEST_F(Refusals, ABoxIsHeldToTheRangesOnEveryAxis) {
  const std::vector<std::string> box = {"run", "--backend", "cpu", "--dimensions", "3"};
  const auto with = [&box](std::vector<std::string> more) {
    more.insert(more.begin(), box.begin(), box.end());
    return more;
  };
  refused(with({"--world", "100,100,1e300"}),
          {"--world: 1e300 is too large for --precision float (at most 1e9, and at most 1e60"});
  refused(with({"--world", "100,100,1e20"}), {"--world: 1e20 is too large for --precision float"});
  refused(with({"--world", "100,100,0.5"}), {"--max-speed: must be below the world's side 0.5"});
  refused(with({"--wind", "0,0,1e300"}), {"--wind: 1e300 is too large for --precision float"});
  refused(with({"--world", "100", "--goal", "1,2,1e-20"}),
          {"--goal: 1e-20 is too small for --precision float"});
  write_file(path("spheres.csv"), "x,y,z,radius\n50,50,1e-20,3\n");
  refused(with({"--world", "100", "--obstacles", path("spheres.csv")}),
          {"--obstacles: obstacle 1 z: 1e-20 is too small for --precision float"});
}

}  // namespace
}  // namespace boids
