// The parts of `boids serve` on their own: the frame's quantisation and layout (which the
// page's frames.js reads), the parser of the pages' messages, the table of controls, and the
// source of a flock that its owner steps (Flock.serve in Python).
#include <gtest/gtest.h>

#include <chrono>
#include <cmath>
#include <condition_variable>
#include <cstring>
#include <functional>
#include <memory>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include "host/base/errors.h"
#include "host/core/controls.h"
#include "host/core/flight_rules.h"
#include "host/core/simulation.h"
#include "host/model/initial_state.h"
#include "host/model/param_table.h"
#include "host/serve/frame.h"
#include "host/serve/live_flock.h"
#include "host/serve/messages.h"
#include "host/serve/watched_flock.h"
#include "tests/support/test_support.h"

namespace {

using namespace boids;
using namespace boids::serve;

using boids::test_support::read_at;

TEST(Frame, PositionsAreWithinHalfABinAndStayInTheWorld) {
  const double side = 123.5;
  for (const double x : {0.0, 1e-9, 0.5, 61.75, 100.0, 123.49999, std::nextafter(side, 0.0)}) {
    const std::uint16_t q = quantise_position(x, side);
    EXPECT_LE(std::abs(decoded_position(q, side) - x), side / 65536 / 2 * (1 + 1e-9)) << x;
  }
  EXPECT_EQ(quantise_position(-1, side), 0);  // rounding never leaves the bins
  EXPECT_EQ(quantise_position(side, side), 65535);
  EXPECT_EQ(quantise_position(std::nan(""), side), 0);
}

TEST(Frame, HeadingsAreTheAzimuthAndElevationInBytes) {
  EXPECT_EQ(quantise_azimuth(1, 0), 0);
  EXPECT_EQ(quantise_azimuth(0, 1), 64);
  EXPECT_EQ(quantise_azimuth(-1, 0), 128);
  EXPECT_EQ(quantise_azimuth(0, -1), 192);
  EXPECT_EQ(quantise_azimuth(1, -1e-9), 0);  // just below the axis wraps to 0, not 256
  EXPECT_EQ(quantise_elevation(1, 0, 0), 128);
  EXPECT_EQ(quantise_elevation(0, 0, 1), 255);
  EXPECT_EQ(quantise_elevation(0, 0, -1), 0);
  EXPECT_EQ(quantise_elevation(0, 0, 0), 128);  // at rest: level
}

TEST(Frame, LayoutIsWhatThePageReads) {
  FlockParams params;
  const FlockState state = make_initial_state(1000, 7, params);
  const Snapshot s = make_snapshot(state, params.world, 42, 3, true);
  const std::string frame = encode_frame(s, 1u << 20);
  ASSERT_EQ(frame.size(), kFrameHeaderBytes + 1000 * 5);  // 5 bytes a boid in 2D
  EXPECT_EQ(frame.substr(0, 4), "BOID");
  EXPECT_EQ(read_at<std::uint8_t>(frame, 4), kFrameVersion);
  EXPECT_EQ(read_at<std::uint8_t>(frame, 5), 2);
  EXPECT_EQ(read_at<std::uint16_t>(frame, 6), 1);  // paused
  EXPECT_EQ(read_at<std::uint64_t>(frame, 8), 42u);
  EXPECT_EQ(read_at<std::uint32_t>(frame, 16), 1000u);
  EXPECT_EQ(read_at<std::uint32_t>(frame, 20), 1000u);
  EXPECT_EQ(read_at<std::uint32_t>(frame, 24), 1u);
  EXPECT_EQ(read_at<float>(frame, 28), 100.0f);
  EXPECT_EQ(read_at<std::uint64_t>(frame, 40), 3u);
  EXPECT_EQ(read_at<std::uint32_t>(frame, 48), 0u);  // no predators
  EXPECT_EQ(read_at<std::uint32_t>(frame, 52), 0u);  // held: the server's to write
  EXPECT_EQ(read_at<std::uint32_t>(frame, 56), 0u);  // coloured by heading, then zeros
  EXPECT_EQ(read_at<float>(frame, 60), 0.0f);
  for (const std::size_t at : {64, 72, 80}) EXPECT_EQ(read_at<double>(frame, at), 0.0);  // origin
  EXPECT_EQ(read_at<double>(frame, 88), 50.0);  // a bounded world's middle
  for (const std::size_t i : {0, 1, 500, 999}) {
    const double x =
        decoded_position(read_at<std::uint16_t>(frame, kFrameHeaderBytes + 2 * i), 100);
    const double y =
        decoded_position(read_at<std::uint16_t>(frame, kFrameHeaderBytes + 2000 + 2 * i), 100);
    EXPECT_NEAR(x, state.x[i], 100.0 / 65536);
    EXPECT_NEAR(y, state.y[i], 100.0 / 65536);
    EXPECT_EQ(read_at<std::uint8_t>(frame, kFrameHeaderBytes + 4000 + i),
              quantise_azimuth(state.vx[i], state.vy[i]));
  }
}

TEST(Frame, ASubsampleTakesEveryStrideThBoidAndFitsTheBudget) {
  FlockParams params;
  params.dimensions = 3;
  const FlockState state = make_initial_state(1001, 7, params);
  const Snapshot s = make_snapshot(state, params.world, 0, 1, false);
  const std::string frame = encode_frame(s, 100);
  const std::uint32_t boids = read_at<std::uint32_t>(frame, 16);
  const std::uint32_t stride = read_at<std::uint32_t>(frame, 24);
  EXPECT_EQ(stride, 11u);  // the smallest stride with at most 100 boids
  EXPECT_EQ(boids, 91u);
  EXPECT_LE(boids, 100u);
  EXPECT_EQ(frame.size(), frame_bytes(boids, 3));
  EXPECT_EQ(frame.size(), kFrameHeaderBytes + boids * 8);  // no predators
  // Boid k of the frame is boid k * stride of the flock, in every array.
  const std::size_t z = kFrameHeaderBytes + 4 * boids, elevation = kFrameHeaderBytes + 7 * boids;
  for (const std::uint32_t k : {0u, 1u, 90u}) {
    EXPECT_EQ(read_at<std::uint16_t>(frame, z + 2 * k), s.boids.position[2][k * stride]);
    EXPECT_EQ(read_at<std::uint8_t>(frame, elevation + k), s.boids.heading[1][k * stride]);
  }
}

TEST(Frame, PredatorsFollowTheBoidsWholeAfterAnEvenPad) {
  FlockParams params;
  params.predators = 3;
  const FlockState state = make_initial_state(1001, 7, params);
  ASSERT_EQ(state.predators.size(), 3u);
  const Snapshot s = make_snapshot(state, params.world, 0, 1, false);
  const std::string frame = encode_frame(s, 100);  // every 11th boid: 91, 455 bytes, a pad
  const std::uint32_t boids = read_at<std::uint32_t>(frame, 16);
  ASSERT_EQ(boids, 91u);
  EXPECT_EQ(read_at<std::uint32_t>(frame, 48), 3u);
  EXPECT_EQ(frame.size(), frame_bytes(boids, 2, 3));
  EXPECT_EQ(frame.size(), kFrameHeaderBytes + 456 + 16);  // 3 predators: 15 bytes and a pad
  EXPECT_EQ(read_at<std::uint8_t>(frame, kFrameHeaderBytes + 455), 0);
  const std::size_t at = kFrameHeaderBytes + 456;  // the predators' x, y, azimuth
  for (std::size_t k = 0; k < 3; ++k) {
    const Particles& p = state.predators;
    EXPECT_NEAR(decoded_position(read_at<std::uint16_t>(frame, at + 2 * k), 100), p.x[k],
                100.0 / 65536);
    EXPECT_NEAR(decoded_position(read_at<std::uint16_t>(frame, at + 6 + 2 * k), 100), p.y[k],
                100.0 / 65536);
    EXPECT_EQ(read_at<std::uint8_t>(frame, at + 12 + k), quantise_azimuth(p.vx[k], p.vy[k]));
  }
}

// In open space a frame's bins span the flock's bounds, wherever it flies: a flock far beyond
// the start's region keeps every position to a bin of its bounds, not the world's edge.
TEST(Frame, InOpenSpaceTheBinsSpanTheFlockWhereverItFlies) {
  FlockParams params;
  params.world.boundary = Boundary::kOpen;
  params.predators = 2;
  FlockState state = make_initial_state(500, 7, params);
  for (std::size_t i = 0; i < state.size(); ++i) {
    state.x[i] += 1e4;  // 100 wide, from 10,000
    state.y[i] -= 3e4;  // and from -30,000
  }
  state.predators.x = {9990, 10150};  // the predators widen the bounds
  state.predators.y = {-29990, -29950};
  const Snapshot s = make_snapshot(state, params.world, 9, 1, false, params.radius);
  const std::string frame = encode_frame(s, 1u << 20);
  EXPECT_EQ(read_at<std::uint16_t>(frame, 6), 8);  // open space
  const double origin[2] = {read_at<double>(frame, 64), read_at<double>(frame, 72)};
  const double side[2] = {read_at<float>(frame, 28), read_at<float>(frame, 32)};
  EXPECT_NEAR(origin[0], 9990, 0.01);
  EXPECT_NEAR(origin[0] + side[0], 10150, 0.01);
  EXPECT_NEAR(origin[1], -30000, 0.5);
  EXPECT_NEAR(origin[1] + side[1], -29900, 0.5);
  double mean[2] = {0, 0};
  for (std::size_t i = 0; i < state.size(); ++i) {
    const double at[2] = {
        origin[0] +
            decoded_position(read_at<std::uint16_t>(frame, kFrameHeaderBytes + 2 * i), side[0]),
        origin[1] + decoded_position(
                        read_at<std::uint16_t>(frame, kFrameHeaderBytes + 1000 + 2 * i), side[1])};
    ASSERT_NEAR(at[0], state.x[i], side[0] / 65536) << i;
    ASSERT_NEAR(at[1], state.y[i], side[1] / 65536) << i;
    mean[0] += state.x[i] / 500;
    mean[1] += state.y[i] / 500;
  }
  EXPECT_NEAR(read_at<double>(frame, 88), mean[0], 1e-6);  // the centre a page follows
  EXPECT_NEAR(read_at<double>(frame, 96), mean[1], 1e-6);
  const std::size_t predators = kFrameHeaderBytes + 500 * 5;
  EXPECT_NEAR(origin[0] + decoded_position(read_at<std::uint16_t>(frame, predators), side[0]), 9990,
              side[0] / 65536);
  // A flock of one point still spans a radius.
  FlockState one = state;
  one.resize(1);
  one.predators = {};
  one.predators.dimensions = 2;
  const Snapshot lone = make_snapshot(one, params.world, 0, 1, false, params.radius);
  EXPECT_EQ(lone.region.side[0], params.radius);
  EXPECT_EQ(lone.region.origin[0], one.x[0] - params.radius / 2);
}

TEST(Messages, TheProtocolsMessagesAreRead) {
  const ClientMessage next = parse_client_message(R"({"type":"next","max_boids":5000})");
  EXPECT_EQ(next.type, ClientMessage::Type::kNext);
  EXPECT_EQ(next.count, 5000u);
  const ClientMessage set = parse_client_message(R"({"value":0.5,"type":"set","name":"noise"})");
  EXPECT_EQ(set.name, "noise");
  EXPECT_EQ(set.value, 0.5);
  const ClientMessage goal = parse_client_message(R"({"type":"goal","on":true,"x":1,"y":2,"z":3})");
  EXPECT_TRUE(goal.on);
  EXPECT_EQ(goal.at.z, 3);
  EXPECT_EQ(parse_client_message(R"({"type":"model","model":"vicsek"})").model, Model::kVicsek);
}

TEST(Messages, AnythingElseIsRefusedSayingWhat) {
  const auto refused = [](const std::string& text, const std::string& why) {
    SCOPED_TRACE(text);
    try {
      parse_client_message(text);
      ADD_FAILURE() << "accepted";
    } catch (const InputError& e) {
      EXPECT_NE(std::string(e.what()).find(why), std::string::npos) << e.what();
    }
  };
  refused("", "not JSON");
  refused("[1,2]", "not a JSON object");
  refused(R"({"type":"launch"})", "unknown message type 'launch'");
  refused(R"({"max_boids":5})", "no \"type\" field");
  refused(R"({"type":"next"})", "no \"max_boids\" field");
  refused(R"({"type":"next","max_boids":0})", "\"max_boids\" is 0, not in [1, ");
  refused(R"({"type":"next","max_boids":1.5})", "not a whole number");
  refused(R"({"type":"next","max_boids":"many"})", "is not a number");
  refused(R"({"type":"next","max_boids":5,"extra":1})", "has no field 'extra'");
  refused(R"({"type":"pause","on":1})", "not true or false");
  refused(R"({"type":"rate","steps_per_second":-1})", "is -1, not in [0, 1e6]");
  refused(R"({"type":"model","model":"starlings"})", "unknown model 'starlings'");
  refused(R"({"type":"set","name":"noise","value":1e999})",
          "a message with a number out of range (a double holds up to 1.8e308)");
  refused(R"({"type":"set","name":"noise","value":1e9)", "a message that is not JSON");
  refused(std::string(5000, ' '), "a message of 5000 bytes (at most 4096)");
}

TEST(Controls, TheTableFollowsTheModelAndTheWorld) {
  FlockParams boids_params;
  std::vector<std::string> names;
  for (const Control& c : controls_of(boids_params)) names.push_back(c.name);
  EXPECT_NE(std::find(names.begin(), names.end(), "alignment"), names.end());
  EXPECT_EQ(std::find(names.begin(), names.end(), "dt"), names.end());  // steering's alone
  EXPECT_EQ(std::find(names.begin(), names.end(), "wall-distance"), names.end());
  FlockParams vicsek = boids_params;
  vicsek.model = Model::kVicsek;
  for (const Control& c : controls_of(vicsek)) EXPECT_NE(c.name, "alignment");
  // Every slider holds the value in effect, in the models' worlds and in the square one of
  // 100,000 boids at the example's density (for the boids model, side 2,887: its fastest
  // speed is 2,887 a step).
  for (const Model model : boids::test_support::every_model()) {
    const std::uint64_t count = default_count(model);
    FlockParams example = model_defaults(model, count);
    FlockParams large = example;
    large.world.width = large.world.height = std::sqrt(
        100000.0 * example.world.width * example.world.height / static_cast<double>(count));
    for (const FlockParams& p : {example, large}) {
      for (const Control& c : controls_of(p)) {
        SCOPED_TRACE(to_string(model) + " in " + std::to_string(p.world.width) + ": " + c.name);
        EXPECT_LE(c.low, c.value);
        EXPECT_LE(c.value, c.high);
      }
    }
  }
}

TEST(Controls, AChangeIsCheckedAsTheCommandLinesOptionsAre) {
  FlockParams p;
  EXPECT_EQ(with_control(p, Precision::kFloat, "alignment", 2.5).alignment, 2.5);
  EXPECT_EQ(with_control(p, Precision::kFloat, "wind-y", -0.5).wind.y, -0.5);
  EXPECT_THROW(with_control(p, Precision::kFloat, "alignment", 6), InputError);
  EXPECT_THROW(with_control(p, Precision::kFloat, "gravity", 1), InputError);
  EXPECT_THROW(with_control(p, Precision::kFloat, "dt", 0.01), InputError);  // boids: no dt
  // A count of neighbours: whole numbers up to 32.
  EXPECT_EQ(with_control(p, Precision::kFloat, "nearest", 7).nearest, 7);
  EXPECT_THROW(with_control(p, Precision::kFloat, "nearest", 6.5), InputError);
  EXPECT_THROW(with_control(p, Precision::kFloat, "nearest", 33), InputError);
  // Within its range, and refused by the flight's rules: a separation radius above the radius.
  p.radius = 4;
  try {
    with_control(p, Precision::kFloat, "separation-radius", 4.5);
    ADD_FAILURE() << "accepted";
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find("separation-radius"), std::string::npos) << e.what();
  }
}

