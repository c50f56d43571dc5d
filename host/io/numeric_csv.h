// Numeric CSV files as boids reads them (state files, obstacle files): an exact header, then a
// fixed number of finite numbers a line. Every failure is an InputError naming the file's kind,
// the file and the line.
#pragma once

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

namespace boids {

// Where a row came from, to name it in an error.
class RowError {
 public:
  RowError(const std::string& kind, const std::string& name, std::size_t line)
      : RowError(kind, name, "line " + std::to_string(line)) {}
  // `where` names the place in the file: "line 3", "row 7".
  RowError(const std::string& kind, const std::string& name, const std::string& where);
  [[noreturn]] void fail(const std::string& message) const;

 private:
  std::string prefix_;
};

// Parses `text` (the contents of the file `name`, a `kind` such as "state file"): the header
// is the `columns` joined by commas; each later line holds one finite number per column and is
// handed to on_row(values, error). A final blank line is allowed; other blank lines, NUL bytes,
// a byte-order mark, missing or extra values and anything that is not a finite number are
// refused. Text from the file that a message echoes is escaped and cut (host/base/message_text.h).
struct CsvExtent {
  std::size_t rows;   // data rows
  std::size_t lines;  // lines read, the header included (with a piece: the last line's number)
};
// A piece of such a file, whole lines, read by one of several readers (an MPI rank's lines):
// the number of its first line, whether it holds the header (the file's start) and whether
// it ends the file (where a final blank line is allowed). By default, the whole file.
struct CsvPiece {
  std::size_t first_line = 1;
  bool ends_file = true;
  bool starts_file() const { return first_line == 1; }
};
CsvExtent parse_numeric_csv(
    const std::string& text, const std::string& kind, const std::string& name,
    const std::vector<std::string>& columns,
    const std::function<void(const std::vector<double>& values, const RowError& error)>& on_row,
    const CsvPiece& piece = {});

// How much of an input file is read first: enough to refuse a file that is not what it should
// be (binary where text is expected, a wrong magic number) without reading all of it.
inline constexpr std::size_t kFirstBlock = 64 * 1024;

// The contents of a regular file, or an InputError saying why not (missing, a directory, not
// a regular file such as a FIFO, unreadable). The first block (at most kFirstBlock bytes) is
// handed to check_start(first_block, file_size) before the rest is read; it throws to refuse.
using StartCheck = std::function<void(const std::string& first_block, std::uint64_t size)>;
std::string read_input_file(const std::string& path, const std::string& kind,
                            const StartCheck& check_start);

// What a line of numbers may take on average, in a file's size limit: four doubles in their
// shortest form take at most 101 bytes, and this leaves room for numbers written longer.
inline constexpr std::uint64_t kMaxCsvLineBytes = 256;

// Refuses a file of `size` bytes that is larger than `max_rows` rows could need.
void check_csv_size(std::uint64_t size, std::uint64_t max_rows, const std::string& kind,
                    const std::string& name);

// A numeric CSV file of at most `max_rows` rows, read whole once its size (at most
// kMaxCsvLineBytes a line) and its first block (text: no NUL bytes, no byte-order mark) pass.
std::string read_csv_file(const std::string& path, const std::string& kind, std::uint64_t max_rows);

// Refuses text that cannot be a CSV file: a UTF-8 byte-order mark at its start, or NUL bytes
// (naming the line of the first, the text's first line numbered `first_line`: a piece's).
void check_text(const std::string& text, const std::string& kind, const std::string& name,
                std::size_t first_line = 1);

// The shortest text that reads back as the same double.
std::string shortest(double value);

}  // namespace boids
