// Numeric CSV files as boids reads them (state files, obstacle files): an exact header, then a
// fixed number of finite numbers a line. Every failure is an InputError naming the file's kind,
// the file and the line.
#pragma once

#include <functional>
#include <string>
#include <vector>

namespace boids {

// Where a row came from, to name it in an error.
class RowError {
 public:
  RowError(const std::string& kind, const std::string& name, std::size_t line)
      : prefix_(kind + " '" + name + "', line " + std::to_string(line) + ": ") {}
  [[noreturn]] void fail(const std::string& message) const;

 private:
  std::string prefix_;
};

// Parses `text` (the contents of the file `name`, a `kind` such as "state file"): the header
// is the `columns` joined by commas; each later line holds one finite number per column and is
// handed to on_row(values, error). A final blank line is allowed; other blank lines, NUL bytes,
// missing or extra values and anything that is not a finite number are refused.
struct CsvExtent {
  std::size_t rows;   // data rows
  std::size_t lines;  // lines read, the header included
};
CsvExtent parse_numeric_csv(
    const std::string& text, const std::string& kind, const std::string& name,
    const std::vector<std::string>& columns,
    const std::function<void(const std::vector<double>& values, const RowError& error)>& on_row);

// The contents of a regular file, or an InputError saying why not (missing, a directory, not
// a regular file such as a FIFO, unreadable).
std::string read_input_file(const std::string& path, const std::string& kind);

// The shortest text that reads back as the same double.
std::string shortest(double value);

}  // namespace boids
