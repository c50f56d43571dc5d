// `boids run --trajectory`: bad options refused before anything runs (exit 2, one error line,
// no file created), and the frames' steps. The file's contents: trajectory_check.py.
#include <gtest/gtest.h>
#include <hdf5.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <set>
#include <string>
#include <vector>

#include "tests/cli_fixture.h"

namespace {

namespace fs = std::filesystem;

using boids::test_support::Result;

class TrajectoryCli : public boids::test_support::CliFixture {
 protected:
  // `boids run --backend cpu args...` in the test's directory.
  Result run_cpu(std::vector<std::string> args) const {
    args.insert(args.begin(), {"run", "--backend", "cpu"});
    return run(args);
  }
};

TEST_F(TrajectoryCli, BadOptionsAreRefusedAndCreateNothing) {
  const std::vector<std::pair<std::vector<std::string>, std::string>> cases = {
      {{"--trajectory", "run.csv"}, "--trajectory: expected a file name ending in .h5 or .h5md"},
      {{"--trajectory", ".h5"}, "--trajectory: expected a file name ending in .h5 or .h5md"},
      {{"--trajectory", ""}, "--trajectory: expected a file name"},
      {{"--trajectory-every", "5"}, "--trajectory-every needs --trajectory FILE"},
      {{"--trajectory", "t.h5", "--trajectory-every", "0"}, "--trajectory-every"},
      {{"--trajectory", "t.h5", "--trajectory-every", "x"}, "--trajectory-every"},
      {{"--trajectory", "no/such/dir/t.h5"}, "--trajectory: cannot write 'no/such/dir/t.h5'"},
      {{"--trajectory", "t.h5", "--save", "t.h5"}, "--save and --trajectory name the same file"},
      {{"--trajectory", "t.h5", "--count", "0"}, "--count"},
  };
  for (const auto& [args, message] : cases) {
    std::string line;
    for (const std::string& a : args) line += " '" + a + "'";
    SCOPED_TRACE("boids run" + line);
    const Result r = run_cpu(args);
    EXPECT_EQ(r.code, 2) << r.err;
    EXPECT_EQ(r.err.rfind("boids: error: " + message, 0), 0u) << r.err;
    EXPECT_EQ(std::count(r.err.begin(), r.err.end(), '\n'), 1) << r.err;
    EXPECT_TRUE(entries().empty());
  }
}

TEST_F(TrajectoryCli, AnExistingFileIsKeptWhenTheRunIsRefused) {
  { std::ofstream(dir_ / "t.h5") << "earlier"; }
  const Result r = run_cpu({"--trajectory", "t.h5", "--model", "vicsek", "--cohesion", "2"});
  EXPECT_EQ(r.code, 2) << r.err;
  EXPECT_EQ(entries(), std::set<std::string>{"t.h5"});
  std::ifstream in(dir_ / "t.h5");
  std::string text;
  std::getline(in, text);
  EXPECT_EQ(text, "earlier");
}

std::vector<long long> steps_in(const std::string& path) {
  const hid_t file = H5Fopen(path.c_str(), H5F_ACC_RDONLY, H5P_DEFAULT);
  if (file < 0) return {};
  const hid_t d = H5Dopen2(file, "/particles/flock/position/step", H5P_DEFAULT);
  const hid_t space = H5Dget_space(d);
  std::vector<long long> steps(static_cast<std::size_t>(H5Sget_simple_extent_npoints(space)));
  H5Dread(d, H5T_NATIVE_LLONG, H5S_ALL, H5S_ALL, H5P_DEFAULT, steps.data());
  H5Sclose(space);
  H5Dclose(d);
  H5Fclose(file);
  return steps;
}

TEST_F(TrajectoryCli, FramesAtTheStartEveryKStepsAndTheEnd) {
  const std::string file = (dir_ / "t.h5").string();
  ASSERT_EQ(run_cpu({"--count", "50", "--steps", "10", "--trajectory", "t.h5"}).code, 0);
  EXPECT_EQ(steps_in(file), (std::vector<long long>{0, 10}));
  ASSERT_EQ(run_cpu({"--count", "50", "--steps", "10", "--trajectory", "t.h5", "--trajectory-every",
                     "4", "--metrics", "m.csv", "--metrics-every", "3"})
                .code,
            0);
  EXPECT_EQ(steps_in(file), (std::vector<long long>{0, 4, 8, 10}));
  ASSERT_EQ(run_cpu({"--count", "50", "--steps", "0", "--trajectory", "t.h5"}).code, 0);
  EXPECT_EQ(steps_in(file), (std::vector<long long>{0}));
  ASSERT_EQ(
      run_cpu({"--count", "50", "--steps", "6", "--trajectory", "t.h5", "--trajectory-every", "2"})
          .code,
      0);
  EXPECT_EQ(steps_in(file), (std::vector<long long>{0, 2, 4, 6}));
  EXPECT_EQ(entries(), (std::set<std::string>{"m.csv", "t.h5"}));
}

}  // namespace
