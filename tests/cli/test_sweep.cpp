// Ensembles and `boids sweep`: flocks flown side by side or in batches fly as they fly alone; the
// statistics are the definitions'; a sweep refuses bad parameters and resumes without losing a
// point.
#include <gtest/gtest.h>

#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <cmath>
#include <cstring>
#include <nlohmann/json.hpp>
#include <random>
#include <set>
#include <sstream>
#include <thread>

#include "host/base/errors.h"
#include "host/base/version.h"
#include "host/core/ensemble.h"
#include "host/model/initial_state.h"
#include "tests/support/cli_fixture.h"

namespace {

using boids::EnsembleSample;

std::vector<boids::EnsembleFlock> replicas(boids::Method method, boids::Precision precision,
                                           int k) {
  std::vector<boids::EnsembleFlock> flocks;
  for (int seed = 0; seed < k; ++seed) {
    boids::SimulationConfig config;
    config.backend = boids::Backend::kCpu;
    config.method = method;
    config.precision = precision;
    config.seed = static_cast<std::uint64_t>(seed);
    config.params.noise = 0.4;
    config.params.fov = 300;
    flocks.push_back({config, 400, [config] {
                        return boids::make_initial_state(400, config.seed, config.params);
                      }});
  }
  return flocks;
}

bool same_bits(const std::vector<std::vector<EnsembleSample>>& a,
               const std::vector<std::vector<EnsembleSample>>& b) {
  if (a.size() != b.size()) return false;
  for (std::size_t i = 0; i < a.size(); ++i) {
    if (a[i].size() != b[i].size() ||
        std::memcmp(a[i].data(), b[i].data(), a[i].size() * sizeof(EnsembleSample)) != 0) {
      return false;
    }
  }
  return true;
}

// Side by side, each on one thread, in batches, or one after another on every thread: the
// same samples.
TEST(Ensemble, FlocksFlownSideBySideOrInBatchesFlyAsAlone) {
  const boids::EnsemblePlan plan{50, 100, 25};
  for (const auto method : {boids::Method::kNaive, boids::Method::kHashed}) {
    for (const auto precision : {boids::Precision::kFloat, boids::Precision::kDouble}) {
      const auto flocks = replicas(method, precision, 5);
      const auto alone = boids::fly_ensemble(flocks, plan, {});
      const auto side_by_side = boids::fly_ensemble(flocks, plan, {3, 0});
      ASSERT_EQ(alone.size(), 5u);
      ASSERT_EQ(alone[0].size(), 4u);
      const std::string what = boids::to_string(method) + " " + boids::to_string(precision);
      EXPECT_TRUE(same_bits(alone, side_by_side)) << what;
      EXPECT_NE(alone[0][3].polarization, alone[1][3].polarization);  // replicas differ
      if (method == boids::Method::kHashed) {  // batches of 2, 2 and 1 flocks
        EXPECT_TRUE(same_bits(alone, boids::fly_ensemble(flocks, plan, {1, 800}))) << what;
      }
    }
  }
}

TEST(Ensemble, EveryFlockIsReportedOnceAndAFailureStopsTheEnsemble) {
  auto flocks = replicas(boids::Method::kHashed, boids::Precision::kFloat, 4);
  for (const boids::EnsembleSchedule schedule : {boids::EnsembleSchedule{2, 0}, {1, 1000}}) {
    std::vector<int> reported(4, 0);
    boids::fly_ensemble(flocks, {0, 10, 10}, schedule,
                        [&](std::size_t i, const std::vector<EnsembleSample>& s) {
                          ++reported[i];
                          EXPECT_EQ(s.size(), 1u);
                        });
    EXPECT_EQ(reported, std::vector<int>(4, 1));
  }
  flocks[2].start = []() -> boids::FlockState {
    throw boids::RuntimeError("no memory for flock 2");
  };
  EXPECT_THROW(boids::fly_ensemble(flocks, {0, 10, 10}, {2, 0}), boids::RuntimeError);
  EXPECT_THROW(boids::fly_ensemble(flocks, {0, 10, 10}, {1, 1000}), boids::RuntimeError);
}

// The schedule a sweep gets: side by side on CPUs for small flocks, one at a time for large.
TEST(Ensemble, ScheduleFitsTheFlocks) {
  auto flocks = replicas(boids::Method::kHashed, boids::Precision::kFloat, 4);
  EXPECT_EQ(boids::ensemble_schedule(flocks).batch_boids, 0u);
  EXPECT_GE(boids::ensemble_schedule(flocks).threads, 1);
  for (auto& f : flocks) f.count = boids::kSideBySideBoids;
  EXPECT_EQ(boids::ensemble_schedule(flocks).threads, 1);
  EXPECT_EQ(boids::ensemble_schedule({flocks.front()}).threads, 1);
  for (auto& f : flocks) {
    f.config.backend = boids::Backend::kCuda;
    f.count = 4000;
  }
  EXPECT_EQ(boids::ensemble_schedule(flocks).batch_boids, boids::kBatchBoids);
  flocks[1].config.method = boids::Method::kNaive;  // naive flocks fly alone
  EXPECT_EQ(boids::ensemble_schedule(flocks).batch_boids, 0u);
  flocks[1].config.method = boids::Method::kHashed;
  for (auto& f : flocks) f.config.params.dimensions = 3;  // so do flocks in a box
  EXPECT_EQ(boids::ensemble_schedule(flocks).batch_boids, 0u);
  EXPECT_THROW(boids::ensemble_schedule(flocks, boids::EnsembleWay::kBatched), boids::InputError);
}

TEST(Ensemble, StatisticsFollowTheirDefinitions) {
  // phi = 0.2, 0.4 in one replica, 0.6, 0.8 in the other.
  std::vector<std::vector<EnsembleSample>> r = {{{0.2, 1, 10, 2}, {0.4, 3, 20, 4}},
                                                {{0.6, 1, 30, 6}, {0.8, 1, 40, 8}}};
  const boids::EnsembleStatistics s = boids::ensemble_statistics(r, 50);
  EXPECT_EQ(s.replicas, 2u);
  EXPECT_EQ(s.samples, 4u);
  EXPECT_DOUBLE_EQ(s.polarization_mean, 0.5);
  const double phi2 = (0.04 + 0.16 + 0.36 + 0.64) / 4,
               phi4 = (0.0016 + 0.0256 + 0.1296 + 0.4096) / 4;
  EXPECT_NEAR(s.polarization_std, std::sqrt((phi2 - 0.25) * 4 / 3), 1e-15);
  EXPECT_NEAR(s.binder, 1 - phi4 / (3 * phi2 * phi2), 1e-15);
  EXPECT_NEAR(s.susceptibility, 50 * (phi2 - 0.25), 1e-13);
  EXPECT_NEAR(s.polarization_sem, std::sqrt(((0.3 - 0.5) * (0.3 - 0.5) * 2) / 1 / 2), 1e-15);
  EXPECT_DOUBLE_EQ(s.flocks_mean, 1.5);
  EXPECT_DOUBLE_EQ(s.largest_flock_mean, 25);
  EXPECT_DOUBLE_EQ(s.nn_distance_mean, 5);
  // An ordered flock of constant phi: U = 2/3, chi = 0.
  const auto ordered = boids::ensemble_statistics({{{0.9, 1, 1, 1}, {0.9, 1, 1, 1}}}, 10);
  EXPECT_NEAR(ordered.binder, 2.0 / 3, 1e-15);
  EXPECT_NEAR(ordered.susceptibility, 0, 1e-15);
  EXPECT_EQ(ordered.binder_sem, 0);               // one replica: no error over replicas
  EXPECT_EQ(ordered.autocorrelation_steps, 0.5);  // no variance: no memory
}

// The errors of the Binder cumulant and the susceptibility are the jackknife's over replicas:
// leaving out each replica in turn, as written out here for three.
TEST(Ensemble, TheCumulantsErrorsAreTheJackknifesOverReplicas) {
  const std::vector<std::vector<double>> phis = {{0.1, 0.5, 0.3}, {0.7, 0.6}, {0.2, 0.9, 0.4}};
  std::vector<std::vector<EnsembleSample>> r;
  for (const auto& series : phis) {
    r.emplace_back();
    for (double p : series) r.back().push_back({p, 1, 1, 1});
  }
  const boids::EnsembleStatistics s = boids::ensemble_statistics(r, 100);
  std::vector<double> binders, chis;
  for (std::size_t out = 0; out < phis.size(); ++out) {
    double n = 0, m1 = 0, m2 = 0, m4 = 0;
    for (std::size_t k = 0; k < phis.size(); ++k) {
      if (k == out) continue;
      for (double p : phis[k]) n += 1, m1 += p, m2 += p * p, m4 += p * p * p * p;
    }
    binders.push_back(1 - (m4 / n) / (3 * (m2 / n) * (m2 / n)));
    chis.push_back(100 * (m2 / n - (m1 / n) * (m1 / n)));
  }
  auto jackknife = [](const std::vector<double>& x) {
    const double mean = (x[0] + x[1] + x[2]) / 3;
    double square = 0;
    for (double v : x) square += (v - mean) * (v - mean);
    return std::sqrt(square * 2 / 3);
  };
  EXPECT_NEAR(s.binder_sem, jackknife(binders), 1e-12);
  EXPECT_NEAR(s.susceptibility_sem, jackknife(chis), 1e-10);
  EXPECT_GT(s.binder_sem, 0);
}

// The integrated autocorrelation time of an AR(1) series x' = a x + noise is (1 + a) / (2 (1 - a))
// samples: 4.5 for a = 0.8; white noise's is 1/2. Sixteen replicas of 20,000 samples each.
TEST(Ensemble, TheAutocorrelationTimeIsThatOfTheSeries) {
  std::mt19937_64 random(7);
  std::normal_distribution<double> noise(0, 0.01);
  auto replicas = [&](double a) {
    std::vector<std::vector<EnsembleSample>> r(16);
    for (auto& series : r) {
      double x = 0;
      for (int k = 0; k < 20000; ++k) {
        x = a * x + noise(random);
        series.push_back({0.5 + x, 1, 1, 1});
      }
    }
    return r;
  };
  const boids::EnsembleStatistics slow = boids::ensemble_statistics(replicas(0.8), 100, 10);
  EXPECT_NEAR(slow.autocorrelation_steps, 45, 3);  // 4.5 samples of 10 steps
  EXPECT_NEAR(slow.effective_samples, 16 * 20000 / 9.0, 16 * 20000 / 9.0 * 0.07);
  const boids::EnsembleStatistics white = boids::ensemble_statistics(replicas(0), 100, 10);
  EXPECT_NEAR(white.autocorrelation_steps, 5, 0.5);
  EXPECT_NEAR(white.effective_samples, 16 * 20000, 16 * 20000 * 0.1);
}

class Sweep : public boids::test_support::CliFixture {
 protected:
  std::vector<std::string> sweep(std::vector<std::string> extra) const {
    std::vector<std::string> args = {"sweep", "--model",    "vicsek", "--density", "4",  "--steps",
                                     "40",    "--replicas", "3",      "--backend", "cpu"};
    args.insert(args.end(), extra.begin(), extra.end());
    return args;
  }
  void expect_bad(const std::vector<std::string>& extra, const std::string& message) const {
    const boids::test_support::Result r = run(sweep(extra));
    EXPECT_EQ(r.code, 2) << r.err;
    EXPECT_NE(r.err.find("boids: error: " + message), std::string::npos) << r.err;
  }
};

TEST_F(Sweep, BadParametersAreRefused) {
  expect_bad({}, "no --param given");
  expect_bad({"--param", "weight=1,2"}, "--param: 'weight' is not an option a sweep can vary");
  expect_bad({"--param", "seed=1,2"}, "--param: 'seed' is not an option");
  expect_bad({"--param", "noise"}, "--param: expected NAME=V1,V2,... or NAME=START:STOP:STEP");
  expect_bad({"--param", "noise=1,,2"}, "--param noise: an empty value");
  expect_bad({"--param", "noise=2:1:0.5"}, "--param noise: the range ends before it starts");
  expect_bad({"--param", "noise=0:1:0"}, "--param noise: expected a number > 0");
  expect_bad({"--param", "noise=0:1e9:1e-9"}, "--param noise: more than 10000 values");
  expect_bad({"--param", "noise=1,9"}, "--noise: expected radians in [0, 2 pi], got '9'");
  expect_bad({"--param", "noise=1", "--param", "noise=2"}, "--param noise is given twice");
  expect_bad({"--param", "noise=1", "--noise", "2"},
             "--noise is given both as an option and as --param noise");
  expect_bad({"--param", "noise=1", "--every", "30"}, "--steps 40 is not a multiple of --every 30");
  expect_bad({"--param", "noise=1", "--resume"}, "--resume needs --csv FILE");
  ASSERT_EQ(run({"sweep", "--model", "vicsek", "--density", "4", "--steps", "40", "--replicas", "2",
                 "--backend", "cpu", "--param", "count=50", "--csv", path("other.csv")})
                .code,
            0);
  expect_bad({"--param", "count=50", "--csv", path("other.csv"), "--resume"},
             "--resume: '" + path("other.csv") +
                 "', line 2: its point (count=50) was flown with 50 boids, 2 replicas and 8 "
                 "samples; this sweep flies 50, 3 and 12");
  // The same sizes, but another option: the point's flight differs.
  ASSERT_EQ(run(sweep({"--param", "count=50", "--csv", path("fov.csv")})).code, 0);
  for (const std::vector<std::string>& other :
       {std::vector<std::string>{"--fov", "300"}, {"--seed", "7"}, {"--discard", "10"}}) {
    std::vector<std::string> extra = {"--param", "count=50", "--csv", path("fov.csv"), "--resume"};
    extra.insert(extra.end(), other.begin(), other.end());
    expect_bad(extra, "--resume: '" + path("fov.csv") +
                          "', line 2: its point (count=50) was flown with other options than "
                          "this sweep's");
  }
  EXPECT_EQ(run(sweep({"--param", "count=50", "--csv", path("fov.csv"), "--resume", "--schedule",
                       "batched"}))
                .code,
            0);  // the schedule changes nothing in a flight
  expect_bad({"--param", "noise=1", "--plot", "out.jpg"},
             "--plot: expected a file name ending in .png");
  expect_bad({"--param", "noise=1", "--init", "start.csv"}, "--init: a sweep flies random starts");
  expect_bad({"--param", "noise=1", "--schedule", "fast"},
             "--schedule: expected auto, alone, side-by-side or batched, got 'fast'");
  expect_bad({"--param", "noise=1", "--schedule", "batched", "--method", "naive"},
             "--schedule batched: flocks fly batched on the hashed method");
  expect_bad({"--param", "noise=1", "--schedule", "batched", "--boundary", "open"},
             "--schedule batched: a flock in open space flies alone");
}

// A range ends at its STOP as written: a Vicsek sweep up to 2 pi stays inside --noise's range.
TEST_F(Sweep, ARangeEndsAtItsStopAsWritten) {
  const boids::test_support::Result r =
      run(sweep({"--param", "noise=0:6.283185307179586:3.141592653589793", "--json"}));
  ASSERT_EQ(r.code, 0) << r.err;
  const auto json = nlohmann::json::parse(r.out)["points"];
  ASSERT_EQ(json.size(), 3u);
  EXPECT_EQ(json[2]["noise"].get<double>(), 6.283185307179586);
}

TEST_F(Sweep, RowsAreThePointsOfTheGridAndResumeLosesNone) {
  const std::string csv = path("sweep.csv");
  const auto args =
      sweep({"--param", "noise=0.5:2.5:1", "--param=count=40,60", "--csv", csv, "--json"});
  const boids::test_support::Result first = run(args);
  ASSERT_EQ(first.code, 0) << first.err;
  const auto whole_json = nlohmann::json::parse(first.out);
  // What made it: the version, the command, the grid and the first point's flight.
  EXPECT_EQ(whole_json["made_by"]["boids_version"], boids::version());
  EXPECT_EQ(whole_json["made_by"]["command"][1], "sweep");
  EXPECT_EQ(whole_json["grid"][1]["name"], "count");
  EXPECT_EQ(whole_json["replicas"], 3);
  EXPECT_EQ(whole_json["first_point"]["noise"], 0.5);
  const auto& json = whole_json["points"];
  ASSERT_EQ(json.size(), 6u);
  EXPECT_EQ(json[0]["noise"], 0.5);
  EXPECT_EQ(json[1]["count"], 60);
  EXPECT_EQ(json[1]["boids"], 60);
  EXPECT_EQ(json[5]["noise"], 2.5);
  EXPECT_EQ(json[0]["samples"], 12);  // 3 replicas, every 10 steps of 40
  EXPECT_GT(json[0]["polarization"].get<double>(), json[5]["polarization"].get<double>());

  const std::string whole = boids::test_support::read_file(csv);
  std::vector<std::string> lines;
  std::stringstream in(whole);
  for (std::string line; std::getline(in, line);) lines.push_back(line);
  ASSERT_EQ(lines.size(), 7u);
  EXPECT_EQ(lines[0].rfind("noise,count,boids,replicas,samples,polarization,", 0), 0u);
  // A kill after three rows, in the middle of the fourth: resumed, the three stay and the
  // other three are flown again, with the same statistics.
  const auto without_time = [](const std::string& row) { return row.substr(0, row.rfind(',')); };
  boids::test_support::write_file(csv, lines[0] + "\n" + lines[1] + "\n" + lines[2] + "\n" +
                                           lines[3] + "\n" + lines[4].substr(0, 10));
  std::vector<std::string> resumed_args = args;
  resumed_args.push_back("--resume");
  const boids::test_support::Result second = run(resumed_args);
  ASSERT_EQ(second.code, 0) << second.err;
  std::vector<std::string> after;
  std::stringstream again(boids::test_support::read_file(csv));
  for (std::string line; std::getline(again, line);) after.push_back(line);
  ASSERT_EQ(after.size(), 7u);
  EXPECT_EQ(after[0], lines[0]);
  std::multiset<std::string> before_rows, after_rows;
  for (std::size_t i = 1; i < 7; ++i) {
    before_rows.insert(without_time(lines[i]));
    after_rows.insert(without_time(after[i]));
  }
  EXPECT_EQ(before_rows, after_rows);

  // The plot draws every row of the file.
  std::vector<std::string> plot_args = resumed_args;
  plot_args.insert(plot_args.end(), {"--plot", path("sweep.png")});
  const boids::test_support::Result plotted = run(plot_args);
  if (!boids::test_support::plotting_unavailable(plotted)) {
    ASSERT_EQ(plotted.code, 0) << plotted.err;
    EXPECT_EQ(boids::test_support::read_file(path("sweep.png")).substr(1, 3), "PNG");
  }

  // A file of another sweep is refused, and left as it was.
  boids::test_support::write_file(path("other.csv"), "alignment,count,x\n");
  const boids::test_support::Result other =
      run(sweep({"--param", "noise=1", "--csv", path("other.csv"), "--resume"}));
  EXPECT_EQ(other.code, 2);
  EXPECT_NE(other.err.find("is not this sweep's"), std::string::npos) << other.err;
  EXPECT_EQ(boids::test_support::read_file(path("other.csv")), "alignment,count,x\n");
}

// The rows of a sweep's CSV file without their last column (the seconds, which differ).
std::multiset<std::string> rows_without_time(const std::string& text) {
  std::multiset<std::string> rows;
  std::stringstream in(text);
  for (std::string line; std::getline(in, line);) rows.insert(line.substr(0, line.rfind(',')));
  return rows;
}

// Every way of flying a sweep gives the same rows, bit for bit: a flock flies as it flies alone.
TEST_F(Sweep, EveryScheduleGivesTheSameRows) {
  std::multiset<std::string> first;
  for (const std::string way : {"alone", "side-by-side", "batched", "auto"}) {
    const std::string csv = path(way + ".csv");
    const boids::test_support::Result r =
        run(sweep({"--param", "noise=0.5,3", "--param", "count=30,70", "--precision", "double",
                   "--schedule", way, "--csv", csv}));
    ASSERT_EQ(r.code, 0) << way << ": " << r.err;
    const std::multiset<std::string> rows = rows_without_time(boids::test_support::read_file(csv));
    EXPECT_EQ(rows.size(), 5u);
    if (first.empty()) first = rows;
    EXPECT_EQ(rows, first) << way;
  }
}

TEST_F(Sweep, AKilledSweepResumedHasEveryPointOnce) {
  // 61 points of two flocks each, most of a second's work, killed once two rows are on disk.
  const std::vector<std::string> args = {"sweep",
                                         "--model",
                                         "vicsek",
                                         "--density",
                                         "4",
                                         "--backend",
                                         "cpu",
                                         "--count",
                                         "40",
                                         "--steps",
                                         "1000",
                                         "--every",
                                         "100",
                                         "--replicas",
                                         "2",
                                         "--param",
                                         "noise=0:6:0.1",
                                         "--csv",
                                         path("killed.csv")};
  const pid_t pid = start(args);
  const auto lines = [&] {
    const std::string text = boids::test_support::read_file(path("killed.csv"));
    return std::count(text.begin(), text.end(), '\n');
  };
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(120);
  int status = 0;
  bool ended = false;  // before the kill: the test's sizes are wrong
  while (lines() < 3 && std::chrono::steady_clock::now() < deadline) {
    if (waitpid(pid, &status, WNOHANG) == pid) {
      ended = true;
      break;
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  }
  if (!ended) {
    kill(pid, SIGKILL);
    waitpid(pid, &status, 0);
  }
  ASSERT_TRUE(WIFSIGNALED(status)) << "the sweep ended before it was killed";
  ASSERT_GE(lines(), 3) << "no two rows within 120 s";
  ASSERT_LT(lines(), 62) << "every row was written before the kill";

  std::vector<std::string> resumed = args;
  resumed.push_back("--resume");
  const boids::test_support::Result r = run(resumed);
  ASSERT_EQ(r.code, 0) << r.err;
  std::vector<std::string> whole = args;
  whole.back() = path("whole.csv");
  ASSERT_EQ(run(whole).code, 0);
  const auto killed_rows = rows_without_time(boids::test_support::read_file(path("killed.csv")));
  EXPECT_EQ(killed_rows.size(), 62u);
  EXPECT_EQ(killed_rows, rows_without_time(boids::test_support::read_file(path("whole.csv"))));
}

}  // namespace
