// A change to a flying flock is taken or refused alike wherever it is made: for every control of
// every model's flock, `--new-flight` takes a value exactly when a fresh flight does, and the
// page's control (with_control, what LiveFlock applies) takes a value within its slider's range
// exactly when a fresh flight does, and nothing outside it. Python's set_params is held to the
// same by tests/python/test_flock.py.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "host/base/errors.h"
#include "host/base/message_text.h"
#include "host/core/controls.h"
#include "host/io/checkpoint.h"
#include "tests/support/cli_fixture.h"
#include "tests/support/test_support.h"

namespace {

using namespace boids;
using test_support::Result;

// The command line's words for control `name` at `value` of a flock of `p`: its flag and value
// (a wind's axis as the whole vector, the others as they are).
std::vector<std::string> option_for(const FlockParams& p, const std::string& name, double value) {
  if (name.rfind("wind-", 0) != 0) return {"--" + name, number_text(value)};
  Vec3 wind = p.wind;
  (name == "wind-x" ? wind.x : name == "wind-y" ? wind.y : wind.z) = value;
  std::string text = number_text(wind.x) + "," + number_text(wind.y);
  if (p.dimensions == 3) text += "," + number_text(wind.z);
  return {"--wind", text};
}

struct Flock {
  Model model;
  int dimensions;
};

// Each flock on a test of its own, which CTest runs beside the others: each is ~100 runs.
class FlightChanges : public test_support::CliFixture,
                      public ::testing::WithParamInterface<Flock> {};

TEST_P(FlightChanges, AreTakenAndRefusedAsAFreshFlightsOptions) {
  const Flock& flock = GetParam();
  std::vector<std::string> fresh = {
      "run", "--model",      to_string(flock.model),           "--count",
      "30",  "--dimensions", std::to_string(flock.dimensions), "--backend",
      "cpu"};
  std::vector<std::string> first = fresh;
  first.insert(first.end(), {"--steps", "1", "--checkpoint", path("c.bin")});
  const Result made = run(first);
  ASSERT_EQ(made.code, 0) << made.err;
  const SimulationConfig flight = read_checkpoint(path("c.bin")).config;
  const FlockParams& p = flight.params;
  // The fresh flight in the checkpoint's world, which a 3D radius would otherwise size.
  const World& w = p.world;
  fresh.insert(fresh.end(),
               {"--world", number_text(w.width) + "," + number_text(w.height) +
                               (p.dimensions == 3 ? "," + number_text(w.depth) : std::string())});
  for (const Control& c : controls_of(p)) {
    for (double v : {c.low, c.high, -1.0, 4 * c.high + 1}) {
      if (c.whole) v = std::floor(v);
      SCOPED_TRACE(to_string(flock.model) + " in " + std::to_string(flock.dimensions) +
                   "D: " + c.name + " = " + number_text(v));
      const std::vector<std::string> option = option_for(p, c.name, v);
      std::vector<std::string> anew = fresh;
      anew.insert(anew.end(), {"--steps", "0"});
      anew.insert(anew.end(), option.begin(), option.end());
      std::vector<std::string> changed = {"run",     "--resume", path("c.bin"),
                                          "--steps", "1",        "--new-flight"};
      changed.insert(changed.end(), option.begin(), option.end());
      const Result a = run(anew), b = run(changed);
      ASSERT_TRUE(a.code == 0 || a.code == 2) << a.err;
      EXPECT_EQ(b.code, a.code) << "a fresh flight: " << a.err << "; --new-flight: " << b.err;
      bool page = true;
      try {
        with_control(p, flight.precision, c.name, v);
      } catch (const InputError&) {
        page = false;
      }
      if (v >= c.low && v <= c.high) {
        EXPECT_EQ(page, a.code == 0) << a.err;
      } else {
        EXPECT_FALSE(page);
      }
    }
  }
}

INSTANTIATE_TEST_SUITE_P(EveryModel, FlightChanges,
                         ::testing::Values(Flock{Model::kBoids, 2}, Flock{Model::kSteering, 2},
                                           Flock{Model::kVicsek, 2}, Flock{Model::kCouzin, 2},
                                           Flock{Model::kBoids, 3}),
                         [](const ::testing::TestParamInfo<Flock>& flock) {
                           return to_string(flock.param.model) +
                                  std::to_string(flock.param.dimensions) + "d";
                         });

}  // namespace
