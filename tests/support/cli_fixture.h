// Suites that run the tools as separate processes: each test gets its own directory, runs
// `boids` (or another tool) there with no shell, and reads the exit code, stdout, stderr and
// the files left behind.
#pragma once

#include <fcntl.h>
#include <gtest/gtest.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <csignal>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "tests/support/test_directory.h"
#include "tests/support/test_support.h"

namespace boids::test_support {

struct Result {
  int code = -1;
  std::string out, err;
};

// Whether a --plot failed only because the Python that boids runs has no matplotlib (a machine
// without scripts/install-deps's plot group, such as a GPU machine a build was carried to),
// which boids reports; said on the test's output, so a skip names its reason.
inline bool plotting_unavailable(const Result& r) {
  const bool missing = r.code != 0 && r.err.find("cannot import matplotlib") != std::string::npos;
  if (missing) std::cout << "no plot checked: " << r.err;
  return missing;
}

class CliFixture : public TestDirectory {
 protected:
  CliFixture() : TestDirectory("boids_cli") {}

  void TearDown() override {
    TestDirectory::TearDown();
    std::filesystem::remove(stem() + ".out");  // a started program's, when a test killed it
    std::filesystem::remove(stem() + ".err");
  }

  // Runs `boids args...` in the test's directory; stdout goes to `stdout_to` when given
  // (e.g. /dev/full), else it is captured like stderr.
  Result run(const std::vector<std::string>& args, const std::string& stdout_to = "") const {
    return run_program(boids_executable(), args, stdout_to);
  }

  // Starts `boids args...` in the test's directory and returns at once with its pid, for
  // tests that stop it themselves (kill, then waitpid); its output goes to files beside the
  // directory.
  pid_t start(const std::vector<std::string>& args) const {
    return spawn(boids_executable(), args, stem() + ".out", stem() + ".err");
  }

  Result run_program(std::string program, const std::vector<std::string>& args,
                     const std::string& stdout_to = "") const {
    const std::string out_path = stdout_to.empty() ? stem() + ".out" : stdout_to;
    const std::string err_path = stem() + ".err";
    const pid_t pid = spawn(program, args, out_path, err_path);
    Result r;
    int status = 0;
    if (pid < 0 || waitpid(pid, &status, 0) != pid) {
      ADD_FAILURE() << "cannot run " << program;
      return r;
    }
    r.code = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
    if (stdout_to.empty()) {
      r.out = read_file(out_path);
      std::filesystem::remove(out_path);
    }
    r.err = read_file(err_path);
    std::filesystem::remove(err_path);
    return r;
  }

  // `boids run args...` fails as bad input: exit 2, `boids: error: ` and `names` on stderr,
  // nothing on stdout.
  void expect_bad(std::vector<std::string> args, const std::vector<std::string>& names) const {
    bool has_backend = false;
    for (const std::string& a : args) has_backend |= a.rfind("--backend", 0) == 0;
    if (!has_backend) args.insert(args.begin(), {"--backend", "cpu"});
    args.insert(args.begin(), "run");
    std::string line;
    for (const std::string& a : args) line += " '" + a + "'";
    SCOPED_TRACE("boids" + line);
    const Result r = run(args);
    EXPECT_EQ(r.code, 2) << r.err;
    EXPECT_EQ(r.err.rfind("boids: error: ", 0), 0u) << r.err;
    for (const std::string& name : names) EXPECT_NE(r.err.find(name), std::string::npos) << r.err;
    EXPECT_EQ(r.out, "");
    EXPECT_EQ(std::count(r.err.begin(), r.err.end(), '\n'), 1) << r.err;
  }

  std::string stem() const { return (dir_.parent_path() / dir_.filename()).string(); }

  // Forks and execs `program args...` in the test's directory, stdin from /dev/null, stdout and
  // stderr into the files named; every signal at its default action, as from a shell, whatever
  // the test runner left ignored.
  pid_t spawn(std::string program, const std::vector<std::string>& args,
              const std::string& out_path, const std::string& err_path) const {
    std::vector<char*> argv;
    argv.push_back(program.data());
    std::vector<std::string> copies = args;
    for (std::string& a : copies) argv.push_back(a.data());
    argv.push_back(nullptr);
    const pid_t pid = fork();
    if (pid == 0) {
      const int out = open(out_path.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
      const int err = open(err_path.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
      const int in = open("/dev/null", O_RDONLY);
      if (out < 0 || err < 0 || in < 0) _exit(126);
      dup2(in, 0);
      dup2(out, 1);
      dup2(err, 2);
      if (chdir(dir_.c_str()) != 0) _exit(126);
      for (const int signal : {SIGINT, SIGTERM, SIGHUP, SIGPIPE, SIGXFSZ})
        std::signal(signal, SIG_DFL);
      execv(argv[0], argv.data());
      _exit(127);
    }
    return pid;
  }
};

}  // namespace boids::test_support
