// Outputs that lose nothing: the files of one command are checked before any work, written
// whole, committed together, and a failure leaves every file the user had as it was.
#include <fcntl.h>
#include <gtest/gtest.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <set>
#include <string>
#include <vector>

#include "host/base/errors.h"
#include "host/io/output_file.h"
#include "tests/support/cli_fixture.h"

namespace {

namespace fs = std::filesystem;
using boids::InputError;
using boids::OutputFiles;
using boids::RuntimeError;
using boids::test_support::read_file;
using boids::test_support::Result;
using boids::test_support::write_file;

class Outputs : public boids::test_support::CliFixture {
 protected:
  // Expects `add` to refuse `path` with an InputError naming `option` and `words`.
  void expect_refused(const std::string& path, const std::string& words) const {
    OutputFiles files;
    try {
      files.add("--save", path);
      ADD_FAILURE() << "accepted '" << path << "'";
    } catch (const InputError& e) {
      const std::string message = e.what();
      EXPECT_EQ(message.rfind("--save: ", 0), 0u) << message;
      EXPECT_NE(message.find(words), std::string::npos) << message;
    }
  }

  // Runs `boids args...` with files limited to `bytes`, as on a disk that fills up (boids
  // ignores SIGXFSZ, so that its writes fail with EFBIG).
  Result run_on_small_disk(const std::vector<std::string>& args, rlim_t bytes) const {
    struct rlimit old;
    getrlimit(RLIMIT_FSIZE, &old);
    struct rlimit small = old;
    small.rlim_cur = bytes;
    setrlimit(RLIMIT_FSIZE, &small);  // inherited by the child
    const Result r = run(args);
    setrlimit(RLIMIT_FSIZE, &old);
    return r;
  }

