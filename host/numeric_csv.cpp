#include "host/numeric_csv.h"

#include <sys/stat.h>

#include <algorithm>
#include <cerrno>
#include <charconv>
#include <cmath>
#include <cstring>
#include <fstream>
#include <sstream>

#include "host/errors.h"

namespace boids {
namespace {

double parse_field(const std::string& field, const std::string& column, const RowError& error) {
  double value = 0;
  const char* first = field.data();
  const char* last = first + field.size();
  const auto result = std::from_chars(first, last, value);
  if (field.empty()) error.fail("empty value for " + column);
  if (result.ec == std::errc::result_out_of_range) {
    error.fail(column + " '" + field + "' is out of range");
  }
  if (result.ec != std::errc() || result.ptr != last) {
    error.fail(column + " '" + field + "' is not a number");
  }
  if (!std::isfinite(value)) error.fail(column + " '" + field + "' is not finite");
  return value;
}

}  // namespace

void RowError::fail(const std::string& message) const {
  throw InputError(prefix_ + message);
}

std::string shortest(double value) {
  char buffer[32];
  const auto result = std::to_chars(buffer, buffer + sizeof buffer, value);
  return std::string(buffer, result.ptr);
}

CsvExtent parse_numeric_csv(
    const std::string& text, const std::string& kind, const std::string& name,
    const std::vector<std::string>& columns,
    const std::function<void(const std::vector<double>& values, const RowError& error)>& on_row) {
  std::string header;
  for (const std::string& column : columns) header += (header.empty() ? "" : ",") + column;
  if (text.empty()) {
    RowError(kind, name, 1).fail("the file is empty (expected the header '" + header + "')");
  }
  if (const auto nul = text.find('\0'); nul != std::string::npos) {
    const auto line =
        static_cast<std::size_t>(std::count(text.begin(), text.begin() + nul, '\n')) + 1;
    RowError(kind, name, line).fail("not a text file (it contains NUL bytes)");
  }
  const std::string expected =
      "expected " + std::to_string(columns.size()) + " values (" + header + ")";
  std::istringstream lines(text);
  std::string line;
  std::size_t number = 0, rows = 0;
  std::vector<double> values(columns.size());
  while (std::getline(lines, line)) {
    ++number;
    if (!line.empty() && line.back() == '\r') line.pop_back();
    const RowError error(kind, name, number);
    if (number == 1) {
      if (line != header) error.fail("expected the header '" + header + "', found '" + line + "'");
      continue;
    }
    if (line.empty()) {
      if (lines.peek() == std::char_traits<char>::eof()) break;  // a final blank line
      error.fail("empty line");
    }
    std::size_t begin = 0;
    for (std::size_t column = 0; column < columns.size(); ++column) {
      const std::size_t comma = line.find(',', begin);
      const bool last = column + 1 == columns.size();
      if (!last && comma == std::string::npos) {
        error.fail(expected + ", found " + std::to_string(column + 1));
      }
      if (last && comma != std::string::npos) error.fail(expected + ", found more");
      const std::size_t end = last ? line.size() : comma;
      values[column] = parse_field(line.substr(begin, end - begin), columns[column], error);
      begin = end + 1;
    }
    on_row(values, error);
    ++rows;
  }
  return {rows, number};
}

std::string read_input_file(const std::string& path, const std::string& kind) {
  // Checked before opening: a directory opens but cannot be read, and a FIFO would block.
  struct stat info;
  if (stat(path.c_str(), &info) != 0) {
    throw InputError("cannot open " + kind + " '" + path + "': " + std::strerror(errno));
  }
  if (S_ISDIR(info.st_mode)) throw InputError(kind + " '" + path + "' is a directory");
  if (!S_ISREG(info.st_mode)) throw InputError(kind + " '" + path + "' is not a regular file");
  std::ifstream in(path, std::ios::binary);
  if (!in) throw InputError("cannot open " + kind + " '" + path + "': " + std::strerror(errno));
  std::ostringstream text;
  if (in.peek() != std::char_traits<char>::eof()) text << in.rdbuf();
  if (in.bad()) throw InputError("cannot read " + kind + " '" + path + "'");
  return text.str();
}

}  // namespace boids