// A slider's range is the set of values the flight accepts, given the rest: each end of every
// control is accepted, for flocks of each model, with predators, a goal and arrival, walls
// and a box; and turning the goal off after changing its weight or arrival is accepted.
TEST(Controls, EveryEndOfEverySliderIsAccepted) {
  std::vector<FlockParams> flocks;
  for (const Model model : boids::test_support::every_model()) {
    flocks.push_back(model_defaults(model, default_count(model)));
  }
  FlockParams hunted = model_defaults(Model::kBoids, 120);
  hunted.predators = 3;
  flocks.push_back(hunted);
  FlockParams arriving = model_defaults(Model::kSteering, 220);
  arriving.has_goal = true;
  arriving.goal = {400, 300, 0};
  arriving.arrival_radius = 50;
  flocks.push_back(arriving);
  FlockParams walled = model_defaults(Model::kBoids, 120);
  walled.world.boundary = Boundary::kWalls;
  flocks.push_back(walled);
  FlockParams box = model_defaults(Model::kBoids, 120);
  box.dimensions = 3;
  box.world.depth = 100;
  flocks.push_back(box);
  for (const FlockParams& p : flocks) {
    for (const Precision precision : {Precision::kFloat, Precision::kDouble}) {
      for (const Control& c : controls_of(p)) {
        for (const double end : {c.low, c.high}) {
          EXPECT_NO_THROW(with_control(p, precision, c.name, end))
              << to_string(p.model) << ", predators " << p.predators << ": " << c.name << " = "
              << end;
        }
      }
    }
  }
  FlockParams goal = with_control(arriving, Precision::kFloat, "goal-weight", 3);
  goal = with_control(goal, Precision::kFloat, "arrival-radius", 20);
  goal.has_goal = false;
  reset_unneeded(goal);
  EXPECT_NO_THROW(check_flight_params(goal, Precision::kFloat));
}

