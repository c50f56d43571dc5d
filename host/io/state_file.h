// State files: CSV with the header `x,y,vx,vy` (`x,y,z,vx,vy,vz` in three dimensions) and one
// boid a line, in input order. Numbers are written in the shortest form that reads back as the
// same double. A name ending in .npy (any case) is a NumPy file instead: float64 '<f8', shape
// (N, 4) or (N, 6), the same columns, rows in input order (written in C order; Fortran order is
// read too). The header or the shape gives the state's dimensions. Obstacle files are
// host/io/obstacle_file.h's.
#pragma once

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "host/core/config.h"
#include "host/io/npy_file.h"
#include "host/io/numeric_csv.h"
#include "host/io/output_file.h"
#include "host/model/flock.h"

namespace boids {

/// Reads and validates a state file for `world`: the exact header, four (six) finite numbers a
/// line, positions in [0, width) x [0, height) (x [0, depth)), at least one boid. Throws InputError
/// naming the file and the line (the row of a .npy file). A file that is not text (or, for .npy,
/// has a wrong header or size) is refused having read its first block only.
FlockState read_state_file(const std::string& path, const World& world);

/// The number of boids a state file holds (lines after the header; a .npy file's first
/// dimension, from its header alone), for what depends on it before the file is read for a
/// world: a world given by a density. A CSV file is checked as read_state_file checks its
/// start, then its lines are counted a block at a time.
std::uint64_t state_file_rows(const std::string& path);

/// The dimensions of a state file's boids (2, or 3 for x,y,z,vx,vy,vz), from its first block.
int state_file_dimensions(const std::string& path);

/// Parses state-file text; `name` is used in error messages.
FlockState parse_state(const std::string& text, const std::string& name, const World& world);
/// The rows of a piece of a CSV state file in `dimensions` (whole lines, host/io/numeric_csv.h),
/// after `rows_before` rows of the file, checked as parse_state checks the whole file's: an
/// MPI rank's lines. A piece may hold no rows.
FlockState parse_state_piece(const std::string& text, const std::string& name, const World& world,
                             int dimensions, const CsvPiece& piece, std::uint64_t rows_before);
/// The dimensions a CSV state's header (the first line of `text`) names: 3 for x,y,z,vx,vy,vz,
/// else 2 (whose header the reader then checks).
int csv_state_dimensions(const std::string& text);

/// The same for a square world of side `world`.
FlockState read_state_file(const std::string& path, double world);
FlockState parse_state(const std::string& text, const std::string& name, double world);

/// A CSV state file's bytes (written by host/io/flock_writer.h, as every state file is).
std::string format_state(const FlockState& state);
/// Its header line: the column names and a line break.
std::string state_header_line(int dimensions);

/// The same for .npy bytes: every refusal names the file, and a value's row (0-based, as
/// numpy indexes it).
FlockState parse_npy_state(const std::string& bytes, const std::string& name, const World& world);
std::string format_npy_state(const FlockState& state);

/// The matrix of the .npy state file at `path`, its header and size checked as a start's (shape
/// (N, 4) or (N, 6), at least one boid, the file's size the numbers'), without reading it.
NpyMatrix npy_state_matrix(const std::string& path);

/// Rows first .. first + count - 1 of the .npy state file `name` of matrix `m`, from `values`
/// (those rows in C order, as doubles), checked as parse_npy_state checks them: a refusal names
/// the row in the whole file. A rank of an MPI run reads its own rows so.
FlockState npy_state_rows(const NpyMatrix& m, const double* values, std::uint64_t first,
                          std::uint64_t count, const std::string& name, const World& world);

/// Reads `n` doubles at byte `at` of a file into `into`.
using NpyRangeReader = std::function<void(std::uint64_t at, double* into, std::uint64_t n)>;

/// Rows first .. first + count - 1 of a .npy file's matrix `m`, in C order, read by byte ranges
/// through `read`: one range in C order, one a column in Fortran order.
std::vector<double> npy_rows(const NpyMatrix& m, std::uint64_t first, std::uint64_t count,
                             const NpyRangeReader& read);

/// Rows first .. first + count - 1 of the .npy state file at `path` (matrix `m`), read by byte
/// ranges and checked as npy_state_rows checks them.
FlockState read_npy_state_rows(const std::string& path, const NpyMatrix& m, std::uint64_t first,
                               std::uint64_t count, const World& world);

/// A state held in memory as rows of four doubles (x, y, vx, vy), or of six in three
/// dimensions (x, y, z, vx, vy, vz), such as a NumPy array: at least one boid, finite values,
/// positions in the world, as a .npy file's rows. A refusal names `what` and the row (0-based,
/// as numpy indexes it).
FlockState state_from_rows(const double* rows, std::uint64_t count, const World& world,
                           const std::string& what, int dimensions = 2);

/// Whether `path` names a .npy state file.
bool is_npy_name(const std::string& path);

/// Where a state file `path` keeps its flight's predators: ".predators" inserted before the
/// extension of the file's name ("end.npy": "end.predators.npy"), or added to a name without one.
std::string predator_state_path(const std::string& path);

/// The bytes of a state file named `path`: CSV, or .npy when is_npy_name(path).
std::string format_state_file(const std::string& path, const FlockState& state);

/// Writes them, whole or not at all.
void write_state_file(const std::string& path, const FlockState& state);
/// The same as the output `option` of `files`, streamed (no second copy of the flock in memory).
void write_state_file(OutputFiles& files, const std::string& option, const std::string& path,
                      const FlockState& state);

/// Throws InputError naming the file, the line and the column (a .npy file's row) of a
/// velocity component beyond `precision`'s largest_state_speed (host/core/value_limits.h).
/// `first`: the row of the state's first boid in the file (a rank's part of it).
void check_state_values(const FlockState& state, Precision precision, const std::string& file,
                        std::uint64_t first = 0);

}  // namespace boids
