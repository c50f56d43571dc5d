// NumPy .npy state files (host/io/npy_file.h, host/io/state_file.h): exact round trips, the headers
// numpy writes in every version, and a clear refusal, naming the file, of everything else.
#include <gtest/gtest.h>
#include <unistd.h>

#include <cmath>
#include <cstdint>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <limits>
#include <random>
#include <string>

#include "host/base/errors.h"
#include "host/io/npy_file.h"
#include "host/io/state_file.h"

namespace boids {
namespace {

namespace fs = std::filesystem;

const World kWorld{100, 100, Boundary::kTorus};

std::uint64_t bits(double v) {
  std::uint64_t b;
  std::memcpy(&b, &v, sizeof b);
  return b;
}

// Positions anywhere in the world, edges included; velocities any finite double.
FlockState random_state(std::size_t n, std::uint64_t seed) {
  std::mt19937_64 rng(seed);
  const double positions[] = {0.0, -0.0, 5e-324, std::nextafter(100.0, 0.0), 50, 1e-310};
  FlockState s;
  for (std::size_t i = 0; i < n; ++i) {
    const auto position = [&] {
      if (rng() % 4 == 0) return positions[rng() % std::size(positions)];
      return std::uniform_real_distribution<double>(0, 100)(rng);
    };
    const auto velocity = [&] {
      for (;;) {
        double v;
        const std::uint64_t b = rng();
        std::memcpy(&v, &b, sizeof v);
        if (std::isfinite(v)) return v;
      }
    };
    s.x.push_back(position());
    s.y.push_back(position());
    s.vx.push_back(velocity());
    s.vy.push_back(i % 7 == 0 ? -0.0 : velocity());
  }
  return s;
}

void expect_same_bits(const FlockState& a, const FlockState& b) {
  ASSERT_EQ(a.size(), b.size());
  for (std::size_t i = 0; i < a.size(); ++i) {
    EXPECT_EQ(bits(a.x[i]), bits(b.x[i])) << "x of boid " << i;
    EXPECT_EQ(bits(a.y[i]), bits(b.y[i])) << "y of boid " << i;
    EXPECT_EQ(bits(a.vx[i]), bits(b.vx[i])) << "vx of boid " << i;
    EXPECT_EQ(bits(a.vy[i]), bits(b.vy[i])) << "vy of boid " << i;
  }
}

std::string little_endian(std::uint64_t value, int bytes) {
  std::string out;
  for (int k = 0; k < bytes; ++k) out += static_cast<char>((value >> (8 * k)) & 0xFF);
  return out;
}

std::string doubles(std::initializer_list<double> values) {
  std::string out;
  for (const double v : values) out += little_endian(bits(v), 8);
  return out;
}

// A .npy file of the given version, header dict and data, as numpy (or a broken writer) would.
std::string npy(const std::string& dict, const std::string& data, int major = 1) {
  std::string header = dict + "\n";
  std::string out = std::string("\x93NUMPY", 6) + static_cast<char>(major) + '\0';
  out += little_endian(header.size(), major == 1 ? 2 : 4);
  return out + header + data;
}

std::string dict(const std::string& shape, const std::string& descr = "'<f8'",
                 const std::string& fortran = "False") {
  return "{'descr': " + descr + ", 'fortran_order': " + fortran + ", 'shape': " + shape + ", }";
}

const std::string kTwoBoids = doubles({1, 2, 0.5, -0.5, 3, 4, -1, 1});

TEST(NpyRoundTrip, BitForBit) {
  for (const std::size_t n : {1, 2, 3, 1000}) {
    const FlockState s = random_state(n, n);
    const std::string bytes = format_npy_state(s);
    expect_same_bits(s, parse_npy_state(bytes, "memory.npy", kWorld));
    EXPECT_EQ(bytes.size() % 64, (n * 32) % 64);  // the numbers start at a multiple of 64
  }
}

TEST(NpyRoundTrip, HeaderIsNumpys) {
  FlockState s;
  s.x = {1, 2, 3};
  s.y = s.vx = s.vy = s.x;
  const std::string bytes = format_npy_state(s);
  ASSERT_EQ(bytes.size(), 128u + 3 * 32);
  EXPECT_EQ(bytes.substr(0, 10), std::string("\x93NUMPY\x01\x00\x76\x00", 10));
  const std::string header = bytes.substr(10, 118);
  EXPECT_EQ(header.rfind("{'descr': '<f8', 'fortran_order': False, 'shape': (3, 4), }", 0), 0u)
      << header;
  EXPECT_EQ(header.back(), '\n');
  EXPECT_EQ(bytes.substr(128, 8), doubles({1}));
}

TEST(NpyRoundTrip, ThroughAFileChosenByTheName) {
  const fs::path dir = fs::temp_directory_path() / ("boids_npy_" + std::to_string(getpid()));
  fs::create_directories(dir);
  const FlockState s = random_state(500, 9);
  for (const char* name : {"state.npy", "STATE.NPY"}) {
    const std::string path = (dir / name).string();
    write_state_file(path, s);
    std::ifstream in(path, std::ios::binary);
    std::string start(6, '\0');
    in.read(start.data(), 6);
    EXPECT_EQ(start, "\x93NUMPY");
    expect_same_bits(s, read_state_file(path, kWorld));
  }
  EXPECT_TRUE(is_npy_name("a.npy"));
  EXPECT_FALSE(is_npy_name("a.npy.csv"));
  EXPECT_FALSE(is_npy_name("npy"));
  fs::remove_all(dir);
}

TEST(NpyReading, EveryVersionAndHeaderStyleNumpyWrites) {
  for (const int major : {1, 2, 3}) {
    const FlockState s = parse_npy_state(npy(dict("(2, 4)"), kTwoBoids, major), "v.npy", kWorld);
    ASSERT_EQ(s.size(), 2u);
    EXPECT_EQ(s.vx[1], -1);
  }
  for (const std::string& header :
       {std::string("{'shape': (2, 4), 'fortran_order': False, 'descr': '<f8'}"),
        std::string("{\"descr\": \"<f8\", \"fortran_order\": False, \"shape\": (2,4)}"),
        std::string("{ 'descr' : '<f8' , 'fortran_order' : False , 'shape' : ( 2 , 4 , ) , }   "),
        std::string("{'descr': '<f8', 'fortran_order': False, 'shape': (2L, 4L), }")}) {
    EXPECT_EQ(parse_npy_state(npy(header, kTwoBoids), "h.npy", kWorld).size(), 2u) << header;
  }
}

TEST(NpyReading, FortranOrderIsTransposed) {
  // Column after column: all x, all y, all vx, all vy.
  const std::string data = doubles({1, 3, 2, 4, 0.5, -1, -0.5, 1});
  const FlockState s = parse_npy_state(npy(dict("(2, 4)", "'<f8'", "True"), data), "f.npy", kWorld);
  const FlockState c = parse_npy_state(npy(dict("(2, 4)"), kTwoBoids), "c.npy", kWorld);
  expect_same_bits(s, c);
}

// Parsing `bytes` fails with an InputError naming the file and holding `detail`.
void expect_refused(const std::string& bytes, const std::string& detail,
                    const World& world = kWorld) {
  SCOPED_TRACE("expecting: " + detail);
  try {
    parse_npy_state(bytes, "flock.npy", world);
    ADD_FAILURE() << "accepted";
  } catch (const InputError& e) {
    const std::string message = e.what();
    EXPECT_EQ(message.rfind("state file 'flock.npy'", 0), 0u) << message;
    EXPECT_NE(message.find(detail), std::string::npos) << message;
    for (const char c : message) EXPECT_GE(static_cast<unsigned char>(c), 0x20) << message;
  } catch (const std::exception& e) {
    ADD_FAILURE() << "not an InputError: " << e.what();
  }
}

TEST(NpyRefusals, MagicAndVersion) {
  expect_refused("x,y,vx,vy\n1,2,3,4\n", "not a NumPy .npy file");
  expect_refused("", "not a NumPy .npy file");
  expect_refused(std::string("\x93NUMPZ\x01\x00", 8), "not a NumPy .npy file");
  expect_refused(std::string("\x93NUMPY\x04\x00\x10\x00", 10), "version 4.0 is not supported");
  expect_refused(std::string("\x93NUMPY\x01\x01\x10\x00", 10), "version 1.1 is not supported");
  expect_refused(std::string("\x93NUMPY\x00\x00\x10\x00", 10), "version 0.0");
}

TEST(NpyRefusals, TruncatedHeader) {
  const std::string whole = npy(dict("(2, 4)"), kTwoBoids);
  for (const std::size_t size : {6, 7, 9, 10, 11, 40}) {
    expect_refused(whole.substr(0, size), "truncated in the .npy header");
  }
  expect_refused(npy(dict("(2, 4)"), "", 2).substr(0, 11), "truncated in the .npy header");
  std::string huge = std::string("\x93NUMPY\x02\x00", 8) + little_endian(1u << 30, 4);
  expect_refused(huge, "longer than a matrix's needs");
}

TEST(NpyRefusals, TruncatedOrTrailingData) {
  const std::string whole = npy(dict("(2, 4)"), kTwoBoids);
  expect_refused(whole.substr(0, whole.size() - 1), "truncated: its shape (2, 4) needs");
  expect_refused(npy(dict("(2, 4)"), ""), "truncated");
  expect_refused(whole + "\n", "1 bytes follow the numbers");
  expect_refused(whole + kTwoBoids, "64 bytes follow the numbers");
}

TEST(NpyRefusals, WrongDtypeIsNamed) {
  const std::string data = kTwoBoids;
  expect_refused(npy(dict("(2, 4)", "'<f4'"), data.substr(0, 32)), "'<f4' (float32)");
  expect_refused(npy(dict("(2, 4)", "'>f8'"), data), "'>f8' (big-endian float64)");
  expect_refused(npy(dict("(2, 4)", "'<i8'"), data), "'<i8' (int64)");
  expect_refused(npy(dict("(2, 4)", "'|u1'"), data.substr(0, 8)), "'|u1' (uint8)");
  expect_refused(npy(dict("(2, 4)", "'<c16'"), data + data), "(complex128)");
  expect_refused(npy(dict("(2, 4)", "'|O'"), data), "(object)");
  expect_refused(npy(dict("(2,)", "[('x', '<f8'), ('y', '<f8')]"), data.substr(0, 32)),
                 "not a plain number type");
  expect_refused(npy(dict("(2, 4)", "'<f8'") + "x", data), "after the closing");
}

TEST(NpyRefusals, HeaderDictMustBeExact) {
  expect_refused(npy("{'descr': '<f8', 'shape': (2, 4)}", kTwoBoids), "lacks 'fortran_order'");
  expect_refused(npy("{'fortran_order': False, 'shape': (2, 4)}", kTwoBoids), "lacks 'descr'");
  expect_refused(npy("{'descr': '<f8', 'fortran_order': False}", kTwoBoids), "lacks 'shape'");
  expect_refused(npy(dict("(2, 4)").substr(0, dict("(2, 4)").size() - 1) + "'x': 1}", kTwoBoids),
                 "unknown key 'x'");
  expect_refused(
      npy("{'descr': '<f8', 'descr': '<f8', 'fortran_order': False, 'shape': (2, 4)}", kTwoBoids),
      "gives 'descr' twice");
  expect_refused(npy(dict("(2, 4)", "'<f8'", "0"), kTwoBoids), "neither True nor False");
  expect_refused(npy(dict("[2, 4]"), kTwoBoids), "its shape is not a tuple");
  expect_refused(npy(dict("(2, -4)"), kTwoBoids), "not a tuple of whole numbers");
  expect_refused(npy(dict("(99999999999999999999, 4)"), kTwoBoids), "too large for 64 bits");
  expect_refused(npy("not a dict", kTwoBoids), "expected '{'");
  expect_refused(npy("{'descr': '<f8'", kTwoBoids), "neither ',' nor '}'");
  expect_refused(npy("{'descr: '<f8'}", kTwoBoids), "not a dict");
  expect_refused(npy("{1: 2}", kTwoBoids), "a key that is not a string");
}

TEST(NpyRefusals, ShapeMustBeNByFourOrSix) {
  expect_refused(npy(dict("(8,)"), kTwoBoids), "its shape (8,) has 1 dimensions, not 2");
  expect_refused(npy(dict("(2, 2, 2)"), kTwoBoids), "(2, 2, 2) has 3 dimensions");
  expect_refused(npy(dict("()"), doubles({1})), "() has 0 dimensions");
  expect_refused(npy(dict("(4, 2)"), kTwoBoids),
                 "its shape is (4, 2); expected (N, 4): x, y, vx, vy, or (N, 6): x, y, z, vx, "
                 "vy, vz");
  // (N, 6) is a flock in three dimensions.
  const FlockState box = parse_npy_state(npy(dict("(1, 6)"), kTwoBoids.substr(0, 48)), "box.npy",
                                         World{100, 100, Boundary::kTorus});
  EXPECT_EQ(box.dimensions, 3);
  EXPECT_EQ(box.size(), 1u);
  EXPECT_EQ(box.z.size(), 1u);
  expect_refused(npy(dict("(0, 4)"), ""), "no boids");
  expect_refused(npy(dict("(2147483648, 4)"), kTwoBoids), "more than 2147483647 boids");
  expect_refused(npy(dict("(2147483647, 4)"), kTwoBoids), "truncated");
}

TEST(NpyRefusals, ValuesAreCheckedLikeCsv) {
  const double nan = std::numeric_limits<double>::quiet_NaN();
  const double inf = std::numeric_limits<double>::infinity();
  expect_refused(npy(dict("(2, 4)"), doubles({1, 2, 3, 4, 1, 2, nan, 4})),
                 "row 1: vx = nan is not finite");
  expect_refused(npy(dict("(2, 4)"), doubles({inf, 2, 3, 4, 1, 2, 3, 4})),
                 "row 0: x = inf is not finite");
  expect_refused(npy(dict("(2, 4)"), doubles({1, 2, 3, -inf, 1, 2, 3, 4})), "vy = -inf");
  expect_refused(npy(dict("(2, 4)"), doubles({1, 2, 3, 4, 100, 2, 3, 4})),
                 "row 1: x = 100 is outside the world [0, 100)");
  expect_refused(npy(dict("(1, 4)"), doubles({1, -5e-324, 3, 4})), "y = -5e-324 is outside");
  expect_refused(npy(dict("(1, 4)"), doubles({60, 2, 3, 4})), "x = 60 is outside the world [0, 50)",
                 World{50, 50, Boundary::kTorus});
}

TEST(NpyFiles, RefusedFromTheFirstBlockAndTheFileSize) {
  const fs::path dir = fs::temp_directory_path() / ("boids_npy_files_" + std::to_string(getpid()));
  fs::create_directories(dir);
  const auto write = [&](const std::string& name, const std::string& bytes) {
    const std::string path = (dir / name).string();
    std::ofstream(path, std::ios::binary) << bytes;
    return path;
  };
  const auto message = [&](const std::string& path) -> std::string {
    try {
      read_state_file(path, kWorld);
    } catch (const InputError& e) {
      return e.what();
    }
    return "accepted";
  };
  // A header announcing a billion boids in a small file: refused from the size alone.
  const std::string big = write("big.npy", npy(dict("(1000000000, 4)"), kTwoBoids));
  EXPECT_NE(message(big).find("truncated: its shape (1000000000, 4) needs"), std::string::npos)
      << message(big);
  const std::string csv = write("csv.npy", "x,y,vx,vy\n1,2,3,4\n");
  EXPECT_NE(message(csv).find("not a NumPy .npy file"), std::string::npos) << message(csv);
  // A .npy file under a CSV name is named for what it is.
  const std::string named = write("state.csv", npy(dict("(2, 4)"), kTwoBoids));
  EXPECT_NE(message(named).find("a NumPy .npy file; give it a name ending in .npy"),
            std::string::npos)
      << message(named);
  const std::string good = write("good.npy", npy(dict("(2, 4)"), kTwoBoids, 3));
  EXPECT_EQ(read_state_file(good, kWorld).size(), 2u);
  fs::remove_all(dir);
}

}  // namespace
}  // namespace boids
