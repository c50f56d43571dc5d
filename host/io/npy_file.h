// NumPy .npy files of float64 numbers, read from and written to bytes so that the format can
// be tested and fuzzed without files. A file is the magic "\x93NUMPY", a version (1.0, 2.0 or
// 3.0), the length of a header, the header (a Python dict literal: descr, fortran_order,
// shape), then the numbers. What the numbers mean is host/io/state_file.h's business.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

namespace boids {

/// A two-dimensional array of little-endian float64 ('<f8') numbers.
struct NpyMatrix {
  std::uint64_t rows = 0, columns = 0;
  bool fortran_order = false;   ///< stored column after column instead of row after row
  std::size_t data_offset = 0;  ///< where the numbers start
};

/// Headers longer than this are refused: a matrix's header takes about 120 bytes, and the whole
/// header must lie in the first block that readers look at.
inline constexpr std::size_t kMaxNpyHeader = 16 * 1024;

/// Whether `bytes` starts with the .npy magic.
bool has_npy_magic(const std::string& bytes);

/// Parses the header at the start of `bytes`, which may be only the file's first block: the
/// magic, the version, a dict with exactly the keys descr ('<f8' only), fortran_order and
/// shape (two-dimensional). Throws InputError("<kind> 'name': ..."), naming a wrong dtype.
NpyMatrix parse_npy_header(const std::string& bytes, const std::string& kind,
                           const std::string& name);

/// Checks that a file of `size` bytes holds exactly the numbers the header announces: neither
/// truncated nor followed by more bytes.
void check_npy_size(const NpyMatrix& matrix, std::uint64_t size, const std::string& kind,
                    const std::string& name);

/// The number at (row, column) of a checked matrix in `bytes`.
double npy_value(const std::string& bytes, const NpyMatrix& matrix, std::uint64_t row,
                 std::uint64_t column);

/// The magic and header of a version 1.0 .npy file of doubles in C order, shape (rows,
/// columns), padded as numpy pads it: the numbers start right after it.
std::string npy_header(std::uint64_t rows, std::size_t columns);

/// A double's bits as a '<f8' .npy file stores them: little-endian.
std::uint64_t little_endian_bits(double value);

}  // namespace boids