// A page is refused in its own words: its controls' names, not the command line's flags.
TEST(LiveFlock, RefusesAPageInItsOwnWords) {
  SimulationConfig config;
  config.backend = Backend::kCpu;
  LiveFlock flock(config, make_initial_state(50, 5, config.params), 0);
  ClientMessage goal;
  goal.type = ClientMessage::Type::kGoal;
  goal.on = true;
  goal.at = {1e6, 5, 0};
  try {
    flock.apply(goal);
    ADD_FAILURE() << "a goal outside the world was taken";
  } catch (const InputError& e) {
    EXPECT_EQ(std::string(e.what()), "goal: the point lies outside the world");
  }
  EXPECT_EQ(in_page_words("--max-speed: expected a number; --new-flight and --evil stay"),
            "max-speed: expected a number; --new-flight and --evil stay");
}

// Changes that wait for the stepping thread are coalesced: a flood of resets is one reset (one
// new seed), and a control's last value is the one it takes.
TEST(LiveFlock, AFloodOfChangesCostsTheFlockOneOfEachKind) {
  SimulationConfig config;
  config.backend = Backend::kCpu;
  config.seed = 5;
  LiveFlock flock(config, make_initial_state(200, 5, config.params), 0);
  ClientMessage reset;
  reset.type = ClientMessage::Type::kReset;
  ClientMessage radius;
  radius.type = ClientMessage::Type::kSet;
  radius.name = "radius";
  for (int k = 0; k < 10000; ++k) {
    flock.apply(reset);
    radius.value = 5 + k % 3;
    flock.apply(radius);
  }
  std::mutex mutex;
  std::condition_variable told;
  std::vector<std::string> texts;
  flock.start({[] {},
               [&](const std::string& t) {
                 const std::lock_guard<std::mutex> lock(mutex);
                 texts.push_back(t);
                 told.notify_all();
               }});
  std::unique_lock<std::mutex> lock(mutex);
  ASSERT_TRUE(told.wait_for(lock, std::chrono::seconds(30), [&] {
    for (const std::string& t : texts)
      if (t.find("\"controls\"") != std::string::npos) return true;
    return false;
  }));
  lock.unlock();
  flock.stop();
  for (const std::string& t : texts) {
    if (t.find("\"controls\"") == std::string::npos) continue;
    EXPECT_NE(t.find("\"seed\":6"), std::string::npos) << t.substr(0, 300);
    EXPECT_NE(t.find("\"name\":\"radius\""), std::string::npos);
    break;
  }
  EXPECT_EQ(flock.failure(), "");
}

