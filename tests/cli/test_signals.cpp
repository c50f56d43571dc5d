// What the process's signals and limits do to a tool: a file-size limit, a closed pipe and an
// address-space limit each end it with exit 1 and a message that names the cause; SIGINT and
// SIGTERM stop it between steps, keeping what was whole and leaving no temporary file.
#include <fcntl.h>
#include <gtest/gtest.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
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

#include "host/base/interruption.h"
#include "tests/support/cli_fixture.h"

namespace {

using boids::signal_name;
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

// Whether `file` comes to hold `lines` lines within `seconds`.
bool wait_for_lines(const std::string& file, std::size_t lines, double seconds) {
  const auto end = std::chrono::steady_clock::now() + std::chrono::duration<double>(seconds);
  while (std::chrono::steady_clock::now() < end) {
    const std::string text = read_file(file);
    if (static_cast<std::size_t>(std::count(text.begin(), text.end(), '\n')) >= lines) return true;
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
  }
  return false;
}

bool wait_for_file(const std::string& file, double seconds) {
  const auto end = std::chrono::steady_clock::now() + std::chrono::duration<double>(seconds);
  while (!std::filesystem::exists(file)) {
    if (std::chrono::steady_clock::now() > end) return false;
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
  }
  return true;
}

// The number after `label` in `text` (0 when it is not there).
std::uint64_t number_after(const std::string& text, const std::string& label) {
  const std::size_t at = text.find(label);
  return at == std::string::npos ? 0 : std::stoull(text.substr(at + label.size()));
}

// SIGINT, SIGTERM and SIGHUP (its terminal closed) stop a run between steps: exit 128 + the
// signal and one line saying where it stopped and what it kept. The outputs of the end (--save,
// --metrics) are not written and no temporary file is left; the last checkpoint resumes and the
// trajectory's frames convert. Before, the signal killed the run where it stood, leaving a
// temporary file per output.
TEST_F(Signals, AStopSignalEndsARunBetweenStepsKeepingWhatWasWhole) {
  for (const int signal : {SIGINT, SIGTERM, SIGHUP}) {
    const std::string name = signal == SIGINT ? "int" : signal == SIGTERM ? "term" : "hup";
    SCOPED_TRACE(name);
    const pid_t pid = start({"run", "--backend", "cpu", "--count", "2000", "--steps", "1000000000",
                             "--checkpoint", name + ".ckpt", "--checkpoint-every", "20",
                             "--trajectory", name + ".h5", "--trajectory-every", "20", "--save",
                             name + ".csv", "--metrics", name + "-metrics.csv"});
    ASSERT_TRUE(wait_for_file(path(name + ".ckpt"), 120));
    std::this_thread::sleep_for(std::chrono::milliseconds(100));
    kill(pid, signal);
    EXPECT_EQ(wait_at_most(pid, 120), 128 + signal);
    const std::string err = read_file(stem() + ".err");
    const std::string said = "boids: stopped by " + signal_name(signal) + " at step ";
    EXPECT_EQ(err.rfind(said, 0), 0u) << err;
    EXPECT_EQ(std::count(err.begin(), err.end(), '\n'), 1) << err;
    EXPECT_NE(err.find(" of 1000000000; kept: the checkpoint of step "), std::string::npos) << err;
    EXPECT_NE(err.find(", the trajectory's "), std::string::npos) << err;
    const std::uint64_t checkpointed = number_after(err, "the checkpoint of step ");
    EXPECT_GT(checkpointed, 0u);
    EXPECT_EQ(checkpointed % 20, 0u);
    const Result resumed =
        run({"run", "--resume", name + ".ckpt", "--steps", std::to_string(checkpointed + 5)});
    EXPECT_EQ(resumed.code, 0) << resumed.err;
    EXPECT_NE(resumed.out.find("now at step " + std::to_string(checkpointed + 5)),
              std::string::npos)
        << resumed.out;
    const Result frames = run({"convert", name + ".h5", name + "-last.npy"});
    EXPECT_EQ(frames.code, 0) << frames.err;
    std::filesystem::remove(path(name + "-last.npy"));
  }
  EXPECT_EQ(entries(),
            (std::set<std::string>{"int.ckpt", "int.h5", "int.xdmf", "term.ckpt", "term.h5",
                                   "term.xdmf", "hup.ckpt", "hup.h5", "hup.xdmf"}));
}

// Whether process `pid` comes to catch `signal` within `seconds` (SigCgt of /proc/PID/status).
bool catches(pid_t pid, int signal, double seconds) {
  const auto end = std::chrono::steady_clock::now() + std::chrono::duration<double>(seconds);
  while (std::chrono::steady_clock::now() < end) {
    std::ifstream status("/proc/" + std::to_string(pid) + "/status");
    std::string line;
    while (std::getline(status, line)) {
      if (line.rfind("SigCgt:", 0) != 0) continue;
      const unsigned long long mask = std::stoull(line.substr(7), nullptr, 16);
      if (mask >> (signal - 1) & 1ull) return true;
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(5));
  }
  return false;
}

// `boids convert` stops at SIGTERM too: exit 143, one line, and the output it would have
// replaced kept as it was. Before, it finished, replaced the old output and exited 0.
TEST_F(Signals, AStopSignalEndsAConversionKeepingTheOldOutput) {
  const Result made = run({"run", "--backend", "cpu", "--count", "200000", "--density", "0.012",
                           "--steps", "4", "--trajectory", "big.h5", "--trajectory-every", "1"});
  ASSERT_EQ(made.code, 0) << made.err;
  write_file(path("out.csv"), "old\n");
  const pid_t pid = start({"convert", "big.h5", "out.csv", "--frame", "4"});
  ASSERT_TRUE(catches(pid, SIGTERM, 60));  // its handler in place: the signal is no kill
  kill(pid, SIGTERM);
  const int status = wait_at_most(pid, 120);
  const std::string err = read_file(stem() + ".err");
  if (status == 0) GTEST_SKIP() << "the conversion ended before the signal came";
  EXPECT_EQ(status, 128 + SIGTERM) << err;
  EXPECT_EQ(err.rfind("boids: stopped by SIGTERM", 0), 0u) << err;
  EXPECT_EQ(std::count(err.begin(), err.end(), '\n'), 1) << err;
  EXPECT_EQ(read_file(path("out.csv")), "old\n");
  EXPECT_EQ(entries(), (std::set<std::string>{"big.h5", "big.xdmf", "out.csv"}));
}

// A sweep stopped by a signal keeps the rows of its finished points, says so, and --resume
// flies the rest. A point takes a tenth of a second (two under the sanitizers): the signal,
// sent once the first row is there, comes while the others fly.
TEST_F(Signals, AStopSignalEndsASweepKeepingItsFinishedRows) {
  const std::vector<std::string> sweep = {
      "sweep",   "--backend", "cpu",        "--param",    "alignment=0,0.1,0.2,0.3",
      "--count", "400",       "--replicas", "1",          "--steps",
      "5000",    "--every",   "1000",       "--schedule", "alone",
      "--csv",   "rows.csv"};
  const pid_t pid = start(sweep);
  ASSERT_TRUE(wait_for_lines(path("rows.csv"), 2, 120));  // the header and a point
  kill(pid, SIGTERM);
  EXPECT_EQ(wait_at_most(pid, 120), 128 + SIGTERM);
  const std::string err = read_file(stem() + ".err");
  EXPECT_EQ(err.rfind("boids: stopped by SIGTERM with ", 0), 0u) << err;
  EXPECT_NE(err.find(" of 4 points done; their rows are in 'rows.csv', and --resume flies the "
                     "rest\n"),
            std::string::npos)
      << err;
  EXPECT_EQ(std::count(err.begin(), err.end(), '\n'), 1) << err;
  // The rows so far and their record, written as they began.
  EXPECT_EQ(entries(), (std::set<std::string>{"rows.csv", "rows.csv.json"}));
  std::vector<std::string> resume = sweep;
  resume.push_back("--resume");
  const Result r = run(resume);
  EXPECT_EQ(r.code, 0) << r.err;
  const std::string rows = read_file(path("rows.csv"));
  EXPECT_EQ(std::count(rows.begin(), rows.end(), '\n'), 5) << rows;
}

// Under an address-space limit (`ulimit -v`), a flock too large for it is refused before
// anything is drawn, naming the limit and what was needed, and one that fits flies on every
// thread the limit has room for. Before, the refusal blamed the machine, which had gigabytes
// free, or libgomp ended the process with "Thread creation failed".
TEST_F(Signals, AnAddressSpaceLimitIsNamedWithWhatWasNeeded) {
#if defined(BOIDS_SANITIZED)
  GTEST_SKIP() << "AddressSanitizer reserves more address space than any limit leaves";
#endif
  const Result refused =
      run_in_shell("ulimit -v 1000000; exec \"$0\" \"$@\"",
                   {"run", "--backend", "cpu", "--count", "40000000", "--steps", "0"});
  EXPECT_EQ(refused.code, 1) << refused.err;
  EXPECT_EQ(refused.err.rfind("boids: error: a flock of 40000000 boids (cpu, hashed, float) "
                              "needs ",
                              0),
            0u)
      << refused.err;
  EXPECT_NE(refused.err.find("; the process under its address-space limit (ulimit -v) has "),
            std::string::npos)
      << refused.err;
  EXPECT_EQ(std::count(refused.err.begin(), refused.err.end(), '\n'), 1) << refused.err;
  for (const char* count : {"200000", "4000000"}) {
    SCOPED_TRACE(count);
    const Result flew = run_in_shell(
        "ulimit -v 1000000; exec \"$0\" \"$@\"",
        {"run", "--backend", "cpu", "--count", count, "--density", "0.012", "--steps", "3"});
    EXPECT_EQ(flew.code, 0) << flew.err;
  }
}

}  // namespace
