// Error messages about hostile input: whatever a file or an option holds, the message is one
// readable line (control characters and stray bytes escaped, long text cut), a number out of
// range says which way, and a huge or binary file is refused before it is read whole.
#include <gtest/gtest.h>
#include <unistd.h>

#include <chrono>
#include <filesystem>
#include <fstream>
#include <string>

#include "host/base/errors.h"
#include "host/base/message_text.h"
#include "host/io/obstacle_file.h"
#include "host/io/state_file.h"
#include "host/tools/options.h"
#include "tests/support/test_directory.h"

namespace boids {
namespace {

namespace fs = std::filesystem;

// The message of the InputError that `body` throws ("" and a failure if none).
template <typename Body>
std::string message_of(Body&& body) {
  try {
    body();
    ADD_FAILURE() << "accepted";
  } catch (const InputError& e) {
    return e.what();
  } catch (const std::exception& e) {
    ADD_FAILURE() << "not an InputError: " << e.what();
  }
  return "";
}

// One line of printable text: no byte below 0x20, no DEL.
void expect_one_clean_line(const std::string& message) {
  for (const char c : message) {
    const auto byte = static_cast<unsigned char>(c);
    EXPECT_TRUE(byte >= 0x20 && byte != 0x7F) << "byte " << int(byte) << " in: " << message;
  }
}

void expect_has(const std::string& message, const std::string& part) {
  EXPECT_NE(message.find(part), std::string::npos) << "'" << part << "' not in: " << message;
}

TEST(MessageText, EscapesControlCharactersAndStrayBytes) {
  EXPECT_EQ(escaped("plain text, 1.5e3"), "plain text, 1.5e3");
  EXPECT_EQ(escaped("a\tb\nc\rd"), "a\\tb\\nc\\rd");
  EXPECT_EQ(escaped(std::string("\x01\x1b[31m\x7f\0", 8)), "\\x01\\x1B[31m\\x7F\\x00");
  EXPECT_EQ(escaped("caf\xC3\xA9 \xE2\x82\xAC \xF0\x9F\x90\xA6"),
            "caf\xC3\xA9 \xE2\x82\xAC \xF0\x9F\x90\xA6");
  EXPECT_EQ(escaped("\xFF\xFE"), "\\xFF\\xFE");
  EXPECT_EQ(escaped("\xC3"), "\\xC3");                    // a sequence cut short
  EXPECT_EQ(escaped("\xC0\xAF"), "\\xC0\\xAF");           // overlong
  EXPECT_EQ(escaped("\xED\xA0\x80"), "\\xED\\xA0\\x80");  // a surrogate
  EXPECT_EQ(escaped("\xC2\x85"), "\\xC2\\x85");           // C1 control NEL
}

TEST(MessageText, QuotedCutsLongTextAndSaysItsLength) {
  EXPECT_EQ(quoted("abc"), "'abc'");
  EXPECT_EQ(quoted(std::string(40, 'x')), "'" + std::string(40, 'x') + "'");
  EXPECT_EQ(quoted(std::string(5000, 'x')), "'" + std::string(40, 'x') + "...' (5000 bytes)");
  // Not in the middle of a character: 39 bytes, then a two-byte character.
  const std::string text = std::string(39, 'a') + "\xC3\xA9" + "tail";
  EXPECT_EQ(quoted(text), "'" + std::string(39, 'a') + "...' (45 bytes)");
  // The limit is on what is shown: stray bytes take four characters each.
  EXPECT_EQ(quoted(std::string(100, '\xFF')),
            "'" + escaped(std::string(10, '\xFF')) + "...' (100 bytes)");
  EXPECT_EQ(quoted(std::string(20, '\x01')),
            "'" + escaped(std::string(10, '\x01')) + "...' (20 bytes)");
  EXPECT_EQ(quoted(std::string(10, '\t')), "'" + escaped(std::string(10, '\t')) + "'");
  EXPECT_EQ(quoted_path(std::string(100, 'p') + "\n"), "'" + std::string(100, 'p') + "\\n'");
}

TEST(MessageText, OutOfRangeSaysWhichWay) {
  for (const char* large :
       {"1e400", "-1e400", "123456789e300", "1e99999999999999999999999", "0.001e312"}) {
    EXPECT_EQ(out_of_range_reason(large), "too large") << large;
  }
  EXPECT_EQ(out_of_range_reason(std::string(400, '9')), "too large");
  EXPECT_EQ(out_of_range_reason("1" + std::string(400, '0') + "e-100"), "too large");
  for (const char* small : {"1e-400", "-1e-400", "0.0001e-330", "1000000e-340",
                            "1e-99999999999999999999999", "2.4E-324"}) {
    EXPECT_EQ(out_of_range_reason(small), "too small (underflows to 0)") << small;
  }
  EXPECT_EQ(out_of_range_reason("0." + std::string(400, '0') + "1"), "too small (underflows to 0)");
}

TEST(MessageText, NumbersInTheirShortestForm) {
  EXPECT_EQ(boids::number_text(2e-8), "2e-8");
  EXPECT_EQ(boids::number_text(10.0), "10");
  EXPECT_EQ(boids::number_text(0.3), "0.3");
  EXPECT_EQ(boids::number_text(0.1 + 0.2), "0.30000000000000004");
  EXPECT_EQ(boids::number_text(1e300), "1e300");
  EXPECT_EQ(boids::number_text(-1.5e-100), "-1.5e-100");
  EXPECT_EQ(boids::number_text(0.0), "0");
  EXPECT_EQ(boids::number_text(123456789012.0), "123456789012");
}

TEST(OptionValues, OutOfRangeNumbersSayWhichWay) {
  std::string m = message_of([] { tools::parse_positive("--radius", "1e-400"); });
  expect_has(m, "--radius");
  expect_has(m, "'1e-400' is too small (underflows to 0)");
  m = message_of([] { tools::parse_real("--goal", "-1e999"); });
  expect_has(m, "'-1e999' is too large");
  m = message_of([] { tools::parse_non_negative("--noise", "0." + std::string(500, '0') + "1"); });
  expect_has(m, "too small (underflows to 0)");
  expect_has(m, "(503 bytes)");
  // Subnormals are numbers, not underflows.
  EXPECT_EQ(tools::parse_positive("--radius", "5e-324"), 5e-324);
}

TEST(OptionValues, AWholeNumberMayBeWrittenWithAnExponent) {
  EXPECT_EQ(tools::parse_whole("--count", "1e6", 1), 1000000u);
  EXPECT_EQ(tools::parse_whole("--count", "2.5E3", 1), 2500u);
  EXPECT_EQ(tools::parse_whole("--count", "1e+2", 1), 100u);
  EXPECT_EQ(tools::parse_whole("--steps", "9007199254740992", 1), 9007199254740992u);
  const std::string half = message_of([] { tools::parse_whole("--count", "1.5e0", 1); });
  expect_has(half, "expected a whole number from 1");
  expect_has(half, "got '1.5e0'");
  expect_has(message_of([] { tools::parse_whole("--count", "1e-3", 1); }), "expected a whole");
  expect_has(message_of([] { tools::parse_whole("--count", "3e9", 1, 2147483647); }),
             "to 2147483647");
  expect_has(message_of([] { tools::parse_whole("--seed", "1e17", 0); }),
             "write a number this large in digits");
  // A long argument is read without recursion (std::regex's overflowed the stack).
  expect_has(message_of([] { tools::parse_whole("--count", std::string(1000000, '7') + "e1", 1); }),
             "expected a whole number from 1");
}

TEST(OptionValues, EchoedValuesAreEscapedAndCut) {
  tools::OptionParser parser("usage");
  parser.add_value("--count", "N", "",
                   [](const std::string& v) { tools::parse_whole("--count", v, 1); });
  parser.add_value("--radius", "R", "",
                   [](const std::string& v) { tools::parse_positive("--radius", v); });
  for (const std::vector<std::string>& args :
       std::vector<std::vector<std::string>>{{"--count", "1\x01\x02"},
                                             {"--count", std::string(10000, '7') + "\n"},
                                             {"--radius", "1.5\t"},
                                             {"--radius", "\x1b[2J" + std::string(100, 'z')},
                                             {"--radi\nus", "1"},
                                             {"positional\r\n"},
                                             {"--" + std::string(300, '-') + "\x7f"}}) {
    const std::string m = message_of([&] { parser.parse(args); });
    expect_one_clean_line(m);
    EXPECT_LT(m.size(), 200u) << m;
  }
  expect_has(message_of([&] { parser.parse({"--count", "1\x01"}); }), "'1\\x01'");
  expect_has(message_of([&] {
               parser.parse({"--count", std::string(10000, '7')});
             }),
             "(10000 bytes)");
}

// ---------------------------------------------------------------------------------------
// Files

const World kWorld{100, 100, Boundary::kTorus};

TEST(CsvMessages, ByteOrderMarkIsNamed) {
  const std::string m =
      message_of([] { parse_state("\xEF\xBB\xBFx,y,vx,vy\n1,2,3,4\n", "f.csv", kWorld); });
  expect_has(m, "line 1: starts with a UTF-8 byte-order mark; save it without one");
  expect_has(message_of([] { parse_obstacles("\xEF\xBB\xBFx,y,radius\n", "r.csv", kWorld); }),
             "byte-order mark");
}

TEST(CsvMessages, FieldsAndHeadersAreEscapedAndCut) {
  const std::string header = "x,y,vx,vy\n";
  const std::string cases[] = {
      header + "1,2,\x01,4\n",
      header + "1,2,3,4\x1b[0m\n",
      header + "1,2," + std::string(100000, '5') + "x,4\n",
      header + "1\t,2,3,4\n",
      header + "1,2,3,\xFF\xFE\n",
      "x,y,vx,vy\t\n1,2,3,4\n",
      "x,y," + std::string(5000, 'v') + "\n",
      "\x1b]0;title\x07\n",
  };
  for (const std::string& text : cases) {
    const std::string m = message_of([&] { parse_state(text, "f.csv", kWorld); });
    expect_one_clean_line(m);
    EXPECT_LT(m.size(), 250u) << m;
  }
  expect_has(message_of([&] { parse_state(cases[0], "f.csv", kWorld); }), "vx '\\x01'");
  expect_has(message_of([&] { parse_state(cases[2], "f.csv", kWorld); }), "(100001 bytes)");
  expect_has(message_of([&] { parse_state(cases[5], "f.csv", kWorld); }), "found 'x,y,vx,vy\\t'");
  const std::string obstacle =
      message_of([] { parse_obstacles("x,y,radius\n1,2,\x02\n", "r.csv", kWorld); });
  expect_has(obstacle, "radius '\\x02'");
  // A file name is escaped, not cut.
  const std::string name = std::string(60, 'n') + "\n.csv";
  expect_has(message_of([&] { parse_state("x\n", name, kWorld); }),
             "'" + std::string(60, 'n') + "\\n.csv'");
}

TEST(CsvMessages, OutOfRangeSaysWhichWay) {
  expect_has(message_of([] { parse_state("x,y,vx,vy\n1,2,1e-400,4\n", "f", kWorld); }),
             "line 2: vx '1e-400' is too small (underflows to 0)");
  expect_has(message_of([] { parse_state("x,y,vx,vy\n1,2,3,-1e309\n", "f", kWorld); }),
             "vy '-1e309' is too large");
  expect_has(message_of([] { parse_obstacles("x,y,radius\n1,2,1e-999\n", "r", kWorld); }),
             "radius '1e-999' is too small");
  expect_has(message_of([] { parse_state("x,y,vx,vy\n1,2,1e999x,4\n", "f", kWorld); }),
             "is not a number");
}

class LargeInputFiles : public test_support::TestDirectory {
 protected:
  LargeInputFiles() : TestDirectory("boids_messages") {}
  // A file that starts with `start` and is `size` bytes long, sparse where the file system
  // allows: its size, not its contents, is what the reader must not trust.
  std::string make(const std::string& name, const std::string& start, std::uintmax_t size) {
    const std::string path = (dir_ / name).string();
    std::ofstream(path, std::ios::binary) << start;
    std::error_code error;
    fs::resize_file(path, size, error);
    if (error) return "";
    return path;
  }
  // The message of reading `path` as a state file, and how long the refusal took.
  static std::string refusal(const std::string& path, double* seconds) {
    const auto start = std::chrono::steady_clock::now();
    const std::string m = message_of([&] { read_state_file(path, kWorld); });
    *seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    return m;
  }
};

// 64 GiB: a reader that read it whole would run out of memory, or take minutes.
constexpr std::uintmax_t kHuge = std::uintmax_t{1} << 36;

TEST_F(LargeInputFiles, BinaryStateFileIsRefusedFromItsFirstBlock) {
  const std::string path = make("zeros.csv", "", kHuge);
  if (path.empty()) GTEST_SKIP() << "cannot make a 64 GiB sparse file here";
  double seconds = 0;
  const std::string m = refusal(path, &seconds);
  expect_has(m, "not a text file (it contains NUL bytes)");
  EXPECT_LT(seconds, 1.0);
  const std::string npy = make("zeros.npy", "", kHuge);
  expect_has(refusal(npy, &seconds), "not a NumPy .npy file");
  EXPECT_LT(seconds, 1.0);
}

TEST_F(LargeInputFiles, TooLargeForAnyFlockIsRefusedBeforeReading) {
  // Text at the start, and more bytes than 2^31 lines could need.
  const std::string path = make("huge.csv", "x,y,vx,vy\n1,2,3,4\n", std::uintmax_t{1} << 40);
  if (path.empty()) GTEST_SKIP() << "cannot make a 1 TiB sparse file here";
  double seconds = 0;
  const std::string m = refusal(path, &seconds);
  expect_has(m, "is too large (1.0 TiB)");
  EXPECT_LT(seconds, 1.0);
  // Obstacle files hold at most 100000 obstacles, so a few megabytes.
  const std::string rocks = make("rocks.csv", "x,y,radius\n", 100 << 20);
  expect_has(message_of([&] { read_obstacle_file(rocks, kWorld); }), "is too large (100.0 MiB)");
}

TEST_F(LargeInputFiles, NulBeyondTheFirstBlockIsStillFound) {
  std::string text = "x,y,vx,vy\n";
  while (text.size() < 100000) text += "1,2,3,4\n";
  text += std::string("1,2,\0,4\n", 8);
  const std::string path = make("late.csv", text, text.size());
  double seconds = 0;
  expect_has(refusal(path, &seconds), "line 12501: not a text file");
}

}  // namespace
}  // namespace boids