// A live flock steps while a page watches it (asks for frames), and waits otherwise: before the
// first page, and once the last has stopped asking for kWatchedFor. Its metrics, sent as it
// steps, say which.
TEST(LiveFlock, ItFliesWhileAPageWatchesAndWaitsOtherwise) {
  SimulationConfig config;
  config.backend = Backend::kCpu;
  LiveFlock flock(config, make_initial_state(100, 3, config.params), 0);
  std::mutex mutex;
  int metrics = 0;  // messages sent as it stepped
  flock.start({[] {},
               [&](const std::string& text) {
                 const std::lock_guard<std::mutex> lock(mutex);
                 if (text.find("\"type\":\"metrics\"") != std::string::npos) ++metrics;
               }});
  const auto count = [&] {
    const std::lock_guard<std::mutex> lock(mutex);
    return metrics;
  };
  std::this_thread::sleep_for(std::chrono::milliseconds(600));
  EXPECT_EQ(count(), 0);  // no page yet: no step
  std::shared_ptr<const Snapshot> seen;
  const auto watched_until = std::chrono::steady_clock::now() + std::chrono::milliseconds(800);
  while (std::chrono::steady_clock::now() < watched_until) {
    if (auto next = flock.next(seen ? seen->number : 0, 0)) seen = next;
    std::this_thread::sleep_for(std::chrono::milliseconds(5));
  }
  ASSERT_TRUE(seen);
  EXPECT_GT(seen->step, 0u);
  EXPECT_GT(count(), 0);
  std::this_thread::sleep_for(LiveFlock::kWatchedFor + std::chrono::milliseconds(500));
  const int once_idle = count();
  std::this_thread::sleep_for(std::chrono::milliseconds(1000));
  EXPECT_EQ(count(), once_idle);  // no page: it waits
  flock.stop();
  EXPECT_EQ(flock.failure(), "");
}

