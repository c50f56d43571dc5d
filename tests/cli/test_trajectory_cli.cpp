// `boids run --trajectory`: bad options refused before anything runs (exit 2, one error line,
// no file created), and the frames' steps. The file's contents: trajectory_check.py.
#include <gtest/gtest.h>
#include <hdf5.h>

#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <set>
#include <string>
#include <vector>

#include "host/io/trajectory_reader.h"
#include "tests/support/cli_fixture.h"

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

// Dataset `name` of a trajectory, read as `type` (T in memory); `shape` receives its dimensions.
template <typename T>
std::vector<T> dataset_in(const std::string& path, const char* name, hid_t type,
                          std::vector<hsize_t>& shape) {
  const hid_t file = H5Fopen(path.c_str(), H5F_ACC_RDONLY, H5P_DEFAULT);
  if (file < 0) return {};
  const hid_t d = H5Dopen2(file, name, H5P_DEFAULT);
  const hid_t space = H5Dget_space(d);
  shape.assign(static_cast<std::size_t>(H5Sget_simple_extent_ndims(space)), 0);
  H5Sget_simple_extent_dims(space, shape.data(), nullptr);
  std::vector<T> values(static_cast<std::size_t>(H5Sget_simple_extent_npoints(space)));
  H5Dread(d, type, H5S_ALL, H5S_ALL, H5P_DEFAULT, values.data());
  H5Sclose(space);
  H5Dclose(d);
  H5Fclose(file);
  return values;
}

std::vector<long long> steps_in(const std::string& path) {
  std::vector<hsize_t> shape;
  return dataset_in<long long>(path, "/particles/flock/position/step", H5T_NATIVE_LLONG, shape);
}

// The positions and velocities of every frame of a trajectory: (frames, N, columns).
std::vector<double> series_in(const std::string& path, const char* name,
                              std::vector<hsize_t>& shape) {
  return dataset_in<double>(path, name, H5T_NATIVE_DOUBLE, shape);
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
  // The trajectory's XDMF, and the metrics' record.
  EXPECT_EQ(entries(), (std::set<std::string>{"m.csv", "m.csv.json", "t.h5", "t.xdmf"}));
}

// A flight of open space records where its boids flew, outside the start's region, and reads
// back as open space: its box says so, and its frames keep those positions.
TEST_F(TrajectoryCli, OpenSpaceRecordsWhereTheBoidsFlew) {
  ASSERT_EQ(run_cpu({"--boundary", "open", "--count", "200", "--world", "30", "--steps", "150",
                     "--trajectory", "t.h5", "--trajectory-every", "50", "--save", "s.csv"})
                .code,
            0);
  const boids::TrajectoryReader reader((dir_ / "t.h5").string());
  EXPECT_TRUE(reader.world().open());
  const boids::FlockState last = reader.frame(reader.frames() - 1);
  const auto outside =
      std::count_if(last.x.begin(), last.x.end(), [](double x) { return x < 0 || x >= 30; });
  EXPECT_GT(outside, 0);
}

// A flock in a box records (x, y, z) and (vx, vy, vz) rows, its box's three edges, and ends
// on the state --save writes.
TEST_F(TrajectoryCli, ABoxRecordsThreeColumns) {
  ASSERT_EQ(run_cpu({"--dimensions", "3", "--count", "300", "--world", "40,50,60", "--steps", "8",
                     "--trajectory", "t.h5", "--trajectory-every", "4", "--save", "s.csv"})
                .code,
            0);
  const std::string file = (dir_ / "t.h5").string();
  EXPECT_EQ(steps_in(file), (std::vector<long long>{0, 4, 8}));
  std::vector<hsize_t> shape, edges_shape;
  const std::vector<double> position = series_in(file, "/particles/flock/position/value", shape);
  EXPECT_EQ(shape, (std::vector<hsize_t>{3, 300, 3}));
  const std::vector<double> velocity = series_in(file, "/particles/flock/velocity/value", shape);
  EXPECT_EQ(shape, (std::vector<hsize_t>{3, 300, 3}));
  const std::vector<double> edges =
      series_in(file, "/particles/flock/box/edges/value", edges_shape);
  EXPECT_EQ(edges_shape, (std::vector<hsize_t>{3, 3, 3}));  // a 3 x 3 matrix a frame
  const std::vector<double> box = {40, 0, 0, 0, 50, 0, 0, 0, 60};
  EXPECT_EQ(std::vector<double>(edges.end() - 9, edges.end()), box);
  std::ifstream saved(dir_ / "s.csv");
  std::string line;
  std::getline(saved, line);
  EXPECT_EQ(line, "x,y,z,vx,vy,vz");
  for (std::size_t i = 0; i < 300 && std::getline(saved, line); ++i) {
    double v[6];
    ASSERT_EQ(
        std::sscanf(line.c_str(), "%lf,%lf,%lf,%lf,%lf,%lf", v, v + 1, v + 2, v + 3, v + 4, v + 5),
        6);
    const std::size_t last = 2 * 300 * 3 + 3 * i;  // frame 2, boid i
    for (int a = 0; a < 3; ++a) {
      EXPECT_EQ(position[last + a], v[a]) << "boid " << i;
      EXPECT_EQ(velocity[last + a], v[3 + a]) << "boid " << i;
    }
  }
}

}  // namespace
