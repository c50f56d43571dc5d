#include "host/state_file.h"

#include <sys/stat.h>

#include <algorithm>
#include <cerrno>
#include <charconv>
#include <cmath>
#include <cstring>
#include <fstream>
#include <sstream>

#include "host/errors.h"
#include "host/output_file.h"

namespace boids {
namespace {

constexpr const char* kHeader = "x,y,vx,vy";

std::string shortest(double value) {
  char buffer[32];
  const auto result = std::to_chars(buffer, buffer + sizeof buffer, value);
  return std::string(buffer, result.ptr);
}

class LineError {
 public:
  LineError(const std::string& name, std::size_t line)
      : prefix_("state file '" + name + "', line " + std::to_string(line) + ": ") {}
  [[noreturn]] void fail(const std::string& message) const { throw InputError(prefix_ + message); }

 private:
  std::string prefix_;
};

double parse_field(const std::string& field, const char* column, const LineError& error) {
  double value = 0;
  const char* first = field.data();
  const char* last = first + field.size();
  const auto result = std::from_chars(first, last, value);
  if (field.empty()) error.fail(std::string("empty value for ") + column);
  if (result.ec == std::errc::result_out_of_range) {
    error.fail(std::string(column) + " '" + field + "' is out of range");
  }
  if (result.ec != std::errc() || result.ptr != last) {
    error.fail(std::string(column) + " '" + field + "' is not a number");
  }
  if (!std::isfinite(value)) error.fail(std::string(column) + " '" + field + "' is not finite");
  return value;
}

}  // namespace

FlockState parse_state(const std::string& text, const std::string& name, double world) {
  if (text.empty())
    LineError(name, 1).fail("the file is empty (expected the header '" + std::string(kHeader) +
                            "')");
  if (const auto nul = text.find('\0'); nul != std::string::npos) {
    const auto line =
        static_cast<std::size_t>(std::count(text.begin(), text.begin() + nul, '\n')) + 1;
    LineError(name, line).fail("not a text file (it contains NUL bytes)");
  }
  FlockState state;
  std::istringstream lines(text);
  std::string line;
  std::size_t number = 0;
  static const char* const columns[] = {"x", "y", "vx", "vy"};
  while (std::getline(lines, line)) {
    ++number;
    if (!line.empty() && line.back() == '\r') line.pop_back();
    const LineError error(name, number);
    if (number == 1) {
      if (line != kHeader)
        error.fail("expected the header '" + std::string(kHeader) + "', found '" + line + "'");
      continue;
    }
    if (line.empty()) {
      if (lines.peek() == std::char_traits<char>::eof()) break;  // a final blank line
      error.fail("empty line");
    }
    double values[4];
    std::size_t begin = 0;
    for (int column = 0; column < 4; ++column) {
      const std::size_t comma = line.find(',', begin);
      const bool last = column == 3;
      if (!last && comma == std::string::npos) {
        error.fail("expected 4 values (x,y,vx,vy), found " + std::to_string(column + 1));
      }
      if (last && comma != std::string::npos)
        error.fail("expected 4 values (x,y,vx,vy), found more");
      const std::size_t end = last ? line.size() : comma;
      values[column] = parse_field(line.substr(begin, end - begin), columns[column], error);
      begin = end + 1;
    }
    for (int column = 0; column < 2; ++column) {
      if (!(values[column] >= 0 && values[column] < world)) {
        error.fail(std::string(columns[column]) + " = " + shortest(values[column]) +
                   " is outside the world [0, " + shortest(world) + ")");
      }
    }
    if (state.size() >= kMaxBoids) error.fail("more than " + std::to_string(kMaxBoids) + " boids");
    state.x.push_back(values[0]);
    state.y.push_back(values[1]);
    state.vx.push_back(values[2]);
    state.vy.push_back(values[3]);
  }
  if (state.size() == 0)
    LineError(name, number + 1).fail("no boids (the file ends after the header)");
  return state;
}

FlockState read_state_file(const std::string& path, double world) {
  // Checked before opening: a directory opens but cannot be read, and a FIFO would block.
  struct stat info;
  if (stat(path.c_str(), &info) != 0) {
    throw InputError("cannot open state file '" + path + "': " + std::strerror(errno));
  }
  if (S_ISDIR(info.st_mode)) throw InputError("state file '" + path + "' is a directory");
  if (!S_ISREG(info.st_mode)) throw InputError("state file '" + path + "' is not a regular file");
  std::ifstream in(path, std::ios::binary);
  if (!in) throw InputError("cannot open state file '" + path + "': " + std::strerror(errno));
  std::ostringstream text;
  if (in.peek() != std::char_traits<char>::eof()) text << in.rdbuf();
  if (in.bad()) throw InputError("cannot read state file '" + path + "'");
  return parse_state(text.str(), path, world);
}

std::string format_state(const FlockState& state) {
  std::string out = std::string(kHeader) + "\n";
  out.reserve(out.size() + state.size() * 80);
  for (std::size_t i = 0; i < state.size(); ++i) {
    out += shortest(state.x[i]);
    out += ',';
    out += shortest(state.y[i]);
    out += ',';
    out += shortest(state.vx[i]);
    out += ',';
    out += shortest(state.vy[i]);
    out += '\n';
  }
  return out;
}

void write_state_file(const std::string& path, const FlockState& state) {
  write_file_atomically(path, format_state(state));
}

}  // namespace boids