// A flying flock in open space is snapshot over its bounds as its state would be.
TEST(Frame, AnOpenFlightIsSnapshotOverItsBounds) {
  SimulationConfig config;
  config.backend = Backend::kCpu;
  config.method = Method::kHashed;
  config.params.world.boundary = Boundary::kOpen;
  config.params.predators = 1;
  FlockState start = make_initial_state(300, 9, config.params);
  for (double& x : start.x) x -= 5000;
  std::unique_ptr<Simulation> sim = make_simulation(config, start);
  sim->step(3);
  Snapshot flying;
  make_snapshot_into(flying, *sim, 1, false);
  FlockState state = sim->state();
  state.predators = sim->predators();
  const Snapshot expected = make_snapshot(state, config.params.world, 3, 1, false, 10);
  EXPECT_LT(flying.region.origin[0], -4900);
  EXPECT_EQ(flying.region.origin[0], expected.region.origin[0]);
  EXPECT_EQ(flying.region.side[1], expected.region.side[1]);
  EXPECT_EQ(flying.boids.position[0], expected.boids.position[0]);
  EXPECT_EQ(flying.boids.position[1], expected.boids.position[1]);
  EXPECT_EQ(flying.predators.position[0], expected.predators.position[0]);
  EXPECT_EQ(flying.centre[0], expected.centre[0]);
}

