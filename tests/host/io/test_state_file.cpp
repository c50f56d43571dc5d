// State files (host/io/state_file.h): exact round trips, strict parsing with the file and the
// line in every message, and writes that replace a file whole or not at all.
#include <gtest/gtest.h>
#include <signal.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cmath>
#include <cstdint>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <limits>
#include <random>
#include <set>
#include <sstream>
#include <string>

#include "host/base/errors.h"
#include "host/io/state_file.h"
#include "host/model/flock.h"
#include "tests/support/test_directory.h"

namespace boids {
namespace {

namespace fs = std::filesystem;
using test_support::read_file;
using test_support::write_file;

std::uint64_t bits(double v) {
  std::uint64_t b;
  std::memcpy(&b, &v, sizeof b);
  return b;
}

double from_bits(std::uint64_t b) {
  double v;
  std::memcpy(&v, &b, sizeof v);
  return v;
}

void expect_same_bits(const FlockState& a, const FlockState& b) {
  ASSERT_EQ(a.size(), b.size());
  for (std::size_t i = 0; i < a.size(); ++i) {
    EXPECT_EQ(bits(a.x[i]), bits(b.x[i]))
        << "x of boid " << i << ": " << a.x[i] << " vs " << b.x[i];
    EXPECT_EQ(bits(a.y[i]), bits(b.y[i])) << "y of boid " << i;
    EXPECT_EQ(bits(a.vx[i]), bits(b.vx[i]))
        << "vx of boid " << i << ": " << a.vx[i] << " vs " << b.vx[i];
    EXPECT_EQ(bits(a.vy[i]), bits(b.vy[i])) << "vy of boid " << i;
  }
}

// Any finite double: random bit patterns, which are mostly huge or tiny, and a few special ones.
double random_finite(std::mt19937_64& rng) {
  for (;;) {
    const double v = from_bits(rng());
    if (std::isfinite(v)) return v;
  }
}

FlockState random_state(std::size_t n, double world, std::uint64_t seed) {
  std::mt19937_64 rng(seed);
  std::uniform_real_distribution<double> u(0, world);
  const double specials[] = {
      0.0,
      -0.0,
      std::numeric_limits<double>::denorm_min(),
      -std::numeric_limits<double>::denorm_min(),
      std::numeric_limits<double>::min(),
      std::nextafter(std::numeric_limits<double>::min(), 0.0),  // largest subnormal
      -std::numeric_limits<double>::max(),
      std::numeric_limits<double>::max(),
      0.1,
      1.0 / 3,
      5e-324,
      2.2250738585072014e-308,
      1e-310,
      -1e-320,
      123456789.123456789,
      std::nextafter(1.0, 2.0)};
  const double positions[] = {0.0,
                              -0.0,
                              std::numeric_limits<double>::denorm_min(),
                              std::numeric_limits<double>::min(),
                              1e-310,
                              std::nextafter(world, 0.0),  // the largest below L
                              std::nextafter(std::nextafter(world, 0.0), 0.0),
                              world / 2,
                              world / 3,
                              world * (1 - 1e-15)};
  FlockState s;
  for (std::size_t i = 0; i < n; ++i) {
    const auto pick_position = [&] {
      const std::uint64_t r = rng() % 4;
      if (r == 0) return positions[rng() % std::size(positions)];
      double v = u(rng);
      if (r == 1) v = from_bits(bits(v) ^ (rng() & 0xff));  // random low bits
      return v < world && v >= 0 ? v : 0.0;
    };
    const auto pick_velocity = [&] {
      const std::uint64_t r = rng() % 4;
      if (r == 0) return specials[rng() % std::size(specials)];
      if (r == 1) return random_finite(rng);
      return std::uniform_real_distribution<double>(-2, 2)(rng);
    };
    s.x.push_back(pick_position());
    s.y.push_back(pick_position());
    s.vx.push_back(pick_velocity());
    s.vy.push_back(pick_velocity());
  }
  return s;
}

TEST(StateFileRoundTrip, RandomDoublesBitForBit) {
  for (double world : {100.0, 1.0, 0.3, 7.25, 1e6, 1e-3}) {
    const FlockState s = random_state(3000, world, static_cast<std::uint64_t>(world * 1000) + 1);
    const std::string text = format_state(s);
    ASSERT_EQ(text.rfind("x,y,vx,vy\n", 0), 0u);
    const FlockState back = parse_state(text, "memory", world);
    expect_same_bits(s, back);
    // And the text is stable: formatting the parsed state gives it again.
    EXPECT_EQ(format_state(back), text);
  }
}

TEST(StateFileRoundTrip, NegativeZeroAndSubnormalsAreKept) {
  FlockState s;
  s.x = {-0.0, 5e-324};
  s.y = {0.0, 99.99999999999999};
  s.vx = {-0.0, 4.9406564584124654e-324};
  s.vy = {-2.2250738585072009e-308, -0.0};
  const FlockState back = parse_state(format_state(s), "memory", 100);
  expect_same_bits(s, back);
  EXPECT_TRUE(std::signbit(back.vx[0]));
  EXPECT_TRUE(std::signbit(back.x[0]));
}

TEST(StateFileRoundTrip, ThroughAFile) {
  const fs::path dir = fs::temp_directory_path() / ("boids_state_rt_" + std::to_string(getpid()));
  fs::create_directories(dir);
  const std::string path = (dir / "state.csv").string();
  const FlockState s = random_state(500, 100, 77);
  write_state_file(path, s);
  expect_same_bits(s, read_state_file(path, 100));
  // Replacing an existing file.
  const FlockState t = random_state(3, 100, 78);
  write_state_file(path, t);
  expect_same_bits(t, read_state_file(path, 100));
  EXPECT_EQ(std::distance(fs::directory_iterator(dir), fs::directory_iterator()), 1);
  fs::remove_all(dir);
}

// Parsing `text` fails with an InputError naming the file and the line.
void expect_error(const std::string& text, std::size_t line, const std::string& detail = "",
                  double world = 100) {
  SCOPED_TRACE("text: '" + text + "'");
  try {
    parse_state(text, "flock.csv", world);
    ADD_FAILURE() << "accepted";
  } catch (const InputError& e) {
    const std::string message = e.what();
    EXPECT_NE(message.find("flock.csv"), std::string::npos) << message;
    EXPECT_NE(message.find("line " + std::to_string(line) + ":"), std::string::npos)
        << "expected line " << line << " in: " << message;
    if (!detail.empty()) {
      EXPECT_NE(message.find(detail), std::string::npos) << message;
    }
  } catch (const std::exception& e) {
    ADD_FAILURE() << "not an InputError: " << e.what();
  }
}

const std::string kHeader = "x,y,vx,vy\n";

TEST(StateFileErrors, WrongHeader) {
  expect_error("x,y,vx\n1,2,3,4\n", 1, "header");
  expect_error("X,Y,VX,VY\n1,2,3,4\n", 1, "header");
  expect_error("x, y, vx, vy\n1,2,3,4\n", 1, "header");
  expect_error("x,y,vx,vy,\n1,2,3,4\n", 1, "header");
  expect_error("1,2,3,4\n", 1, "header");
  expect_error("\xEF\xBB\xBFx,y,vx,vy\n1,2,3,4\n", 1, "UTF-8 byte-order mark; save it without one");
  expect_error("\nx,y,vx,vy\n1,2,3,4\n", 1, "header");
}

TEST(StateFileErrors, ShortAndLongRows) {
  expect_error(kHeader + "1,2,3\n", 2, "found 3");
  expect_error(kHeader + "1\n", 2, "found 1");
  expect_error(kHeader + "1,2,3,4\n1,2\n", 3, "found 2");
  expect_error(kHeader + "1,2,3,4,5\n", 2, "more");
  expect_error(kHeader + "1,2,3,4,\n", 2);
  expect_error(kHeader + "1,2,3,4\n5,6,7,8\n9,10,11,12,13\n", 4);
  expect_error(kHeader + "1,,3,4\n", 2, "y");
  expect_error(kHeader + ",2,3,4\n", 2, "x");
}

TEST(StateFileErrors, NotNumbers) {
  expect_error(kHeader + "a,2,3,4\n", 2, "'a'");
  expect_error(kHeader + "1,2,3,four\n", 2, "four");
  expect_error(kHeader + "1.5x,2,3,4\n", 2, "1.5x");  // trailing junk
  expect_error(kHeader + "1,2,3,4e\n", 2);
  expect_error(kHeader + "1,2,0x10,4\n", 2);
  expect_error(kHeader + "1,2,+3,4\n", 2);
  expect_error(kHeader + "1,2,3,1e999\n", 2);  // out of range
  expect_error(kHeader + "1;2;3;4\n", 2);
  expect_error(kHeader + "1,2,3,4\n\"5\",6,7,8\n", 3);
}

TEST(StateFileErrors, Spaces) {
  expect_error(kHeader + " 1,2,3,4\n", 2);
  expect_error(kHeader + "1, 2,3,4\n", 2);
  expect_error(kHeader + "1,2 ,3,4\n", 2);
  expect_error(kHeader + "1,2,3,4 \n", 2);
  expect_error(kHeader + "1,2,3,\t4\n", 2);
  expect_error(kHeader + "1,2,3,4\n \n", 3);
}

TEST(StateFileErrors, NotFinite) {
  for (const std::string bad : {"nan", "NaN", "-nan", "inf", "-inf", "infinity", "INF"}) {
    expect_error(kHeader + "1,2,3,4\n1,2," + bad + ",4\n", 3, bad);
    expect_error(kHeader + bad + ",2,3,4\n", 2, bad);
  }
}

TEST(StateFileErrors, PositionsOutsideTheWorld) {
  expect_error(kHeader + "-1,2,3,4\n", 2, "x");
  expect_error(kHeader + "1,-0.5,3,4\n", 2, "y");
  expect_error(kHeader + "100,2,3,4\n", 2, "x");  // == L
  expect_error(kHeader + "1,100,3,4\n", 2, "y");
  expect_error(kHeader + "1,2,3,4\n1,150,3,4\n", 3, "y");
  expect_error(kHeader + "1,2,3,4\n", 2, "x", 1.0);  // L = 1
  expect_error(kHeader + "-5e-324,2,3,4\n", 2, "x");
  // Just inside is fine.
  EXPECT_EQ(parse_state(kHeader + "99.99999999999999,0,3,4\n", "f", 100).size(), 1u);
  EXPECT_EQ(parse_state(kHeader + "0.5,0.999,3,4\n", "f", 1).size(), 1u);
}

TEST(StateFileErrors, EmptyFileAndHeaderOnly) {
  expect_error("", 1, "empty");
  expect_error("x,y,vx,vy", 2, "no boids");
  expect_error("x,y,vx,vy\n", 2, "no boids");
  expect_error("x,y,vx,vy\r\n", 2, "no boids");
  expect_error("\n", 1);
}

TEST(StateFileErrors, BinaryContent) {
  expect_error(std::string("x,y,vx,vy\n1,2,3,4\n1,2\0,3,4\n", 26), 3, "NUL");
  expect_error(std::string("\0\0\0\0", 4), 1, "NUL");
  expect_error(std::string("x,y,vx,vy\n1,2,3,4\n\0", 19), 3, "NUL");
}

TEST(StateFileErrors, BlankLineInTheMiddle) {
  expect_error(kHeader + "1,2,3,4\n\n5,6,7,8\n", 3, "empty");
}

TEST(StateFileParsing, LineEndings) {
  const FlockState crlf = parse_state("x,y,vx,vy\r\n1,2,3,4\r\n5,6,7,8\r\n", "f", 100);
  ASSERT_EQ(crlf.size(), 2u);
  EXPECT_EQ(crlf.x[1], 5);
  EXPECT_EQ(crlf.vy[1], 8);
  const FlockState no_final = parse_state("x,y,vx,vy\n1,2,3,4\n5,6,7,8", "f", 100);
  ASSERT_EQ(no_final.size(), 2u);
  EXPECT_EQ(no_final.vy[1], 8);
  const FlockState crlf_no_final = parse_state("x,y,vx,vy\r\n1,2,3,4\r\n5,6,7,8", "f", 100);
  ASSERT_EQ(crlf_no_final.size(), 2u);
  EXPECT_EQ(crlf_no_final.vy[1], 8);
  const FlockState plain = parse_state("x,y,vx,vy\n0.25,99.5,-1e-3,2E2\n", "f", 100);
  ASSERT_EQ(plain.size(), 1u);
  EXPECT_EQ(plain.x[0], 0.25);
  EXPECT_EQ(plain.y[0], 99.5);
  EXPECT_EQ(plain.vx[0], -1e-3);
  EXPECT_EQ(plain.vy[0], 200);
  // A bare CR is not a line ending.
  expect_error("x,y,vx,vy\r1,2,3,4\r", 1, "header");
}

TEST(StateFileParsing, KeepsInputOrder) {
  std::string text = kHeader;
  for (int i = 0; i < 50; ++i) text += std::to_string(i) + ".5,1,2,3\n";
  const FlockState s = parse_state(text, "f", 100);
  ASSERT_EQ(s.size(), 50u);
  for (int i = 0; i < 50; ++i) EXPECT_EQ(s.x[i], i + 0.5);
}

// ---------------------------------------------------------------------------------------
// Files

class StateFileOnDisk : public test_support::TestDirectory {
 protected:
  StateFileOnDisk() : TestDirectory("boids_state") {}
  // read_state_file fails with an InputError whose message has each of `parts`.
  static void expect_read_error(const std::string& path, const std::vector<std::string>& parts) {
    try {
      read_state_file(path, 100);
      ADD_FAILURE() << "read " << path;
    } catch (const InputError& e) {
      for (const std::string& part : parts)
        EXPECT_NE(std::string(e.what()).find(part), std::string::npos) << e.what();
    } catch (const std::exception& e) {
      ADD_FAILURE() << "not an InputError: " << e.what();
    }
  }
};

TEST_F(StateFileOnDisk, ReadErrorsNameTheFileAndLine) {
  write_file(path("bad.csv"), "x,y,vx,vy\n1,2,3,4\n1,2,3\n");
  expect_read_error(path("bad.csv"), {path("bad.csv"), "line 3:"});
  write_file(path("crlf.csv"), "x,y,vx,vy\r\n1,2,3,4\r\n");
  EXPECT_EQ(read_state_file(path("crlf.csv"), 100).size(), 1u);
  write_file(path("empty.csv"), "");
  expect_read_error(path("empty.csv"), {path("empty.csv"), "line 1:", "empty"});
}

TEST_F(StateFileOnDisk, MissingFile) {
  expect_read_error(path("nowhere.csv"), {path("nowhere.csv")});
}

TEST_F(StateFileOnDisk, DirectoryIsAClearError) {
  fs::create_directories(path("dir.csv"));
  expect_read_error(path("dir.csv"), {path("dir.csv"), "directory"});
}

TEST_F(StateFileOnDisk, NonRegularFilesAreRefused) {
  expect_read_error("/dev/null", {"/dev/null", "not a regular file"});
  ASSERT_EQ(mkfifo(path("fifo").c_str(), 0600), 0);
  expect_read_error(path("fifo"), {path("fifo"), "not a regular file"});  // and does not block
}

TEST_F(StateFileOnDisk, WriteFailureLeavesTheFileAndNoTemporaries) {
  const std::string target = path("state.csv");
  write_file(target, "precious\n");
  // Files may not grow beyond 16 bytes: the write of the temporary file fails (EFBIG), even
  // for root, for whom directory permissions do not count.
  struct sigaction ignore {
  }, previous{};
  ignore.sa_handler = SIG_IGN;
  sigaction(SIGXFSZ, &ignore, &previous);
  struct rlimit old_limit;
  getrlimit(RLIMIT_FSIZE, &old_limit);
  struct rlimit small = old_limit;
  small.rlim_cur = 16;
  ASSERT_EQ(setrlimit(RLIMIT_FSIZE, &small), 0);
  bool threw = false;
  std::string message;
  try {
    write_state_file(target, random_state(100, 100, 5));
  } catch (const RuntimeError& e) {
    threw = true;
    message = e.what();
  } catch (const std::exception& e) {
    message = std::string("unexpected exception: ") + e.what();
  }
  setrlimit(RLIMIT_FSIZE, &old_limit);
  sigaction(SIGXFSZ, &previous, nullptr);
  EXPECT_TRUE(threw) << message;
  EXPECT_NE(message.find(target), std::string::npos) << message;
  EXPECT_EQ(read_file(target), "precious\n");
  EXPECT_EQ(entries(), std::set<std::string>{"state.csv"});
}

TEST_F(StateFileOnDisk, UnwritableDirectory) {
  const std::string target = path("state.csv");
  write_file(target, "precious\n");
  fs::permissions(dir_, fs::perms::owner_read | fs::perms::owner_exec);
  if (access(dir_.c_str(), W_OK) == 0) {
    fs::permissions(dir_, fs::perms::owner_all);
    GTEST_SKIP() << "running with privileges that ignore directory permissions";
  }
  EXPECT_THROW(write_state_file(target, random_state(10, 100, 6)), RuntimeError);
  fs::permissions(dir_, fs::perms::owner_all);
  EXPECT_EQ(read_file(target), "precious\n");
  EXPECT_EQ(entries(), std::set<std::string>{"state.csv"});
}

TEST_F(StateFileOnDisk, MissingDirectory) {
  EXPECT_THROW(write_state_file(path("no/such/dir/state.csv"), random_state(10, 100, 7)),
               RuntimeError);
  EXPECT_TRUE(entries().empty());
}

TEST_F(StateFileOnDisk, DestinationIsADirectory) {
  fs::create_directories(path("taken"));
  write_file(path("taken/inside"), "keep");
  EXPECT_THROW(write_state_file(path("taken"), random_state(10, 100, 8)), RuntimeError);
  EXPECT_TRUE(fs::is_directory(path("taken")));
  EXPECT_EQ(read_file(path("taken/inside")), "keep");
  EXPECT_EQ(entries(), std::set<std::string>{"taken"});
}

TEST_F(StateFileOnDisk, SuccessfulWriteLeavesOnlyTheFile) {
  const std::string target = path("state.csv");
  write_file(target, "old contents that are longer than the new ones, to be sure they are gone\n");
  FlockState s;
  s.x = {1};
  s.y = {2};
  s.vx = {0.5};
  s.vy = {-0.25};
  write_state_file(target, s);
  EXPECT_EQ(read_file(target), "x,y,vx,vy\n1,2,0.5,-0.25\n");
  EXPECT_EQ(entries(), std::set<std::string>{"state.csv"});
}

}  // namespace
}  // namespace boids
