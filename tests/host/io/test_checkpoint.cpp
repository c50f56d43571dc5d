// Checkpoints: a flight continued from one is the flight that never stopped, bit for bit, on
// every backend, method, precision and variant; a damaged, truncated or foreign file is refused
// whole; and a run killed mid-way continues from its last checkpoint.
#include <gtest/gtest.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstring>
#include <filesystem>
#include <functional>
#include <string>
#include <thread>
#include <vector>

#include "host/base/errors.h"
#include "host/base/version.h"
#include "host/io/checkpoint.h"
#include "host/io/flight_params.h"
#include "host/io/output_file.h"
#include "host/io/state_file.h"
#include "host/model/param_table.h"
#include "tests/support/cli_fixture.h"
#include "tests/support/test_directory.h"
#include "tests/support/test_support.h"

namespace {

namespace fs = std::filesystem;
using namespace boids;
using test_support::bit_identical;
using test_support::EngineCase;
using test_support::random_state;
using test_support::read_file;
using test_support::Result;

class Resume : public test_support::EngineCaseTest {};

TEST_P(Resume, ContinuesEveryVariantBitForBit) {
  for (const test_support::FlightVariant& v : test_support::flight_variants()) {
    SCOPED_TRACE(v.name);
    FlockParams params;
    v.set(params);
    const SimulationConfig config{GetParam().backend, GetParam().method, GetParam().precision,
                                  params, /*seed=*/9};
    const FlockState start = test_support::with_predators(random_state(700, 100, 4, 6, 3), params);
    const auto whole = make_simulation(config, start);
    whole->step(40);

    const auto first = make_simulation(config, start);
    first->step(17);
    const Checkpoint saved = parse_checkpoint(format_checkpoint(checkpoint_of(*first)), "test");
    EXPECT_EQ(saved.step, 17u);
    EXPECT_EQ(flight_description(saved.config), flight_description(config));
    const auto resumed = make_simulation(saved.config, saved.state);
    resumed->resume(saved.state, saved.order, saved.step);
    EXPECT_EQ(resumed->backend_order(), saved.order);
    resumed->step(23);
    EXPECT_EQ(resumed->steps_taken(), 40u);
    EXPECT_TRUE(bit_identical(resumed->state(), whole->state()));
  }
}

INSTANTIATE_TEST_SUITE_P(
    backends, Resume,
    testing::Values(EngineCase{Backend::kReference, Method::kNaive, Precision::kDouble},
                    EngineCase{Backend::kCpu, Method::kNaive, Precision::kDouble},
                    EngineCase{Backend::kCpu, Method::kNaive, Precision::kFloat},
                    EngineCase{Backend::kCpu, Method::kHashed, Precision::kDouble},
                    EngineCase{Backend::kCpu, Method::kHashed, Precision::kFloat},
                    EngineCase{Backend::kCuda, Method::kNaive, Precision::kDouble},
                    EngineCase{Backend::kCuda, Method::kHashed, Precision::kFloat}),
    test_support::engine_case_name);

// The cell order matters: continuing from the state alone, in input order, adds the hashed
// method's sums in another order and the flight drifts; the checkpoint's order keeps it.
TEST(Checkpoint, TheHashedOrderIsKeptBecauseItMatters) {
  const SimulationConfig config{Backend::kCpu, Method::kHashed, Precision::kFloat, FlockParams{}};
  const FlockState start = random_state(3000, 100, 0, 0, 5);
  const auto whole = make_simulation(config, start);
  whole->step(60);
  const auto first = make_simulation(config, start);
  first->step(30);
  const auto from_state = make_simulation(config, first->state());
  from_state->step(30);
  EXPECT_FALSE(bit_identical(from_state->state(), whole->state()))
      << "the order no longer matters: the test would not see a checkpoint that lost it";
  const Checkpoint c = checkpoint_of(*first);
  EXPECT_NE(c.order, input_order(c.order.size()));
}

Checkpoint small_checkpoint() {
  FlockParams params;
  params.has_goal = true;
  params.goal = {1.25, 59.5};
  params.wind = {-0.125, 1e-50};
  params.obstacles = {{10, 20, 3}};
  params.world = {100, 60, Boundary::kWalls};
  params.noise = 0.1;
  const SimulationConfig config{Backend::kCpu, Method::kHashed, Precision::kDouble, params, 77};
  const auto sim = make_simulation(config, random_state(40, 60, 0, 0, 8));
  sim->step(5);
  return checkpoint_of(*sim);
}

TEST(Checkpoint, RoundTripIsExact) {
  const Checkpoint c = small_checkpoint();
  const Checkpoint back = parse_checkpoint(format_checkpoint(c), "test");
  EXPECT_EQ(back.step, c.step);
  EXPECT_EQ(flight_description(back.config), flight_description(c.config));
  EXPECT_EQ(back.config.params.obstacles.size(), 1u);
  EXPECT_TRUE(back.config.params.has_goal);
  EXPECT_EQ(back.config.params.wind.y, 1e-50);
  EXPECT_TRUE(bit_identical(back.state, c.state));
  EXPECT_EQ(back.order, c.order);
}

// A flight changed on its way (boids run --new-flight) carries its history; one never changed
// is described as before there was one; a history out of order or after the checkpoint's step
// is refused.
TEST(Checkpoint, AFlightsHistoryIsKeptAndChecked) {
  Checkpoint c = small_checkpoint();
  EXPECT_EQ(format_checkpoint(c).find("history"), std::string::npos);
  c.config.history = {{2, R"({"changed":{"noise":{"from":0,"to":0.1}},"step":2})"},
                      {5, R"({"changed":{"radius":{"from":10,"to":8}},"step":5})"}};
  const Checkpoint back = parse_checkpoint(format_checkpoint(c), "test");
  ASSERT_EQ(back.config.history.size(), 2u);
  EXPECT_EQ(back.config.history[1].step, 5u);
  EXPECT_EQ(flight_description(back.config), flight_description(c.config));
  const auto refused = [&](std::vector<FlightChange> history, const std::string& says) {
    Checkpoint bad = c;
    bad.config.history = std::move(history);
    try {
      parse_checkpoint(format_checkpoint(bad), "test");
      ADD_FAILURE() << "accepted: " << says;
    } catch (const InputError& e) {
      EXPECT_NE(std::string(e.what()).find(says), std::string::npos) << e.what();
    }
  };
  refused({{6, R"({"step":6,"changed":{}})"}}, "after the checkpoint's step 5");
  refused({{4, R"({"step":4,"changed":{}})"}, {3, R"({"step":3,"changed":{}})"}}, "out of order");
  refused({{4, R"({"step":4})"}}, "is not {\"step\": S, \"changed\": {...}}");
  refused({{4, R"({"step":-4,"changed":{}})"}}, "is not {");
  // A damaged change is refused when the checkpoint is read, not after the run it resumes has
  // flown and written its outputs (describing it then failed with a bare JSON type error).
  refused({{4, R"({"step":4,"changed":{"noise":5}})"}},
          "its 'history' changes 'noise' without {\"from\": ..., \"to\": ...}");
  refused({{4, R"({"step":4,"changed":{"noise":{"to":5}}})"}}, "changes 'noise' without");
}

// A header naming an option its model does not take (separation under Vicsek, dt under boids)
// is refused, as the command line refuses the option: it resumed, and --json reported it.
TEST(Checkpoint, AnOptionOfAnotherModelIsRefused) {
  struct Case {
    Model model;
    const char* key;
  };
  for (const Case& c : {Case{Model::kVicsek, "separation"}, Case{Model::kBoids, "dt"},
                        Case{Model::kCouzin, "alignment"}, Case{Model::kBoids, "turn_rate"}}) {
    SimulationConfig config;
    config.params = model_defaults(c.model, 100);
    nlohmann::json header = nlohmann::json::parse(flight_description(config));
    const auto read = [](const nlohmann::json& j) {
      return params_from_json(j, [](const std::string& why) { throw InputError(why); });
    };
    EXPECT_EQ(read(header).model, c.model);
    header[c.key] = 2.0;
    try {
      read(header);
      ADD_FAILURE() << c.key << " was taken under " << to_string(c.model);
    } catch (const InputError& e) {
      EXPECT_EQ(std::string(e.what()), std::string("'") + c.key + "' is not an option of the " +
                                           to_string(c.model) + " model");
    }
  }
}

// Arrival is kept where it is on, and a flight without it is described as before it existed.
TEST(Checkpoint, ArrivalIsKeptAndItsAbsenceChangesNoHeader) {
  FlockParams params;
  params.model = Model::kSteering;
  params.has_goal = true;
  params.goal = {30, 40};
  const SimulationConfig config{Backend::kCpu, Method::kNaive, Precision::kDouble, params, 5};
  const auto plain = make_simulation(config, random_state(30, 100, 0, 0, 3));
  EXPECT_EQ(format_checkpoint(checkpoint_of(*plain)).find("arrival_radius"), std::string::npos);
  SimulationConfig arriving = config;
  arriving.params.arrival_radius = 12.5;
  const auto sim = make_simulation(arriving, random_state(30, 100, 0, 0, 3));
  sim->step(3);
  const Checkpoint back = parse_checkpoint(format_checkpoint(checkpoint_of(*sim)), "test");
  EXPECT_EQ(back.config.params.arrival_radius, 12.5);
  EXPECT_EQ(flight_description(back.config), flight_description(arriving));
}

// Wander is kept where it is on, and a flight without it is described as before it existed.
// (Resume, above, flies it on every backend: its drift is keyed by the step, not held.)
TEST(Checkpoint, WanderIsKeptAndItsAbsenceChangesNoHeader) {
  FlockParams params;
  params.radius = 5;
  const SimulationConfig config{Backend::kCpu, Method::kNaive, Precision::kDouble, params, 5};
  const FlockState start = random_state(30, 100, 0, 0, 3);
  EXPECT_EQ(format_checkpoint(checkpoint_of(*make_simulation(config, start))).find("wander"),
            std::string::npos);
  SimulationConfig wandering = config;
  wandering.params.wander = 1.5;
  const auto sim = make_simulation(wandering, start);
  sim->step(3);
  const Checkpoint back = parse_checkpoint(format_checkpoint(checkpoint_of(*sim)), "test");
  EXPECT_EQ(back.config.params.wander, 1.5);
  EXPECT_EQ(flight_description(back.config), flight_description(wandering));
}

// A path is kept, points, radius and weight, and a flight without it is described as before.
TEST(Checkpoint, APathIsKeptWhole) {
  FlockParams params;
  params.path = {{10, 10}, {90, 10.5}, {50, 80}, {10, 10}};
  params.path_radius = 4.25;
  params.path_weight = 1.5;
  const SimulationConfig config{Backend::kCpu, Method::kHashed, Precision::kDouble, params, 5};
  const auto sim = make_simulation(config, random_state(30, 100, 0, 0, 3));
  sim->step(2);
  const Checkpoint back = parse_checkpoint(format_checkpoint(checkpoint_of(*sim)), "test");
  ASSERT_EQ(back.config.params.path.size(), 4u);
  EXPECT_EQ(back.config.params.path[1].y, 10.5);
  EXPECT_TRUE(back.config.params.path_closed());
  EXPECT_EQ(back.config.params.path_radius, 4.25);
  EXPECT_EQ(back.config.params.path_weight, 1.5);
  EXPECT_EQ(flight_description(back.config), flight_description(config));
}

// Every prefix, and a flipped bit anywhere, is refused as an InputError naming the file.
TEST(Checkpoint, DamagedTruncatedOrForeignFilesAreRefusedWhole) {
  const std::string bytes = format_checkpoint(small_checkpoint());
  const auto expect_refused = [](const std::string& damaged, const std::string& why) {
    try {
      parse_checkpoint(damaged, "c.bin");
      ADD_FAILURE() << "accepted: " << why;
    } catch (const InputError& e) {
      EXPECT_EQ(std::string(e.what()).rfind("checkpoint 'c.bin': ", 0), 0u) << e.what();
    }
  };
  for (std::size_t size = 0; size < bytes.size(); size += 1 + size / 7) {
    expect_refused(bytes.substr(0, size), "a prefix of " + std::to_string(size) + " bytes");
  }
  expect_refused(bytes + "x", "a byte appended");
  for (std::size_t at = 0; at < bytes.size(); at += 1 + at / 11) {
    for (int bit : {0, 6}) {
      std::string damaged = bytes;
      damaged[at] = static_cast<char>(damaged[at] ^ (1 << bit));
      expect_refused(damaged, "bit " + std::to_string(bit) + " of byte " + std::to_string(at));
    }
  }
  expect_refused("x,y,vx,vy\n1,2,3,4\n", "a state file");
  std::string newer = bytes;
  newer[8] = 2;  // the version
  expect_refused(newer, "a newer format");
}

// A checkpoint of a later format is refused naming the boids that wrote it and this one.
TEST(Checkpoint, ALaterFormatNamesBothVersions) {
  std::string bytes = format_checkpoint(small_checkpoint());
  EXPECT_NE(bytes.find(std::string("\"boids_version\":\"") + version() + "\""), std::string::npos);
  bytes[8] = 2;  // the format's version
  try {
    parse_checkpoint(bytes, "later.bin");
    ADD_FAILURE() << "a later format was read";
  } catch (const InputError& e) {
    const std::string said = e.what();
    EXPECT_NE(said.find("format version 2 (written by boids " + std::string(version()) + ")"),
              std::string::npos)
        << said;
    EXPECT_NE(said.find("this boids " + std::string(version()) + " reads format version 1"),
              std::string::npos)
        << said;
  }
}

// A file made, not damaged (its checksum right), is held to the command line's ranges.
// check_checkpoint_file reads the file in pieces and keeps none of its boids (the ranks of an
// MPI run read their own): it refuses what read_checkpoint refuses but the boids, in the same
// words, and describes the file as read_checkpoint reads it.
class CheckpointFile : public test_support::TestDirectory {
 protected:
  CheckpointFile() : TestDirectory("boids_checkpoint_file") {}
};

TEST_F(CheckpointFile, CheckedInPiecesItIsJudgedAsTheWholeIs) {
  const std::string file = path("c.bin");
  const Checkpoint good = small_checkpoint();
  const std::string bytes = format_checkpoint(good);
  test_support::write_file(file, bytes);
  const CheckpointHead head = check_checkpoint_file(file);
  EXPECT_EQ(head.step, good.step);
  EXPECT_EQ(head.count, good.state.size());
  EXPECT_EQ(flight_description(head.config), flight_description(good.config));
  // Its columns read by byte ranges are the boids.
  const std::vector<double> rows =
      npy_rows(head.columns, 1, 2, [&](std::uint64_t at, double* into, std::uint64_t n) {
        std::memcpy(into, bytes.data() + at, n * sizeof(double));
      });
  const FlockState two = checkpoint_boids(head, rows.data(), 2);
  EXPECT_EQ(two.x[0], good.state.x[1]);
  EXPECT_EQ(two.vy[1], good.state.vy[2]);
  check_checkpoint_boids(head, two, 1, file);

  const auto same_refusal = [&](const std::string& damaged, const std::string& what) {
    test_support::write_file(file, damaged);
    std::string whole = "accepted", pieces = "accepted";
    try {
      read_checkpoint(file);
    } catch (const InputError& e) {
      whole = e.what();
    }
    try {
      check_checkpoint_file(file);
    } catch (const InputError& e) {
      pieces = e.what();
    }
    EXPECT_NE(whole, "accepted") << what;
    EXPECT_EQ(pieces, whole) << what;
  };
  for (std::size_t at = 0; at < bytes.size(); at += 1 + at / 5) {
    std::string damaged = bytes;
    damaged[at] = static_cast<char>(damaged[at] ^ 4);
    same_refusal(damaged, "byte " + std::to_string(at));
  }
  same_refusal(bytes.substr(0, bytes.size() - 3), "truncated");
  Checkpoint repeated = good;
  repeated.order[1] = repeated.order[0];
  same_refusal(format_checkpoint(repeated), "an order that is not a permutation");
  // A boid outside the world, summed again, is the reader of its boids' to refuse.
  Checkpoint outside = good;
  outside.state.y[2] = 1e6;
  test_support::write_file(file, format_checkpoint(outside));
  EXPECT_NO_THROW(check_checkpoint_file(file));
  FlockState third = checkpoint_boids(head, rows.data() + 4, 1);
  third.y[0] = 1e6;
  try {
    check_checkpoint_boids(head, third, 2, file);
    ADD_FAILURE() << "a boid outside the world was accepted";
  } catch (const InputError& e) {
    EXPECT_EQ(std::string(e.what()), "checkpoint '" + file +
                                         "': boid 2 is outside the world or faster than " +
                                         to_string(good.config.precision) + " precision holds");
  }
}

TEST(Checkpoint, AMadeFlightOutsideTheRangesIsRefused) {
  const std::vector<std::function<void(Checkpoint&)>> makes = {
      [](Checkpoint& c) { c.config.params.max_speed = 1e300; },
      [](Checkpoint& c) { c.config.params.max_speed = 150; },  // crosses the world in a step
      [](Checkpoint& c) { c.config.params.update = Update::kInPlace; },
      [](Checkpoint& c) {
        c.config.params.goal = {500, 10};
      },
      [](Checkpoint& c) { c.state.vx[3] = 1e300; },
      [](Checkpoint& c) { c.state.x[2] = c.config.params.world.width; },
      [](Checkpoint& c) { c.order[0] = c.order[1]; },
  };
  for (std::size_t k = 0; k < makes.size(); ++k) {
    SCOPED_TRACE("case " + std::to_string(k));
    Checkpoint c = small_checkpoint();
    makes[k](c);
    EXPECT_THROW(parse_checkpoint(format_checkpoint(c), "made.bin"), InputError);
  }
}

// A checkpoint of `state` under `config` at `step`, in input order, made rather than flown.
Checkpoint made_checkpoint(const SimulationConfig& config, const FlockState& state,
                           std::uint64_t step = 5) {
  return {config, step, state, input_order(state.size())};
}

// A header edited and summed again is held to the command line's own rules (through
// check_flight, host/core/flight_rules.h), and each refusal names the file.
TEST(Checkpoint, AnEditedHeaderIsHeldToTheCommandLinesRules) {
  const SimulationConfig reference{Backend::kReference, Method::kNaive, Precision::kDouble,
                                   FlockParams{}};
  const SimulationConfig cpu{Backend::kCpu, Method::kHashed, Precision::kFloat, FlockParams{}};
  const FlockState start = random_state(50, 100, 0, 0, 4);
  struct Case {
    std::string name, words;
    std::function<void(Checkpoint&)> make;
  };
  const std::vector<Case> cases = {
      {"in-place under the boids model", "--update in-place: only the steering lab's loop",
       [](Checkpoint& c) { c.config.params.update = Update::kInPlace; }},
      {"in-place with a field of view", "--update in-place is the steering lab's own loop",
       [](Checkpoint& c) {
         c.config.params.model = Model::kSteering;
         c.config.params.update = Update::kInPlace;
         c.config.params.fov = 270;
       }},
      {"a separation radius above the radius", "--separation-radius",
       [](Checkpoint& c) { c.config.params.separation_radius = 20; }},
      {"a wall distance on a torus", "--wall-distance needs --boundary walls",
       [](Checkpoint& c) { c.config.params.wall_distance = 5; }},
      {"a goal weight without a goal", "--goal-weight needs --goal",
       [](Checkpoint& c) { c.config.params.goal_weight = 3; }},
      {"arrival without a goal", "--arrival-radius needs --goal",
       [](Checkpoint& c) { c.config.params.arrival_radius = 3; }},
      {"arrival under the boids model", "--arrival-radius: arrival slows the steering model",
       [](Checkpoint& c) {
         c.config.params.has_goal = true;
         c.config.params.goal = {50, 50};
         c.config.params.arrival_radius = 3;
       }},
      {"a path of one point", "--path: a path has 2 to",
       [](Checkpoint& c) {
         c.config.params.path = {{5, 5}};
       }},
      {"a path point outside the world", "--path: point 2: it lies outside the world",
       [](Checkpoint& c) {
         c.config.params.path = {{5, 5}, {500, 5}};
       }},
      {"wander under the Vicsek model", "--wander: wander steers the boids and steering models",
       [](Checkpoint& c) {
         c.config.params.model = Model::kVicsek;
         c.config.params.wander = 1;
       }},
      {"an obstacle over a boid", "boid 7 starts inside an obstacle",
       [](Checkpoint& c) {
         c.config.params.obstacles = {{c.state.x[7], c.state.y[7], 0.5}};
       }},
      {"more obstacles than the command line takes", "more than 100000 obstacles",
       [](Checkpoint& c) {
         // 150,000 small discs on a lattice, clear of every boid.
         c.config.params.obstacles.clear();
         for (int k = 0; k < 150000; ++k) {
           c.config.params.obstacles.push_back({(k % 400) * 0.25, (k / 400) * 0.25, 1e-3});
         }
         for (std::size_t i = 0; i < c.state.size(); ++i) {
           c.state.x[i] = 0.125 + static_cast<double>(i % 400) * 0.25;
           c.state.y[i] = 0.125;
         }
       }},
      {"a Vicsek flock off its speed", "moves at speed",
       [](Checkpoint& c) {
         c.config.params.model = Model::kVicsek;
         c.config.params.max_speed = 0.5;
       }},
      {"a step beyond 10^18", "its step", [](Checkpoint& c) { c.step = (1ULL << 63) + 5; }},
  };
  for (const Case& k : cases) {
    for (const bool on_cpu : {false, true}) {
      if (on_cpu && k.name.find("in-place") != std::string::npos) continue;  // the reference's
      const SimulationConfig& config = on_cpu ? cpu : reference;
      SCOPED_TRACE(k.name + " on " + to_string(config.backend));
      Checkpoint c = made_checkpoint(config, start);
      k.make(c);
      try {
        parse_checkpoint(format_checkpoint(c), "made.bin");
        ADD_FAILURE() << "accepted";
      } catch (const InputError& e) {
        const std::string message = e.what();
        EXPECT_EQ(message.rfind("checkpoint 'made.bin': ", 0), 0u) << message;
        EXPECT_NE(message.find(k.words), std::string::npos) << message;
      }
    }
  }
}

// What a flight in progress holds by its precision's rounding is no edit: a float Vicsek
// flock's speeds are V to about 1e-7, and its boids may lie at an obstacle's edge by a
// float's rounding of the world.
TEST(Checkpoint, AFloatFlightsRoundingIsAccepted) {
  FlockParams params;
  params.model = Model::kVicsek;
  params.max_speed = 0.3;
  params.noise = 1;
  params.obstacles = {{50, 50, 10}};
  const SimulationConfig config{Backend::kCpu, Method::kHashed, Precision::kFloat, params};
  Checkpoint c = made_checkpoint(config, random_state(20, 100, 0, 0, 6));
  for (std::size_t i = 0; i < c.state.size(); ++i) {
    c.state.x[i] = 5 + 4.5 * static_cast<double>(i);  // clear of the obstacle
    c.state.y[i] = 10;
    const double turn = 0.1 * static_cast<double>(i);
    c.state.vx[i] = static_cast<float>(0.3 * std::cos(turn));
    c.state.vy[i] = static_cast<float>(0.3 * std::sin(turn));
  }
  c.state.x[3] = static_cast<float>(50 + 10 * std::cos(0.7));  // at the edge, in float
  c.state.y[3] = static_cast<float>(50 + 10 * std::sin(0.7));
  const Checkpoint back = parse_checkpoint(format_checkpoint(c), "float.bin");
  EXPECT_TRUE(bit_identical(back.state, c.state));
}

class CheckpointCli : public test_support::CliFixture {
 protected:
  // `boids run args...` is refused as bad input, naming `words`. (Not expect_bad: that adds
  // --backend, which --resume refuses.)
  void refused(std::vector<std::string> args, const std::string& words) const {
    args.insert(args.begin(), "run");
    const Result r = run(args);
    EXPECT_EQ(r.code, 2) << r.err;
    EXPECT_EQ(r.err.rfind("boids: error: ", 0), 0u) << r.err;
    EXPECT_NE(r.err.find(words), std::string::npos) << r.err;
    EXPECT_EQ(r.out, "");
  }
};

// The flight of `boids run` with these options, on the cpu backend.
std::vector<std::string> flight(std::vector<std::string> more) {
  std::vector<std::string> args = {"run",     "--backend", "cpu",    "--count", "3000",
                                   "--noise", "0.4",       "--seed", "11"};
  args.insert(args.end(), more.begin(), more.end());
  return args;
}

TEST_F(CheckpointCli, AKilledRunContinuesFromItsLastCheckpoint) {
  // A run far too long to finish, killed once it has written a checkpoint or two.
  const std::vector<std::string> args =
      flight({"--steps", "100000000", "--checkpoint", path("c.bin"), "--checkpoint-every", "20"});
  const pid_t pid = start(args);
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(60);
  while (!fs::exists(path("c.bin")) && std::chrono::steady_clock::now() < deadline) {
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
  }
  std::this_thread::sleep_for(std::chrono::milliseconds(300));
  kill(pid, SIGKILL);
  int status = 0;
  waitpid(pid, &status, 0);
  ASSERT_TRUE(WIFSIGNALED(status)) << "the run ended before it was killed";
  ASSERT_TRUE(fs::exists(path("c.bin"))) << "no checkpoint within 60 s";

  const Checkpoint last = read_checkpoint(path("c.bin"));  // whole, whatever the kill hit
  ASSERT_EQ(last.step % 20, 0u);
  const std::string end = std::to_string(last.step + 35);
  const Result resumed =
      run({"run", "--resume", path("c.bin"), "--steps", end, "--save", path("resumed.csv")});
  ASSERT_EQ(resumed.code, 0) << resumed.err;
  EXPECT_NE(resumed.out.find("resumed at step " + std::to_string(last.step)), std::string::npos)
      << resumed.out;
  const Result whole = run(flight({"--steps", end, "--save", path("whole.csv")}));
  ASSERT_EQ(whole.code, 0) << whole.err;
  EXPECT_EQ(read_file(path("resumed.csv")), read_file(path("whole.csv")));
}

// Without --metrics-every a resumed run's metrics are the start and the end, as a new run's.
TEST_F(CheckpointCli, AResumedRunHasTheMetricsRowsItAskedFor) {
  ASSERT_EQ(run(flight({"--steps", "30", "--checkpoint", path("c.bin")})).code, 0);
  const Result r =
      run({"run", "--resume", path("c.bin"), "--steps", "100", "--metrics", path("m.csv")});
  ASSERT_EQ(r.code, 0) << r.err;
  const std::string text = read_file(path("m.csv"));
  EXPECT_EQ(std::count(text.begin(), text.end(), '\n'), 3) << text;
  EXPECT_NE(text.find("\n30,"), std::string::npos) << text;
  EXPECT_NE(text.find("\n100,"), std::string::npos) << text;
}

// `boids run --resume` of a checkpoint whose header was edited (and summed again) refuses what
// the command line refuses, naming the file; a step near 2^64 is refused, not wrapped to 0.
TEST_F(CheckpointCli, AnEditedCheckpointIsRefusedNamingItsFile) {
  ASSERT_EQ(run(flight({"--steps", "10", "--checkpoint", path("c.bin")})).code, 0);
  Checkpoint edited = read_checkpoint(path("c.bin"));
  edited.config.params.wall_distance = 4;  // on the torus
  test_support::write_file(path("walls.bin"), format_checkpoint(edited));
  refused({"--resume", path("walls.bin"), "--steps", "20"},
          "checkpoint '" + path("walls.bin") +
              "': a flight boids refuses: --wall-distance needs --boundary walls");
  edited = read_checkpoint(path("c.bin"));
  edited.step = ~std::uint64_t{0} - 3;
  test_support::write_file(path("late.bin"), format_checkpoint(edited));
  refused({"--resume", path("late.bin"), "--steps", "20"},
          "checkpoint '" + path("late.bin") + "': a flight boids refuses: its step: ");
}

TEST_F(CheckpointCli, OptionsThatWouldChangeTheFlightAreRefused) {
  ASSERT_EQ(run(flight({"--steps", "10", "--checkpoint", path("c.bin")})).code, 0);
  const std::string kept = read_file(path("c.bin"));
  for (const std::vector<std::string>& more : {std::vector<std::string>{"--alignment", "2"},
                                               {"--seed", "11"},
                                               {"--count", "3000"},
                                               {"--backend", "cpu"},
                                               {"--precision", "double"},
                                               {"--init", path("c.bin")}}) {
    std::vector<std::string> args = {"--resume", path("c.bin"),  "--steps",
                                     "20",       "--checkpoint", path("c.bin")};
    args.insert(args.end(), more.begin(), more.end());
    refused(args, more[0] + " cannot be given with --resume");
  }
  refused({"--resume", path("c.bin")}, "--resume needs --steps");
  refused({"--resume", path("c.bin"), "--steps", "9"}, "before the checkpoint's step 10");
  refused({"--resume", path("missing.bin"), "--steps", "20"}, "missing.bin");
  refused({"--checkpoint-every", "5"}, "--checkpoint-every needs --checkpoint");
  EXPECT_EQ(read_file(path("c.bin")), kept);
  EXPECT_EQ(entries(), (std::set<std::string>{"c.bin"}));
}

}  // namespace