TEST(WatchedFlock, APageGetsTheFlockWhenItsOwnerHoldsItStill) {
  SimulationConfig config;
  config.backend = Backend::kCpu;
  config.method = Method::kHashed;
  config.precision = Precision::kDouble;
  const FlockState start = make_initial_state(300, 9, config.params);
  std::unique_ptr<Simulation> sim = make_simulation(config, start);
  bool idle = true;  // whether the owner lets the source hold the flock
  int held = 0;
  WatchedFlock source(*sim, [&](const std::function<void(const Simulation&)>& use) {
    if (!idle) return false;
    ++held;
    use(*sim);
    return true;
  });
  int ready = 0;
  std::vector<std::string> texts;
  source.start({[&ready] { ++ready; }, [&texts](const std::string& t) { texts.push_back(t); }});

  // A page new to the flock gets the snapshot made when it was served, and then none until
  // the owner has changed it.
  EXPECT_FALSE(source.watched());  // no page has asked yet
  const auto first = source.next(0, 0);
  ASSERT_TRUE(first);
  EXPECT_EQ(first->step, 0u);
  EXPECT_EQ(first->count(), 300u);
  EXPECT_FALSE(source.next(first->number, 0));
  EXPECT_TRUE(source.watched());
  sim->step(5);
  source.changed(*sim);
  EXPECT_EQ(ready, 1);
  EXPECT_TRUE(source.watched());  // served, and still watched: its page asked a moment ago
  const auto second = source.next(first->number, 0);
  ASSERT_TRUE(second);
  EXPECT_EQ(second->step, 5u);
  const Snapshot expected = make_snapshot(sim->state(), config.params.world, 5, 0, false);
  EXPECT_EQ(second->boids.position[0], expected.boids.position[0]);
  EXPECT_EQ(second->boids.heading[0], expected.boids.heading[0]);
  // With no page waiting, a change makes no snapshot; a page that asks then gets one at once while
  // the owner is idle, and from the owner's next hold while it is busy.
  sim->step(1);
  source.changed(*sim);
  EXPECT_EQ(ready, 1);
  EXPECT_EQ(held, 0);
  const auto third = source.next(second->number, 0);
  ASSERT_TRUE(third);
  EXPECT_EQ(third->step, 6u);
  EXPECT_EQ(held, 1);
  EXPECT_FALSE(source.next(third->number, 0));  // nothing newer: none made
  EXPECT_EQ(held, 1);
  sim->step(1);
  source.changed(*sim);
  idle = false;
  const std::uint64_t seen = third->number + 1;  // the owner's change was published: asked for
  EXPECT_EQ(ready, 2);
  EXPECT_FALSE(source.next(seen, 0));
  source.still(*sim);  // nothing changed since: nothing to make
  EXPECT_EQ(ready, 2);

  // The description follows the owner's changes; the pages' changes are refused.
  EXPECT_NE(source.description().find(R"("mode":"script")"), std::string::npos);
  FlockParams wider = config.params;
  wider.radius = 12;
  sim->set_params(wider);
  source.changed(*sim);
  ASSERT_FALSE(texts.empty());
  EXPECT_NE(texts.back().find(R"("radius":12)"), std::string::npos) << texts.back();
  ClientMessage change;
  change.type = ClientMessage::Type::kSet;
  EXPECT_THROW(source.apply(change), InputError);
}

}  // namespace

