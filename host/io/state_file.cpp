#include "host/io/state_file.h"

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <fstream>

#include <cctype>
#include <cmath>

#include "host/base/errors.h"
#include "host/base/message_text.h"
#include "host/core/simulation.h"
#include "host/core/value_limits.h"
#include "host/io/detail/state_rows.h"
#include "host/io/flock_writer.h"
#include "host/io/npy_file.h"
#include "host/io/numeric_csv.h"
#include "host/io/output_file.h"

namespace boids {
namespace {

using state_rows::acceptable_row;
using state_rows::columns_of;
using state_rows::row_problem;

World square(double side) {
  return World{side, side, Boundary::kTorus};
}

// The shape of a state: (N, 4), or (N, 6) in three dimensions, with 1 <= N <= kMaxBoids.
void check_state_shape(const NpyMatrix& m, const std::string& name) {
  const auto fail = [&](const std::string& message) {
    throw InputError("state file " + quoted_path(name) + ": " + message);
  };
  const std::string shape = "(" + std::to_string(m.rows) + ", " + std::to_string(m.columns) + ")";
  if (m.columns != 4 && m.columns != 6) {
    fail("its shape is " + shape +
         "; expected (N, 4): x, y, vx, vy, or (N, 6): x, y, z, vx, vy, vz");
  }
  if (m.rows == 0) fail("no boids (its shape is " + shape + ")");
  if (m.rows > kMaxBoids) fail("more than " + std::to_string(kMaxBoids) + " boids " + shape);
}

// Thrown by a start check that has read all it needs of a file.
struct ReadEnough {};

// The header and the shape from the first block, and the size from the file system, before
// a .npy file is read whole.
void check_npy_start(const std::string& first, std::uint64_t size, const std::string& name) {
  const NpyMatrix m = parse_npy_header(first, "state file", name);
  check_state_shape(m, name);
  check_npy_size(m, size, "state file", name);
}

// A CSV state file's start: text, and not a .npy file under another name.
void check_csv_start(const std::string& first, const std::string& name) {
  if (has_npy_magic(first)) {
    throw InputError("state file " + quoted_path(name) +
                     ": a NumPy .npy file; give it a name ending in .npy");
  }
  check_text(first, "state file", name);
}

}  // namespace

int csv_state_dimensions(const std::string& text) {
  std::string header = text.substr(0, text.find('\n'));
  if (!header.empty() && header.back() == '\r') header.pop_back();
  return header == "x,y,z,vx,vy,vz" ? 3 : 2;
}

namespace {

FlockState parse_state_rows(const std::string& text, const std::string& name, const World& world,
                            int dimensions, const CsvPiece& piece, std::uint64_t rows_before,
                            CsvExtent& extent) {
  FlockState state;
  state.dimensions = dimensions;
  const std::vector<std::vector<double>*> out = state.columns();
  extent = parse_numeric_csv(
      text, "state file", name, columns_of(dimensions),
      [&](const std::vector<double>& v, const RowError& error) {
        if (!acceptable_row(v.data(), dimensions, world)) {
          error.fail(row_problem(v.data(), dimensions, world));
        }
        if (rows_before + state.size() >= kMaxBoids) {
          error.fail("more than " + std::to_string(kMaxBoids) + " boids");
        }
        for (std::size_t c = 0; c < out.size(); ++c) out[c]->push_back(v[c]);
      },
      piece);
  return state;
}

}  // namespace

FlockState parse_state_piece(const std::string& text, const std::string& name, const World& world,
                             int dimensions, const CsvPiece& piece, std::uint64_t rows_before) {
  CsvExtent extent{};
  return parse_state_rows(text, name, world, dimensions, piece, rows_before, extent);
}

FlockState parse_state(const std::string& text, const std::string& name, const World& world) {
  CsvExtent extent{};
  FlockState state =
      parse_state_rows(text, name, world, csv_state_dimensions(text), CsvPiece{}, 0, extent);
  if (extent.rows == 0) {
    RowError("state file", name, extent.lines + 1)
        .fail("no boids (the file ends after the header)");
  }
  return state;
}

FlockState parse_npy_state(const std::string& bytes, const std::string& name, const World& world) {
  const NpyMatrix m = parse_npy_header(bytes, "state file", name);
  check_state_shape(m, name);
  check_npy_size(m, bytes.size(), "state file", name);
  FlockState state;
  state.dimensions = m.columns == 6 ? 3 : 2;
  state.resize(m.rows);
  const std::vector<std::vector<double>*> out = state.columns();
  for (std::uint64_t row = 0; row < m.rows; ++row) {
    double v[6] = {};
    for (std::uint64_t c = 0; c < m.columns; ++c) v[c] = npy_value(bytes, m, row, c);
    // The message is built only for a row that fails: built for every row, it would take
    // longer than the reading.
    if (!acceptable_row(v, state.dimensions, world)) {
      RowError("state file", name, "row " + std::to_string(row))
          .fail(row_problem(v, state.dimensions, world));
    }
    for (std::uint64_t c = 0; c < m.columns; ++c) (*out[c])[row] = v[c];
  }
  return state;
}

FlockState state_from_rows(const double* rows, std::uint64_t count, const World& world,
                           const std::string& what, int dimensions) {
  if (count == 0) throw InputError(what + ": no boids");
  if (count > kMaxBoids) {
    throw InputError(what + ": more than " + std::to_string(kMaxBoids) + " boids");
  }
  FlockState state;
  state.dimensions = dimensions;
  state.resize(count);
  const StateView out = StateView::of(state);
  const auto width = static_cast<std::uint64_t>(2 * dimensions);
  for (std::uint64_t row = 0; row < count; ++row) {
    const double* v = rows + width * row;
    if (!acceptable_row(v, dimensions, world)) {
      throw InputError(what + ", row " + std::to_string(row) + ": " +
                       row_problem(v, dimensions, world));
    }
    out.x[row] = v[0];
    out.y[row] = v[1];
    out.vx[row] = v[dimensions];
    out.vy[row] = v[dimensions + 1];
    if (dimensions == 3) {
      out.z[row] = v[2];
      out.vz[row] = v[5];
    }
  }
  return state;
}

bool is_npy_name(const std::string& path) {
  return has_extension(path, ".npy");
}

NpyMatrix npy_state_matrix(const std::string& path) {
  NpyMatrix m;
  try {
    read_input_file(path, "state file", [&](const std::string& first, std::uint64_t size) {
      check_npy_start(first, size, path);
      m = parse_npy_header(first, "state file", path);
      throw ReadEnough{};
    });
  } catch (const ReadEnough&) {
  }
  return m;
}

FlockState npy_state_rows(const NpyMatrix& m, const double* values, std::uint64_t first,
                          std::uint64_t count, const std::string& name, const World& world) {
  FlockState state;
  state.dimensions = m.columns == 6 ? 3 : 2;
  state.resize(count);
  const std::vector<std::vector<double>*> out = state.columns();
  for (std::uint64_t row = 0; row < count; ++row) {
    const double* v = values + row * m.columns;
    if (!acceptable_row(v, state.dimensions, world)) {
      RowError("state file", name, "row " + std::to_string(first + row))
          .fail(row_problem(v, state.dimensions, world));
    }
    for (std::uint64_t c = 0; c < m.columns; ++c) (*out[c])[row] = v[c];
  }
  return state;
}

std::vector<double> npy_rows(const NpyMatrix& m, std::uint64_t first, std::uint64_t count,
                             const NpyRangeReader& read) {
  std::vector<double> values(count * m.columns);
  if (count == 0) return values;
  if (!m.fortran_order) {
    read(m.data_offset + first * m.columns * 8, values.data(), values.size());
    return values;
  }
  std::vector<double> column(count);
  for (std::uint64_t c = 0; c < m.columns; ++c) {
    read(m.data_offset + (c * m.rows + first) * 8, column.data(), count);
    for (std::uint64_t i = 0; i < count; ++i) values[i * m.columns + c] = column[i];
  }
  return values;
}

FlockState read_npy_state_rows(const std::string& path, const NpyMatrix& m, std::uint64_t first,
                               std::uint64_t count, const World& world) {
  std::ifstream file(path, std::ios::binary);
  const std::vector<double> values =
      npy_rows(m, first, count, [&](std::uint64_t at, double* into, std::uint64_t n) {
        file.seekg(static_cast<std::streamoff>(at));
        if (!file.read(reinterpret_cast<char*>(into), static_cast<std::streamsize>(n * 8))) {
          throw InputError("cannot read state file " + quoted_path(path) + ": " +
                           std::strerror(errno));
        }
      });
  return npy_state_rows(m, values.data(), first, count, path, world);
}

std::uint64_t state_file_rows(const std::string& path) {
  if (is_npy_name(path)) {
    std::uint64_t rows = 0;
    try {
      read_input_file(path, "state file", [&](const std::string& first, std::uint64_t size) {
        check_npy_start(first, size, path);
        rows = parse_npy_header(first, "state file", path).rows;
        throw ReadEnough{};
      });
    } catch (const ReadEnough&) {
    }
    return rows;
  }
  try {
    read_input_file(path, "state file", [&](const std::string& first, std::uint64_t size) {
      check_csv_size(size, kMaxBoids, "state file", path);
      check_csv_start(first, path);
      throw ReadEnough{};
    });
  } catch (const ReadEnough&) {
  }
  // Lines after the header; a final line without its newline counts.
  std::ifstream file(path, std::ios::binary);
  std::vector<char> block(1 << 20);
  std::uint64_t lines = 0;
  char last = '\n';
  while (file) {
    file.read(block.data(), static_cast<std::streamsize>(block.size()));
    const auto got = static_cast<std::size_t>(file.gcount());
    if (got == 0) break;
    lines += static_cast<std::uint64_t>(std::count(block.begin(), block.begin() + got, '\n'));
    last = block[got - 1];
  }
  if (last != '\n') ++lines;
  return lines > 0 ? lines - 1 : 0;
}

int state_file_dimensions(const std::string& path) {
  int dimensions = 2;
  try {
    read_input_file(path, "state file", [&](const std::string& first, std::uint64_t size) {
      if (is_npy_name(path)) {
        check_npy_start(first, size, path);
        dimensions = parse_npy_header(first, "state file", path).columns == 6 ? 3 : 2;
      } else {
        check_csv_start(first, path);
        dimensions = csv_state_dimensions(first);
      }
      throw ReadEnough{};
    });
  } catch (const ReadEnough&) {
  }
  return dimensions;
}

FlockState read_state_file(const std::string& path, const World& world) {
  if (is_npy_name(path)) {
    const std::string bytes = read_input_file(
        path, "state file",
        [&](const std::string& first, std::uint64_t size) { check_npy_start(first, size, path); });
    return parse_npy_state(bytes, path, world);
  }
  const std::string text =
      read_input_file(path, "state file", [&](const std::string& first, std::uint64_t size) {
        check_csv_size(size, kMaxBoids, "state file", path);
        check_csv_start(first, path);
      });
  return parse_state(text, path, world);
}

FlockState parse_state(const std::string& text, const std::string& name, double world) {
  return parse_state(text, name, square(world));
}

FlockState read_state_file(const std::string& path, double world) {
  return read_state_file(path, square(world));
}

std::string state_header_line(int dimensions) {
  std::string out;
  for (const std::string& name : columns_of(dimensions)) out += (out.empty() ? "" : ",") + name;
  return out + '\n';
}

std::string predator_state_path(const std::string& path) {
  const std::size_t slash = path.find_last_of('/');
  const std::size_t name = slash == std::string::npos ? 0 : slash + 1;
  const std::size_t dot = path.find_last_of('.');
  if (dot == std::string::npos || dot <= name) return path + ".predators";
  return path.substr(0, dot) + ".predators" + path.substr(dot);
}

void write_state_file(const FlockState& state, bool npy, const OutputFiles::ByteSink& sink) {
  WholeFileSink whole(sink);
  write_state_share(whole, {state, 0, state.size()}, npy);
}

std::string format_state_file(const std::string& path, const FlockState& state) {
  std::string bytes;
  write_state_file(state, is_npy_name(path), [&](const void* data, std::size_t size) {
    bytes.append(static_cast<const char*>(data), size);
  });
  return bytes;
}

std::string format_state(const FlockState& state) {
  return format_state_file("state.csv", state);
}

std::string format_npy_state(const FlockState& state) {
  return format_state_file("state.npy", state);
}

void write_state_file(OutputFiles& files, const std::string& option, const std::string& path,
                      const FlockState& state) {
  files.write_pieces(option, [&](const OutputFiles::ByteSink& sink) {
    write_state_file(state, is_npy_name(path), sink);
  });
}

void write_state_file(const std::string& path, const FlockState& state) {
  write_file_atomically(path, format_state_file(path, state));
}

void check_state_values(const FlockState& state, Precision precision, const std::string& file,
                        std::uint64_t first) {
  check_state_values(state, precision, [&](std::size_t i, int axis) {
    // Where a reader finds it: a CSV's line and column, a .npy file's row (0-based).
    const std::uint64_t row = first + i;
    return "state file " + quoted_path(file) +
           (is_npy_name(file) ? ", row " + std::to_string(row)
                              : ", line " + std::to_string(row + 2) + ", column " +
                                    std::to_string(state.dimensions + axis + 1));
  });
}

}  // namespace boids