  std::string bench() const {
    const std::string boids = boids::test_support::boids_executable();
    return boids.substr(0, boids.find_last_of('/') + 1) + "boids-bench";
  }
};

TEST_F(Outputs, PathsThatCannotBeWrittenAreRefusedWhenAdded) {
  write_file(path("file"), "a regular file\n");
  fs::create_directories(path("dir"));
  expect_refused("", "the file name is empty");
  expect_refused(path("dir"), "is a directory");
  expect_refused(path("missing/x.csv"), "does not exist");
  expect_refused(path("file/x.csv"), "'" + path("file") + "' is not a directory");
  expect_refused(path("file/deeper/x.csv"), "'" + path("file") + "' is not a directory");
  expect_refused(path(std::string(256, 'n')), "too long");
  expect_refused("/proc/boids.csv", "cannot create a file in '/proc'");
  fs::create_symlink(path("nowhere.csv"), path("dangling.csv"));
  expect_refused(path("dangling.csv"), "symbolic link");
  EXPECT_EQ(entries(), (std::set<std::string>{"file", "dir", "dangling.csv"}));
}

TEST_F(Outputs, TwoSpellingsOfOneFileAreOneFile) {
  write_file(path("old.csv"), "old\n");
  fs::create_symlink(path("old.csv"), path("link.csv"));
  fs::create_hard_link(path("old.csv"), path("hard.csv"));
  const std::vector<std::pair<std::string, std::string>> same = {
      {path("new.csv"), dir_.string() + "/./new.csv"},
      {path("new.csv"), path("dir/../new.csv")},
      {path("old.csv"), path("link.csv")},
      {path("old.csv"), path("hard.csv")},
  };
  fs::create_directories(path("dir"));
  for (const auto& [a, b] : same) {
    SCOPED_TRACE(a + " and " + b);
    OutputFiles files;
    files.add("--save", a);
    try {
      files.add("--metrics", b);
      ADD_FAILURE() << "two outputs to one file";
    } catch (const InputError& e) {
      EXPECT_NE(std::string(e.what()).find("--save and --metrics name the same file"),
                std::string::npos)
          << e.what();
    }
  }
  // Two special files may be one: both go to a FIFO.
  ASSERT_EQ(mkfifo(path("pipe").c_str(), 0644), 0);
  OutputFiles files;
  files.add("--save", path("pipe"));
  files.add("--metrics", path("pipe"));
}

TEST_F(Outputs, NothingChangesUntilCommitAndOnlyOwnTemporariesAreRemoved) {
  write_file(path("a.csv"), "old a\n");
  // A user's file that looks like a temporary one is not ours to remove.
  write_file(path(".a.csv.tmp-XXXXXX"), "the user's\n");
  const std::set<std::string> before = entries();
  {
    OutputFiles files;
    files.add("--save", path("a.csv"));
    files.add("--metrics", path("b.csv"));
    EXPECT_EQ(entries().size(), before.size() + 2);  // the two temporary files
    files.write("--save", "new a\n");
    EXPECT_EQ(read_file(path("a.csv")), "old a\n");
  }  // not committed
  EXPECT_EQ(entries(), before);
  EXPECT_EQ(read_file(path("a.csv")), "old a\n");
  EXPECT_EQ(read_file(path(".a.csv.tmp-XXXXXX")), "the user's\n");
}

TEST_F(Outputs, CommitReplacesFilesKeepingModesAndLinks) {
  write_file(path("target.csv"), "old\n");
  chmod(path("target.csv").c_str(), 0600);
  fs::create_symlink("target.csv", path("link.csv"));
  OutputFiles files;
  files.add("--save", path("link.csv"));
  files.add("--metrics", path("new.csv"));
  files.write("--save", "saved\n");
  files.write("--metrics", "metrics\n");
  files.commit();
  EXPECT_TRUE(fs::is_symlink(path("link.csv")));
  EXPECT_EQ(read_file(path("target.csv")), "saved\n");
  EXPECT_EQ(read_file(path("new.csv")), "metrics\n");
  struct stat info;
  ASSERT_EQ(stat(path("target.csv").c_str(), &info), 0);
  EXPECT_EQ(info.st_mode & 0777, 0600u);
  EXPECT_EQ(entries(), (std::set<std::string>{"target.csv", "link.csv", "new.csv"}));
}

// A FIFO and a device of the test's own (the null device's numbers, where the test may make
// one), so that a fault replaces nothing outside the test's directory.
TEST_F(Outputs, SpecialFilesAreWrittenNotReplaced) {
  const std::string fifo = path("fifo"), device = path("null");
  ASSERT_EQ(mkfifo(fifo.c_str(), 0644), 0);
  const bool has_device = mknod(device.c_str(), S_IFCHR | 0666, makedev(1, 3)) == 0;
  // Opened before the run, without waiting for a writer: a FIFO that was replaced reads empty
  // instead of leaving the test waiting.
  const int reader = open(fifo.c_str(), O_RDONLY | O_NONBLOCK);
  ASSERT_GE(reader, 0);
  {
    OutputFiles files;
    files.add("--save", fifo);
    if (has_device) files.add("--metrics", device);
    files.write("--save", "through the pipe\n");
    if (has_device) files.write("--metrics", "into nothing\n");
    files.commit();
  }
  char buffer[64];
  const ssize_t got = read(reader, buffer, sizeof buffer);
  close(reader);
  EXPECT_EQ(std::string(buffer, got > 0 ? static_cast<std::size_t>(got) : 0), "through the pipe\n");
  struct stat info;
  ASSERT_EQ(stat(fifo.c_str(), &info), 0);
  EXPECT_TRUE(S_ISFIFO(info.st_mode));
  if (has_device) {
    ASSERT_EQ(stat(device.c_str(), &info), 0);
    EXPECT_TRUE(S_ISCHR(info.st_mode));
  }
  const std::set<std::string> made =
      has_device ? std::set<std::string>{"fifo", "null"} : std::set<std::string>{"fifo"};
  EXPECT_EQ(entries(), made);
}

// An HDF5 file is written in place, frame by frame: a FIFO or device is refused, not replaced.
TEST_F(Outputs, ATrajectoryGoesToARegularFileOnly) {
  ASSERT_EQ(mkfifo(path("t.h5").c_str(), 0644), 0);
  expect_bad({"--trajectory", path("t.h5")}, {"--trajectory", "not a regular file"});
  struct stat info;
  ASSERT_EQ(stat(path("t.h5").c_str(), &info), 0);
  EXPECT_TRUE(S_ISFIFO(info.st_mode));
  EXPECT_EQ(entries(), (std::set<std::string>{"t.h5"}));
}

TEST_F(Outputs, ARunThatFailsLateLeavesEveryFileAsItWas) {
  const Result first =
      run({"run", "--backend", "cpu", "--count", "20", "--steps", "3", "--save", path("k.csv")});
  ASSERT_EQ(first.code, 0) << first.err;
  const std::string saved = read_file(path("k.csv"));
  // The state (about 1.6 kB) fits; the metrics series (about 240 kB) does not.
  const Result r = run_on_small_disk(
      {"run", "--backend", "cpu", "--init", path("k.csv"), "--save", path("k.csv"), "--steps",
       "3000", "--metrics", path("m.csv"), "--metrics-every", "1"},
      64 * 1024);
  EXPECT_EQ(r.code, 1) << r.err;
  EXPECT_NE(r.err.find("boids: error: cannot write '" + path("m.csv") + "'"), std::string::npos)
      << r.err;
  EXPECT_EQ(read_file(path("k.csv")), saved);
  EXPECT_EQ(entries(), (std::set<std::string>{"k.csv", "k.csv.json"}));  // the first run's
}

TEST_F(Outputs, OutputsAreCheckedBeforeAnyStep) {
  write_file(path("k.csv"), "x,y,vx,vy\n1,2,0.5,0.5\n3,4,0.5,0.5\n");
  const std::string kept = read_file(path("k.csv"));
  // A billion steps would not end: the refusal comes first.
  const std::vector<std::string> unwritable = {path(std::string(256, 'm') + ".csv"), "/proc/m.csv",
                                               path("k.csv/m.csv"), path("none/m.csv")};
  for (const std::string& metrics : unwritable) {
    expect_bad({"--init", path("k.csv"), "--save", path("k.csv"), "--steps", "1000000000",
                "--metrics", metrics},
               {"--metrics"});
  }
  expect_bad({"--save", "./a.csv", "--metrics", "a.csv"},
             {"--save and --metrics name the same file"});
  expect_bad({"--save", path("a.csv"), "--plot", path("a.jpg")}, {"--plot", ".png"});
  EXPECT_EQ(read_file(path("k.csv")), kept);
  EXPECT_EQ(entries(), (std::set<std::string>{"k.csv"}));
}

TEST_F(Outputs, AFullStandardOutputFailsTheCommand) {
  const std::vector<std::vector<std::string>> commands = {
      {"run", "--backend", "cpu", "--count", "10", "--steps", "1"},
      {"run", "--backend", "cpu", "--count", "10", "--steps", "1", "--json"},
      {"run", "--help"},
      {"info"},
      {"--help"},
  };
  for (const auto& args : commands) {
    SCOPED_TRACE(args.back());
    const Result r = run(args, "/dev/full");
    EXPECT_EQ(r.code, 1) << r.err;
    EXPECT_NE(r.err.find("boids: error: cannot write to standard output"), std::string::npos)
        << r.err;
  }
}

TEST_F(Outputs, BenchOutputsAreCommittedTogether) {
  if (access(bench().c_str(), X_OK) != 0) GTEST_SKIP() << "boids-bench is not built";
  write_file(path("rows.csv"), "old rows\n");
  const std::vector<std::string> quick = {"--counts",     "64",     "--methods",  "naive",
                                          "--precisions", "double", "--states",   "random",
                                          "--repeats",    "1",      "--min-time", "0.001"};
  const auto bench_with = [&](const std::vector<std::string>& more) {
    std::vector<std::string> args = quick;
    args.insert(args.end(), more.begin(), more.end());
    return run_program(bench(), args);
  };
  const Result empty = bench_with({"--csv", ""});
  EXPECT_EQ(empty.code, 2);
  EXPECT_NE(empty.err.find("--csv: the file name is empty"), std::string::npos) << empty.err;
  const Result same =
      bench_with({"--csv", path("rows.csv"), "--json", dir_.string() + "/./rows.csv"});
  EXPECT_EQ(same.code, 2);
  EXPECT_NE(same.err.find("name the same file"), std::string::npos) << same.err;
  const Result unwritable = bench_with({"--csv", path("rows.csv"), "--json", "/proc/rows.json"});
  EXPECT_EQ(unwritable.code, 2);
  EXPECT_NE(unwritable.err.find("--json"), std::string::npos) << unwritable.err;
  EXPECT_EQ(read_file(path("rows.csv")), "old rows\n");
  EXPECT_EQ(entries(), (std::set<std::string>{"rows.csv"}));

  const Result both = bench_with({"--csv", path("rows.csv"), "--json", path("rows.json")});
  ASSERT_EQ(both.code, 0) << both.err;
  EXPECT_NE(read_file(path("rows.csv")), "old rows\n");
  EXPECT_EQ(entries(), (std::set<std::string>{"rows.csv", "rows.json"}));
}

}  // namespace