namespace boids {
namespace {

// A page's whole numbers follow the command line's rule: 3.0 is 3, and -0 is refused as the
// command line refuses "-0".
// A slider always holds the value the flock flies with: a wind left beyond its range by a lower
// maximum speed widens the range to it, and may be moved back from there.
TEST(Controls, ASliderHoldsTheValueAnotherChangeLeftBeyondIt) {
  FlockParams p;
  p.wind = {0.7, 0, 0};
  p = with_control(p, Precision::kFloat, "max-speed", 0.01);
  for (const Control& c : controls_of(p)) {
    if (c.name != "wind-x") continue;
    EXPECT_GE(c.high, 0.7);
    EXPECT_EQ(c.value, 0.7);
  }
  EXPECT_EQ(with_control(p, Precision::kFloat, "wind-x", 0.3).wind.x, 0.3);
  EXPECT_THROW(with_control(p, Precision::kFloat, "wind-x", 0.8), InputError);
}

TEST(Controls, AWholeNumberIsAWholeValueWithoutASign) {
  FlockParams p;
  EXPECT_EQ(with_control(p, Precision::kFloat, "nearest", 3.0).nearest, 3);
  EXPECT_THROW(with_control(p, Precision::kFloat, "nearest", -0.0), InputError);
  EXPECT_THROW(with_control(p, Precision::kFloat, "nearest", 2.5), InputError);
}

}  // namespace
}  // namespace boids
