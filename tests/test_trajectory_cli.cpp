// `boids run --trajectory`: bad options refused before anything runs (exit 2, one error line,
// no file created), and the frames' steps. The file's contents: trajectory_check.py.
#include <fcntl.h>
#include <gtest/gtest.h>
#include <hdf5.h>
#include <sys/wait.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "tests/test_support.h"

namespace {

namespace fs = std::filesystem;

struct Result {
  int code = -1;
  std::string err;
};

class TrajectoryCli : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = fs::temp_directory_path() /
           ("boids_trajectory_cli_" + std::to_string(getpid()) + "_" +
            ::testing::UnitTest::GetInstance()->current_test_info()->name());
    fs::remove_all(dir_);
    fs::create_directories(dir_);
  }
  void TearDown() override { fs::remove_all(dir_); }

  std::vector<std::string> entries() const {
    std::vector<std::string> names;
    for (const auto& e : fs::directory_iterator(dir_)) names.push_back(e.path().filename());
    std::sort(names.begin(), names.end());
    return names;
  }

  // `boids run --backend cpu args...` in the test's directory; stdout is dropped.
  Result run(std::vector<std::string> args) const {
    args.insert(args.begin(), {boids::test_support::boids_executable(), "run", "--backend", "cpu"});
    const std::string err_path = dir_.string() + ".err";
    const pid_t pid = fork();
    if (pid == 0) {
      const int out = open("/dev/null", O_WRONLY);
      const int err = open(err_path.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
      if (out < 0 || err < 0 || chdir(dir_.c_str()) != 0) _exit(126);
      dup2(out, 1);
      dup2(err, 2);
      std::vector<char*> argv;
      for (std::string& a : args) argv.push_back(a.data());
      argv.push_back(nullptr);
      execv(argv[0], argv.data());
      _exit(127);
    }
    int status = 0;
    waitpid(pid, &status, 0);
    Result r;
    r.code = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
    std::ifstream in(err_path);
    std::ostringstream text;
    text << in.rdbuf();
    r.err = text.str();
    fs::remove(err_path);
    return r;
  }

  fs::path dir_;
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
    const Result r = run(args);
    EXPECT_EQ(r.code, 2) << r.err;
    EXPECT_EQ(r.err.rfind("boids: error: " + message, 0), 0u) << r.err;
    EXPECT_EQ(std::count(r.err.begin(), r.err.end(), '\n'), 1) << r.err;
    EXPECT_TRUE(entries().empty());
  }
}

TEST_F(TrajectoryCli, AnExistingFileIsKeptWhenTheRunIsRefused) {
  { std::ofstream(dir_ / "t.h5") << "earlier"; }
  const Result r = run({"--trajectory", "t.h5", "--model", "vicsek", "--cohesion", "2"});
  EXPECT_EQ(r.code, 2) << r.err;
  EXPECT_EQ(entries(), std::vector<std::string>{"t.h5"});
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
  ASSERT_EQ(run({"--count", "50", "--steps", "10", "--trajectory", "t.h5"}).code, 0);
  EXPECT_EQ(steps_in(file), (std::vector<long long>{0, 10}));
  ASSERT_EQ(run({"--count", "50", "--steps", "10", "--trajectory", "t.h5", "--trajectory-every",
                 "4", "--metrics", "m.csv", "--metrics-every", "3"})
                .code,
            0);
  EXPECT_EQ(steps_in(file), (std::vector<long long>{0, 4, 8, 10}));
  ASSERT_EQ(run({"--count", "50", "--steps", "0", "--trajectory", "t.h5"}).code, 0);
  EXPECT_EQ(steps_in(file), (std::vector<long long>{0}));
  ASSERT_EQ(
      run({"--count", "50", "--steps", "6", "--trajectory", "t.h5", "--trajectory-every", "2"})
          .code,
      0);
  EXPECT_EQ(steps_in(file), (std::vector<long long>{0, 2, 4, 6}));
  EXPECT_EQ(entries(), (std::vector<std::string>{"m.csv", "t.h5"}));
}

}  // namespace
