#include "host/io/numeric_csv.h"

#include <sys/stat.h>

#include <algorithm>
#include <cerrno>
#include <charconv>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <sstream>

#include "host/base/errors.h"
#include "host/base/message_text.h"

namespace boids {
namespace {

double parse_field(const std::string& field, const std::string& column, const RowError& error) {
  double value = 0;
  const char* first = field.data();
  const char* last = first + field.size();
  const auto result = std::from_chars(first, last, value);
  if (field.empty()) error.fail("empty value for " + column);
  if (result.ec != std::errc::invalid_argument && result.ptr != last) {
    error.fail(column + " " + quoted(field) + " is not a number");
  }
  if (result.ec == std::errc::result_out_of_range) {
    error.fail(column + " " + quoted(field) + " is " + out_of_range_reason(field));
  }
  if (result.ec != std::errc()) error.fail(column + " " + quoted(field) + " is not a number");
  if (!std::isfinite(value)) error.fail(column + " " + quoted(field) + " is not finite");
  return value;
}

std::string human_bytes(std::uint64_t bytes) {
  const char* units[] = {"bytes", "KiB", "MiB", "GiB", "TiB"};
  double value = static_cast<double>(bytes);
  int unit = 0;
  while (value >= 1024 && unit < 4) {
    value /= 1024;
    ++unit;
  }
  char text[32];
  std::snprintf(text, sizeof text, unit == 0 ? "%.0f %s" : "%.1f %s", value, units[unit]);
  return text;
}

}  // namespace

RowError::RowError(const std::string& kind, const std::string& name, const std::string& where)
    : prefix_(kind + " " + quoted_path(name) + ", " + where + ": ") {}

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
    const std::function<void(const std::vector<double>& values, const RowError& error)>& on_row,
    const CsvPiece& piece) {
  std::string header;
  for (const std::string& column : columns) header += (header.empty() ? "" : ",") + column;
  if (text.empty()) {
    if (!piece.starts_file()) return {0, piece.first_line - 1};
    RowError(kind, name, 1).fail("the file is empty (expected the header '" + header + "')");
  }
  check_text(text, kind, name, piece.first_line);
  const std::string expected =
      "expected " + std::to_string(columns.size()) + " values (" + header + ")";
  std::istringstream lines(text);
  std::string line;
  std::size_t number = piece.first_line - 1, rows = 0;
  std::vector<double> values(columns.size());
  while (std::getline(lines, line)) {
    ++number;
    if (!line.empty() && line.back() == '\r') line.pop_back();
    const RowError error(kind, name, number);
    if (number == 1) {
      if (line != header) error.fail("expected the header '" + header + "', found " + quoted(line));
      continue;
    }
    if (line.empty()) {
      if (piece.ends_file && lines.peek() == std::char_traits<char>::eof()) break;  // final
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

void check_text(const std::string& text, const std::string& kind, const std::string& name,
                std::size_t first_line) {
  if (first_line == 1 && text.rfind("\xEF\xBB\xBF", 0) == 0) {
    RowError(kind, name, 1).fail("starts with a UTF-8 byte-order mark; save it without one");
  }
  if (const auto nul = text.find('\0'); nul != std::string::npos) {
    const auto line =
        static_cast<std::size_t>(std::count(text.begin(), text.begin() + nul, '\n')) + first_line;
    RowError(kind, name, line).fail("not a text file (it contains NUL bytes)");
  }
}

std::string read_input_file(const std::string& path, const std::string& kind,
                            const StartCheck& check_start) {
  // Checked before opening: a directory opens but cannot be read, and a FIFO would block.
  const std::string name = quoted_path(path);
  struct stat info;
  if (stat(path.c_str(), &info) != 0) {
    throw InputError("cannot open " + kind + " " + name + ": " + std::strerror(errno));
  }
  if (S_ISDIR(info.st_mode)) throw InputError(kind + " " + name + " is a directory");
  if (!S_ISREG(info.st_mode)) throw InputError(kind + " " + name + " is not a regular file");
  std::ifstream in(path, std::ios::binary);
  if (!in) throw InputError("cannot open " + kind + " " + name + ": " + std::strerror(errno));
  const auto size = static_cast<std::uint64_t>(info.st_size);
  std::string text(static_cast<std::size_t>(std::min<std::uint64_t>(size, kFirstBlock)), '\0');
  in.read(text.data(), static_cast<std::streamsize>(text.size()));
  text.resize(static_cast<std::size_t>(in.gcount()));
  check_start(text, size);
  // The rest straight into place, then whatever the file grew by since stat.
  const std::size_t first = text.size();
  if (in && size > first) {
    text.resize(static_cast<std::size_t>(size));
    in.read(text.data() + first, static_cast<std::streamsize>(size - first));
    text.resize(first + static_cast<std::size_t>(in.gcount()));
  }
  if (in && in.peek() != std::char_traits<char>::eof()) {
    std::ostringstream rest;
    rest << in.rdbuf();
    text += rest.str();
  }
  if (in.bad()) throw InputError("cannot read " + kind + " " + name);
  return text;
}

void check_csv_size(std::uint64_t size, std::uint64_t max_rows, const std::string& kind,
                    const std::string& name) {
  const std::uint64_t max_bytes = (max_rows + 1) * kMaxCsvLineBytes;
  if (size > max_bytes) {
    throw InputError(kind + " " + quoted_path(name) + " is too large (" + human_bytes(size) +
                     "): " + std::to_string(max_rows) + " rows need at most " +
                     human_bytes(max_bytes));
  }
}

std::string read_csv_file(const std::string& path, const std::string& kind,
                          std::uint64_t max_rows) {
  return read_input_file(path, kind, [&](const std::string& first, std::uint64_t size) {
    check_csv_size(size, max_rows, kind, path);
    check_text(first, kind, path);
  });
}

}  // namespace boids
