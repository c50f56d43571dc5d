// A sweep's CSV file, the one output written as the command goes: checked before any work,
// never started over a file with rows unless asked, locked against a second sweep, read back
// under --resume only as a regular file whose every row is parsed and checked; and the grid of
// --param values, exact and without repeats.
#include <gtest/gtest.h>

#include <fcntl.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include <filesystem>
#include <nlohmann/json.hpp>
#include <set>
#include <sstream>
#include <thread>

#include "tests/support/cli_fixture.h"

namespace {

using boids::test_support::read_file;
using boids::test_support::Result;
using boids::test_support::write_file;

class SweepCsv : public boids::test_support::CliFixture {
 protected:
  // A small Vicsek sweep: two values of the noise, two replicas, four samples.
  std::vector<std::string> sweep(std::vector<std::string> extra) const {
    std::vector<std::string> args = {"sweep",   "--model",    "vicsek",  "--density", "4",
                                     "--count", "30",         "--steps", "20",        "--every",
                                     "5",       "--replicas", "2",       "--backend", "cpu"};
    args.insert(args.end(), extra.begin(), extra.end());
    return args;
  }
  std::vector<std::string> two_points(const std::string& csv, std::vector<std::string> extra = {}) {
    std::vector<std::string> args = sweep({"--param", "noise=0.5,1.5", "--csv", csv});
    args.insert(args.end(), extra.begin(), extra.end());
    return args;
  }
  void expect_refused(const std::vector<std::string>& args, const std::string& message) const {
    const Result r = run(args);
    EXPECT_EQ(r.code, 2) << r.err;
    EXPECT_NE(r.err.find("boids: error: " + message), std::string::npos) << r.err;
    EXPECT_EQ(std::count(r.err.begin(), r.err.end(), '\n'), 1) << r.err;
  }
  std::vector<std::string> lines_of(const std::string& file) const {
    std::vector<std::string> lines;
    std::stringstream in(read_file(file));
    for (std::string line; std::getline(in, line);) lines.push_back(line);
    return lines;
  }
  // A finished two-point sweep's file.
  std::string finished(const std::string& name) {
    const std::string csv = path(name);
    const Result r = run(two_points(csv));
    EXPECT_EQ(r.code, 0) << r.err;
    return csv;
  }
};

// A new sweep over a file with rows would lose them: refused unless --resume or --overwrite.
TEST_F(SweepCsv, ANewSweepDoesNotStartOverAFileWithRows) {
  const std::string csv = finished("done.csv");
  const std::string before = read_file(csv);
  expect_refused(two_points(csv),
                 "--csv: '" + csv + "' already holds " + std::to_string(before.size()) +
                     " bytes: give --resume to continue the sweep it holds, or --overwrite");
  EXPECT_EQ(read_file(csv), before);
  expect_refused(two_points(csv, {"--resume", "--overwrite"}), "--resume and --overwrite");
  const Result again = run(two_points(csv, {"--overwrite"}));
  ASSERT_EQ(again.code, 0) << again.err;
  EXPECT_EQ(lines_of(csv).size(), 3u);
  write_file(csv, "");  // an empty file holds nothing to lose
  EXPECT_EQ(run(two_points(csv)).code, 0);
}

// A sweep holds its file's lock while it writes: a second writer is refused, and the file is
// left as it was.
TEST_F(SweepCsv, ASecondWriterIsRefused) {
  const std::string csv = finished("locked.csv");
  const std::string before = read_file(csv);
  const int fd = open(csv.c_str(), O_RDONLY);
  ASSERT_GE(fd, 0);
  ASSERT_EQ(flock(fd, LOCK_EX | LOCK_NB), 0);
  for (const char* how : {"--resume", "--overwrite"}) {
    expect_refused(two_points(csv, {how}),
                   "--csv: '" + csv + "' is being written by another sweep");
  }
  close(fd);
  EXPECT_EQ(read_file(csv), before);
}

// A file that exists but cannot be read is refused for --resume, not taken as empty and
// truncated. Run as an unprivileged user where the test runs as root (root reads anything).
TEST_F(SweepCsv, AFileThatCannotBeReadIsNotResumed) {
  const std::string csv = finished("unreadable.csv");
  const std::string before = read_file(csv);
  std::filesystem::permissions(dir_, std::filesystem::perms::all);
  ASSERT_EQ(chmod(csv.c_str(), 0222), 0);
  std::vector<std::string> args = two_points(csv, {"--resume"});
  Result r;
  if (geteuid() == 0) {
    if (access("/usr/bin/setpriv", X_OK) != 0) GTEST_SKIP() << "running as root without setpriv";
    args.insert(args.begin(), {"--reuid=65534", "--regid=65534", "--clear-groups",
                               boids::test_support::boids_executable()});
    r = run_program("/usr/bin/setpriv", args);
  } else {
    r = run(args);
  }
  EXPECT_EQ(r.code, 2) << r.err;
  EXPECT_NE(r.err.find("--resume: cannot read '" + csv + "': Permission denied"), std::string::npos)
      << r.err;
  ASSERT_EQ(chmod(csv.c_str(), 0644), 0);
  EXPECT_EQ(read_file(csv), before);
}

// Every kept row is parsed as numbers and matched to the grid by its values' numbers; what does
// not belong is refused by file, line and field, and the file is left as it was.
TEST_F(SweepCsv, ResumeChecksEveryRow) {
  const std::string csv = finished("rows.csv");
  const std::vector<std::string> lines = lines_of(csv);
  ASSERT_EQ(lines.size(), 3u);
  const auto refused = [&](const std::string& text, const std::string& message) {
    write_file(csv, text);
    expect_refused(two_points(csv, {"--resume"}), "--resume: '" + csv + "'" + message);
    EXPECT_EQ(read_file(csv), text);
  };
  // The rows in the order the points finished (side by side on threads): by their values here.
  const bool first_is_low = lines[1].rfind("0.5,", 0) == 0;
  const std::string header = lines[0] + "\n";
  const std::string row1 = lines[first_is_low ? 1 : 2] + "\n";  // noise=0.5
  const std::string row2 = lines[first_is_low ? 2 : 1] + "\n";  // noise=1.5
  ASSERT_EQ(row1.rfind("0.5,", 0), 0u) << row1;
  ASSERT_EQ(row2.rfind("1.5,", 0), 0u) << row2;
  // polarization (the fifth column) is not a number
  std::string bad = row1;
  const std::size_t at = [&] {
    std::size_t p = 0;
    for (int k = 0; k < 4; ++k) p = bad.find(',', p) + 1;
    return p;
  }();
  bad.replace(at, bad.find(',', at) - at, "abc");
  refused(header + bad, ", line 2: polarization is 'abc', not a number");
  refused(header + "0.7" + row1.substr(row1.find(',')),
          ", line 2: its point (noise=0.7) is not on this sweep's grid");
  refused(header + row1 + row2 + row1, ", line 4: its point (noise=0.5) is held by line 2 too");
  refused(header + row1.substr(0, row1.size() - 1) + "\r\n",
          ", line 2: it ends in a carriage return (Windows line endings)");
  refused("noise,count,boids\n", " is not this sweep's (its column 2 is 'count', not 'boids')");
  std::string crlf_header = header;
  crlf_header.insert(crlf_header.size() - 1, "\r");
  refused(crlf_header, ", line 1: it ends in a carriage return");
  // The same point spelled otherwise is the same point: kept, not flown again.
  write_file(csv, header + "0.50" + row1.substr(row1.find(',')) + row2);
  const Result r = run(two_points(csv, {"--resume", "--json"}));
  ASSERT_EQ(r.code, 0) << r.err;
  EXPECT_EQ(lines_of(csv).size(), 3u);
}

// A resumed sweep reports every point of its grid, those it kept too.
TEST_F(SweepCsv, EveryPointIsReportedKeptOrFlown) {
  const std::string csv = path("report.csv");
  const Result first = run(sweep({"--param", "noise=0.5", "--csv", csv, "--json"}));
  ASSERT_EQ(first.code, 0) << first.err;
  const Result both = run(two_points(csv, {"--resume", "--json"}));
  ASSERT_EQ(both.code, 0) << both.err;
  const auto json = nlohmann::json::parse(both.out)["points"];
  ASSERT_EQ(json.size(), 2u);
  EXPECT_TRUE(json[0]["kept"].get<bool>());
  EXPECT_FALSE(json[1]["kept"].get<bool>());
  EXPECT_EQ(json[0]["polarization"], nlohmann::json::parse(first.out)["points"][0]["polarization"]);
  const Result table = run(two_points(csv, {"--resume"}));
  ASSERT_EQ(table.code, 0) << table.err;
  EXPECT_NE(table.out.find("0.5 "), std::string::npos) << table.out;
  EXPECT_NE(table.out.find("1.5 "), std::string::npos) << table.out;
  EXPECT_NE(table.out.find("2 of 2 points kept"), std::string::npos) << table.out;
}

// The file is checked as every output is, before any point flies.
TEST_F(SweepCsv, TheFileIsCheckedBeforeAnyWork) {
  write_file(path("plain"), "x");
  expect_refused(two_points(path("missing/s.csv")),
                 "--csv: cannot write '" + path("missing/s.csv") + "': directory");
  expect_refused(two_points(path("plain/s.csv")), "--csv: cannot write '" + path("plain/s.csv") +
                                                      "': '" + path("plain") +
                                                      "' is not a directory");
  expect_refused(two_points("/proc/s.csv"), "--csv: cannot create a file in '/proc'");
  expect_refused(two_points(path("s.png"), {"--plot", path("./s.png")}),
                 "--csv and --plot name the same file");
  EXPECT_FALSE(std::filesystem::exists(path("s.png")));
}

// Devices and FIFOs are written as they come and never read back.
TEST_F(SweepCsv, DevicesAndFifosAreWrittenNeverRead) {
  const Result null = run(two_points("/dev/null"));
  EXPECT_EQ(null.code, 0) << null.err;
  const std::string fifo = path("fifo");
  ASSERT_EQ(mkfifo(fifo.c_str(), 0644), 0);
  expect_refused(two_points(fifo, {"--resume"}), "--resume: '" + fifo + "' is not a regular file");
  std::string received;
  std::thread reader([&] { received = read_file(fifo); });
  const Result r = run(two_points(fifo));
  reader.join();
  EXPECT_EQ(r.code, 0) << r.err;
  EXPECT_EQ(std::count(received.begin(), received.end(), '\n'), 3) << received;
}

// --param's values are numbers, each once; a range's values are exact however fine its step,
// and refused when the step is too fine for them to differ; the grid is bounded.
TEST_F(SweepCsv, ParameterValuesAreExactAndDistinct) {
  const auto bad = [&](const std::string& param, const std::string& message) {
    expect_refused(sweep({"--param", param}), message);
  };
  bad("noise=0.5,1,0.50", "--param noise: the value '0.50' is given twice (as '0.5')");
  bad("noise=1,1", "--param noise: the value '1' is given twice");
  bad("noise=1,", "--param noise: an empty value in '1,'");
  bad("noise=,1", "--param noise: an empty value in ',1'");
  bad("noise=1:1.0000000000000002:1e-17",
      "--param noise: the step is too small for the range's values to differ");
  bad("noise=a", "--param noise: expected a number, got 'a'");
  expect_refused(sweep({"--param", "noise=0:5:0.001", "--param", "speed=0.001:0.1:0.001"}),
                 "--param: the grid has more than 100000 points (5001 x 100 values)");
  // 101 values a hundredth of a millionth apart: each its own point.
  const Result r =
      run({"sweep", "--model", "vicsek", "--count", "20", "--steps", "1", "--every", "1",
           "--replicas", "1", "--backend", "cpu", "--param", "noise=1:1.000001:1e-8", "--json"});
  ASSERT_EQ(r.code, 0) << r.err;
  std::set<double> noises;
  const auto report = nlohmann::json::parse(r.out);
  for (const auto& row : report["points"]) {
    noises.insert(row["noise"].get<double>());
  }
  EXPECT_EQ(noises.size(), 101u);
  EXPECT_EQ(noises.count(1.00000001), 1u);  // as people write it, not 1.0000000099999999
}

}  // namespace
