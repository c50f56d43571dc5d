// `boids run --resume FILE --new-flight --noise 1`: a checkpoint's flight changed on its way (a
// quench), refused without --new-flight, for options a flying flock cannot take, and for values
// the flight refuses; the changed flight is the one a flock flies when its parameters are set
// between steps (Simulation::set_params), and every checkpoint of it carries the change.
#include <gtest/gtest.h>

#include <cmath>
#include <functional>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "host/core/simulation.h"
#include "host/io/checkpoint.h"
#include "host/io/state_file.h"
#include "tests/support/cli_fixture.h"

namespace {

using boids::test_support::Result;

class NewFlight : public boids::test_support::CliFixture {
 protected:
  void SetUp() override {
    CliFixture::SetUp();
    const Result first =
        run({"run", "--model", "vicsek", "--count", "400", "--steps", "30", "--backend", "cpu",
             "--precision", "double", "--checkpoint", path("c.bin")});
    ASSERT_EQ(first.code, 0) << first.err;
  }

  // The flight of c.bin through the library: resumed, changed by set_params, `steps` on.
  boids::FlockState library_flight(const std::function<void(boids::FlockParams&)>& change,
                                   std::uint64_t steps) const {
    const boids::Checkpoint c = boids::read_checkpoint(path("c.bin"));
    const auto sim = boids::make_simulation(c.config, c.state);
    sim->resume(c.state, c.order, c.step);
    boids::FlockParams changed = c.config.params;
    change(changed);
    sim->set_params(changed);
    sim->step(steps);
    return sim->state();
  }
  boids::World world() const { return boids::read_checkpoint(path("c.bin")).config.params.world; }

