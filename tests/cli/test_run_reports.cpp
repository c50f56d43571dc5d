// What `boids run` reports of itself beside its results: the figures of --plot in a journal's
// formats, what its measures of the flock cost, and a long run's progress lines on stderr.
#include <gtest/gtest.h>

#include <cmath>
#include <nlohmann/json.hpp>
#include <sstream>
#include <string>
#include <vector>

#include "host/core/flight_cost.h"
#include "host/model/param_table.h"
#include "tests/support/cli_fixture.h"

namespace {

using boids::test_support::plotting_unavailable;
using boids::test_support::read_file;
using boids::test_support::Result;

class RunReports : public boids::test_support::CliFixture {};

// The lines of `text` holding `word`.
std::vector<std::string> lines_with(const std::string& text, const std::string& word) {
  std::vector<std::string> found;
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);) {
    if (line.find(word) != std::string::npos) found.push_back(line);
  }
  return found;
}

TEST_F(RunReports, PlotsAreWrittenAsPdfAndSvgByTheirNames) {
  for (const std::string name : {"order.pdf", "order.svg", "ORDER.SVG"}) {
    const Result r =
        run({"run", "--backend", "cpu", "--count", "100", "--steps", "40", "--plot", path(name)});
    if (plotting_unavailable(r)) GTEST_SKIP() << r.err;
    ASSERT_EQ(r.code, 0) << name << ": " << r.err;
    const std::string figure = read_file(path(name));
    if (name == "order.pdf") {
      EXPECT_EQ(figure.rfind("%PDF-", 0), 0u);
    } else {
      EXPECT_NE(figure.find("<svg"), std::string::npos);
      // Text kept as text, for a journal's editor: the legend's words are in the file.
      EXPECT_NE(figure.find("polarization"), std::string::npos);
    }
  }
  const Result bad = run({"run", "--count", "100", "--plot", path("order.eps")});
  EXPECT_EQ(bad.code, 2);
  EXPECT_NE(bad.err.find("--plot: expected a file name ending in .png, .pdf or .svg"),
            std::string::npos)
      << bad.err;
}

// --metrics-every sets what --plot samples, without --metrics; the summary and --json say how
// many measures the run made and what they cost.
TEST_F(RunReports, MetricsEverySetsWhatThePlotMeasuresAndItsCostIsSaid) {
  const Result r = run({"run", "--backend", "cpu", "--count", "200", "--steps", "100", "--plot",
                        path("p.svg"), "--metrics-every", "25", "--json"});
  if (plotting_unavailable(r)) GTEST_SKIP() << r.err;
  ASSERT_EQ(r.code, 0) << r.err;
  const auto j = nlohmann::json::parse(r.out);
  EXPECT_EQ(j.at("measures").get<int>(), 5);  // steps 0, 25, 50, 75 and the end
  EXPECT_GT(j.at("measuring_seconds").get<double>(), 0.0);
  const Result every = run({"run", "--backend", "cpu", "--count", "200", "--steps", "100", "--plot",
                            path("q.svg"), "--json"});
  ASSERT_EQ(every.code, 0) << every.err;
  EXPECT_EQ(nlohmann::json::parse(every.out).at("measures").get<int>(), 101);  // 200 rows at most
  const Result summary = run({"run", "--backend", "cpu", "--count", "200", "--steps", "10"});
  ASSERT_EQ(summary.code, 0) << summary.err;
  EXPECT_EQ(lines_with(summary.out, "measuring").size(), 1u) << summary.out;
  const Result alone = run({"run", "--count", "200", "--metrics-every", "5"});
  EXPECT_EQ(alone.code, 2);
  EXPECT_NE(alone.err.find("--metrics-every needs --metrics FILE or --plot FILE"),
            std::string::npos)
      << alone.err;
}

// A new flight's change is marked on its plot, named where it falls.
TEST_F(RunReports, AQuenchsPlotMarksTheChange) {
  const Result first = run({"run", "--backend", "cpu", "--model", "vicsek", "--count", "300",
                            "--steps", "40", "--checkpoint", path("c.bin")});
  ASSERT_EQ(first.code, 0) << first.err;
  const Result quench = run({"run", "--resume", path("c.bin"), "--new-flight", "--noise", "2.5",
                             "--steps", "80", "--plot", path("quench.svg")});
  if (plotting_unavailable(quench)) GTEST_SKIP() << quench.err;
  ASSERT_EQ(quench.code, 0) << quench.err;
  EXPECT_NE(read_file(path("quench.svg")).find("noise"), std::string::npos)
      << "the change is not named on the plot";
}

