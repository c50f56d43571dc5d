// What the process's signals and limits do to a tool: a file-size limit and a closed pipe each
// end it with exit 1 and a message that names the cause.
#include <fcntl.h>
#include <gtest/gtest.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <csignal>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <set>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include "tests/support/cli_fixture.h"

namespace {

using boids::test_support::read_file;
using boids::test_support::Result;
using boids::test_support::write_file;

// How a child ended: its exit status, or kSignalled + the signal that killed it, or -1 when it
// had not ended within the time allowed (it is then killed).
constexpr int kSignalled = 1000;

int wait_at_most(pid_t pid, double seconds) {
  const auto end = std::chrono::steady_clock::now() + std::chrono::duration<double>(seconds);
  int status = 0;
  while (waitpid(pid, &status, WNOHANG) == 0) {
    if (std::chrono::steady_clock::now() > end) {
      kill(pid, SIGKILL);
      waitpid(pid, &status, 0);
      return -1;
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
  }
  return WIFEXITED(status) ? WEXITSTATUS(status) : kSignalled + WTERMSIG(status);
}

class Signals : public boids::test_support::CliFixture {
 protected:
  // Runs `command` (a line of sh) with `boids` as $0, its arguments after it.
  Result run_in_shell(const std::string& command, const std::vector<std::string>& args) const {
    std::vector<std::string> all = {"-c", command, boids::test_support::boids_executable()};
    all.insert(all.end(), args.begin(), args.end());
    return run_program("/bin/sh", all);
  }

  // Runs `program args...` with its standard output a pipe whose reader has already gone.
  Result run_into_closed_pipe(std::string program, std::vector<std::string> args) const {
    int ends[2];
    if (pipe(ends) != 0) return {};
    close(ends[0]);
    std::vector<char*> argv = {program.data()};
    for (std::string& a : args) argv.push_back(a.data());
    argv.push_back(nullptr);
    const std::string err_path = stem() + ".err";
    const pid_t pid = fork();
    if (pid == 0) {
      const int err = open(err_path.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
      const int in = open("/dev/null", O_RDONLY);
      if (err < 0 || in < 0 || chdir(dir_.c_str()) != 0) _exit(126);
      dup2(in, 0);
      dup2(ends[1], 1);
      dup2(err, 2);
      std::signal(SIGPIPE, SIG_DFL);
      execv(argv[0], argv.data());
      _exit(127);
    }
    close(ends[1]);
    Result r;
    r.code = wait_at_most(pid, 300);
    r.err = read_file(err_path);
    return r;
  }
};

// SIGXFSZ ignored: a write past `ulimit -f` fails as on a full disk (exit 1, a message, the
// file as it was, no temporary file), where the signal killed the tool without a word.
TEST_F(Signals, AFileSizeLimitFailsAsAFullDiskDoes) {
  write_file(path("big.csv"), "kept\n");
  const Result r = run_in_shell(
      "ulimit -f 64; exec \"$0\" \"$@\"",
      {"run", "--backend", "cpu", "--count", "20000", "--steps", "1", "--save", path("big.csv")});
  EXPECT_EQ(r.code, 1) << r.err;
  EXPECT_EQ(r.err, "boids: error: cannot write '" + path("big.csv") + "': File too large\n");
  EXPECT_EQ(read_file(path("big.csv")), "kept\n");
  EXPECT_EQ(entries(), (std::set<std::string>{"big.csv"}));
}

// SIGPIPE ignored: a closed pipe fails the command as /dev/full does (exit 1 and a message),
// where the signal killed it without a word (exit 141).
TEST_F(Signals, AClosedPipeFailsTheCommandWithAMessage) {
  const std::string boids = boids::test_support::boids_executable();
  const std::vector<std::vector<std::string>> commands = {
      {"run", "--backend", "cpu", "--count", "10", "--steps", "1", "--json"},
      {"run", "--backend", "cpu", "--count", "10", "--steps", "1"},
      {"sweep", "--backend", "cpu", "--param", "count=10,20", "--steps", "10", "--json"},
      {"validate", "--backend", "cpu"},
      {"info"},
  };
  for (const auto& args : commands) {
    SCOPED_TRACE(args.front() + " " + args.back());
    const Result r = run_into_closed_pipe(boids, args);
    EXPECT_EQ(r.code, 1) << r.err;
    EXPECT_EQ(r.err, "boids: error: cannot write to standard output: Broken pipe\n");
  }
  const std::string bench = boids.substr(0, boids.find_last_of('/') + 1) + "boids-bench";
  if (access(bench.c_str(), X_OK) != 0) return;
  const Result r =
      run_into_closed_pipe(bench, {"--counts", "64", "--methods", "naive", "--precisions", "double",
                                   "--states", "random", "--repeats", "1", "--min-time", "0.001"});
  EXPECT_EQ(r.code, 1) << r.err;
  const std::string said = "boids-bench: error: cannot write to standard output: Broken pipe\n";
  ASSERT_GE(r.err.size(), said.size()) << r.err;  // after its progress lines
  EXPECT_EQ(r.err.substr(r.err.size() - said.size()), said);
}

}  // namespace