  void expect_refused(const std::vector<std::string>& args, const std::string& says) {
    std::vector<std::string> all = {"run", "--resume", path("c.bin"), "--steps", "60"};
    all.insert(all.end(), args.begin(), args.end());
    const Result r = run(all);
    EXPECT_EQ(r.code, 2) << r.err;
    EXPECT_NE(r.err.find(says), std::string::npos) << r.err;
  }
};

TEST_F(NewFlight, IsTheFlightWhoseParametersChangeBetweenSteps) {
  const Result changed =
      run({"run", "--resume", path("c.bin"), "--steps", "60", "--noise", "1", "--new-flight",
           "--save", path("changed.csv"), "--checkpoint", path("d.bin")});
  ASSERT_EQ(changed.code, 0) << changed.err;
  EXPECT_EQ(changed.out.rfind("a new flight from step 30: noise 0 -> 1", 0), 0u) << changed.out;
  EXPECT_NE(changed.out.find("changed            at step 30: noise 0 -> 1"), std::string::npos)
      << changed.out;

  // The same flight through the library: the checkpoint resumed, its noise set, 30 steps.
  const boids::FlockState expected = library_flight([](boids::FlockParams& p) { p.noise = 1; }, 30);
  const boids::FlockState got = boids::read_state_file(path("changed.csv"), world());
  ASSERT_EQ(got.size(), expected.size());
  for (std::size_t i = 0; i < got.size(); ++i) {
    ASSERT_EQ(got.x[i], expected.x[i]) << i;
    ASSERT_EQ(got.vy[i], expected.vy[i]) << i;
  }

  // Its checkpoint carries the change, and a flight resumed from it says so.
  const Result again = run({"run", "--resume", path("d.bin"), "--steps", "70", "--json"});
  ASSERT_EQ(again.code, 0) << again.err;
  const nlohmann::json j = nlohmann::json::parse(again.out);
  ASSERT_EQ(j["history"].size(), 1u) << again.out;
  EXPECT_EQ(j["history"][0]["step"], 30);
  EXPECT_EQ(j["history"][0]["changed"]["noise"]["to"], 1.0);
  EXPECT_EQ(j["history"][0]["by"]["command"][1], "run");
  EXPECT_EQ(j["noise"], 1.0);
  // The unchanged flight goes on without a history.
  const Result plain = run({"run", "--resume", path("c.bin"), "--steps", "40", "--json"});
  ASSERT_EQ(plain.code, 0) << plain.err;
  EXPECT_FALSE(nlohmann::json::parse(plain.out).contains("history"));
}

// A Vicsek flock's boids move at its --speed: a new speed takes them to it, each keeping its
// heading, as set_params' does at their next step (a checkpoint of the changed flight before
// that step reads back), and the flight is the library's.
TEST_F(NewFlight, TakesAConstantSpeedModelsBoidsToANewSpeed) {
  const Result changed = run({"run", "--resume", path("c.bin"), "--steps", "30", "--speed", "0.01",
                              "--new-flight", "--checkpoint", path("at.bin")});
  ASSERT_EQ(changed.code, 0) << changed.err;
  const Result on =
      run({"run", "--resume", path("at.bin"), "--steps", "45", "--save", path("resumed.csv")});
  ASSERT_EQ(on.code, 0) << on.err;
  const Result straight = run({"run", "--resume", path("c.bin"), "--steps", "45", "--speed", "0.01",
                               "--new-flight", "--save", path("straight.csv")});
  ASSERT_EQ(straight.code, 0) << straight.err;
  const boids::FlockState expected =
      library_flight([](boids::FlockParams& p) { p.max_speed = 0.01; }, 15);
  const boids::FlockState resumed = boids::read_state_file(path("resumed.csv"), world());
  const boids::FlockState got = boids::read_state_file(path("straight.csv"), world());
  ASSERT_EQ(got.size(), expected.size());
  for (std::size_t i = 0; i < got.size(); ++i) {
    ASSERT_EQ(resumed.x[i], got.x[i]) << i;
    ASSERT_EQ(resumed.vy[i], got.vy[i]) << i;
    ASSERT_NEAR(got.x[i], expected.x[i], 1e-12) << i;
    ASSERT_NEAR(std::hypot(got.vx[i], got.vy[i]), 0.01, 1e-12) << i;
  }
}

TEST_F(NewFlight, IsAskedForAndChangesWhatAFlyingFlockTakes) {
  expect_refused({"--noise", "1"}, "--noise cannot be given with --resume");
  expect_refused({"--noise", "1"}, "--new-flight");
  expect_refused({"--new-flight"}, "--new-flight needs the options to change");
  expect_refused({"--new-flight", "--count", "50"}, "--count cannot change a flight on its way");
  expect_refused({"--new-flight", "--seed", "5"}, "--seed cannot change a flight on its way");
  expect_refused({"--new-flight", "--alignment", "2"},
                 "--alignment does not apply to the checkpoint's flight (the vicsek model)");
  expect_refused({"--new-flight", "--noise", "-1"}, "--noise: expected");
  // The wind takes as many coordinates as the flight has dimensions, as a fresh flight's does:
  // a third of a 2D flight's was dropped, and a 3D flight's z set to 0.
  expect_refused({"--new-flight", "--wind", "0.001,0.001,7"},
                 "--wind X,Y,Z needs --dimensions 3: the checkpoint's flight is in 2");
  const Result box = run({"run", "--model", "vicsek", "--dimensions", "3", "--count", "100",
                          "--steps", "3", "--backend", "cpu", "--checkpoint", path("box.bin")});
  ASSERT_EQ(box.code, 0) << box.err;
  const Result flat = run({"run", "--resume", path("box.bin"), "--steps", "6", "--new-flight",
                           "--wind", "0.001,0.001"});
  EXPECT_EQ(flat.code, 2) << flat.err;
  EXPECT_NE(flat.err.find("--wind: in three dimensions expected X,Y,Z"), std::string::npos)
      << flat.err;
  const Result alone = run({"run", "--steps", "5", "--new-flight", "--noise", "1"});
  EXPECT_EQ(alone.code, 2);
  EXPECT_NE(alone.err.find("--new-flight needs --resume FILE"), std::string::npos) << alone.err;
}

}  // namespace