// A run longer than --progress seconds prints LAMMPS-like lines on stderr: a header, then the
// step (rising), the steps a second, the observables and the time left; stdout keeps its
// summary or JSON. --progress 0 prints none, and a run shorter than one interval none either.
TEST_F(RunReports, ALongRunSaysWhereItIsOnStderr) {
  const std::vector<std::string> flight = {"run",   "--backend", "cpu",       "--count",
                                           "30000", "--density", "0.012",     "--steps",
                                           "600",   "--json",    "--progress"};
  std::vector<std::string> lines_on = flight;
  lines_on.push_back("0.05");
  const Result r = run(lines_on);
  ASSERT_EQ(r.code, 0) << r.err;
  EXPECT_TRUE(nlohmann::json::accept(r.out)) << r.out;  // stdout: the JSON alone
  const std::vector<std::string> header = lines_with(r.err, "polarization");
  ASSERT_EQ(header.size(), 1u) << r.err;
  EXPECT_NE(header[0].find("steps/s"), std::string::npos);
  EXPECT_NE(header[0].find("left"), std::string::npos);
  std::istringstream in(r.err);
  std::string line;
  std::getline(in, line);  // the header
  long last = -1;
  int printed = 0;
  while (std::getline(in, line)) {
    std::istringstream fields(line);
    long step = 0;
    double rate = 0, polarization = -1;
    ASSERT_TRUE(fields >> step >> rate >> polarization) << line;
    EXPECT_GT(step, last);
    EXPECT_LT(step, 600);
    EXPECT_GE(polarization, 0.0);
    EXPECT_LE(polarization, 1.0);
    last = step;
    ++printed;
  }
  EXPECT_GE(printed, 1) << r.err;
  std::vector<std::string> silent = flight;
  silent.push_back("0");
  const Result quiet = run(silent);
  ASSERT_EQ(quiet.code, 0) << quiet.err;
  EXPECT_EQ(quiet.err, "");
  const Result short_run = run({"run", "--backend", "cpu", "--count", "300", "--steps", "50"});
  EXPECT_EQ(short_run.err, "");
  const Result bad = run({"run", "--progress", "-1"});
  EXPECT_EQ(bad.code, 2);
  EXPECT_NE(bad.err.find("--progress"), std::string::npos);
}

// A flight whose steps will take seconds says so before it starts, with its neighbours and
// what would make it fast; one that flies fast says nothing.
TEST_F(RunReports, ASlowFlightSaysSoBeforeItStarts) {
  const Result slow =
      run({"run", "--backend", "reference", "--count", "30000", "--steps", "0", "--json"});
  ASSERT_EQ(slow.code, 0) << slow.err;
  EXPECT_NE(slow.err.find("boids: 30000 boids at 3 a unit area have about 942 neighbours each"),
            std::string::npos)
      << slow.err;
  EXPECT_NE(slow.err.find("s a step on 1 thread here (the reference visits every pair"),
            std::string::npos)
      << slow.err;
  EXPECT_TRUE(nlohmann::json::accept(slow.out));  // stdout: the JSON alone
  const Result fine = run({"run", "--backend", "cpu", "--count", "30000", "--steps", "0"});
  ASSERT_EQ(fine.code, 0) << fine.err;
  EXPECT_EQ(fine.err, "");
}

// A million boids in the published model's world (a user's first --count) are judged before
// they are drawn: 31,416 neighbours each, and the density that keeps the example's.
TEST(FlightCost, AMillionInThePublishedWorldIsJudgedSlow) {
  boids::SimulationConfig config;
  config.params = boids::model_defaults(boids::Model::kBoids, 120);
  const boids::FlightCost cost = boids::flight_cost(config, 1000000);
  EXPECT_NEAR(cost.neighbors, 31415.9, 0.1);
  EXPECT_GT(cost.step_seconds, 2.0);
  const std::string said = boids::slow_flight_warning(config, 1000000);
  EXPECT_NE(said.find("(--density 0.012 keeps the boids model's example density)"),
            std::string::npos)
      << said;
  EXPECT_EQ(boids::slow_flight_warning(config, 120), "");  // the published example
  config.params.world.width = config.params.world.height = 10 * std::sqrt(1e6 / 1.2);
  EXPECT_NEAR(boids::flight_cost(config, 1000000).neighbors, 3.77, 0.01);
  EXPECT_EQ(boids::slow_flight_warning(config, 1000000), "");
}

}  // namespace
