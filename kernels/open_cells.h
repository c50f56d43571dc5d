// The cells of open space (a world with no edges): a cell's coordinates are unbounded
// integers, and the grid's table of cells is sized by the flock, not by the space. Cells are
// grouped in chunks of `columns` along x; a chunk of a line (the cells along x that share
// their other coordinates) hashes, with its coordinates, to one of the table's lines, where
// its cells keep their order. So the cells of a boid's 3x3 (3x3x3) block are still a few
// runs of keys, as on the dense grid, and memory stays proportional to the boids however far
// apart they fly. Two chunks may share a line of the table (a collision): their boids then
// share its keys, and the distance test tells them apart. kernels/cell_grid.h uses these.
#pragma once

#include <cstdint>

#include "kernels/host_device.h"

namespace boids::kernels {

// Cell coordinates of open space are clamped into (-kOpenCells, kOpenCells): a boid beyond
// them shares the outermost cell with every other such boid, which the distance test sorts
// out (the host refuses positions that far long before: host/core/value_limits.h). Each
// coordinate then packs into 21 bits, a chunk's three into one 64-bit word.
inline constexpr std::int64_t kOpenCells = std::int64_t{1} << 20;

// The coordinate of the cell that holds `x` along an axis whose cells are 1 / per_unit wide:
// floor(x * per_unit), clamped. NaN goes to cell 0.
template <typename Real>
BOIDS_HD BOIDS_INLINE std::int64_t open_cell(Real x, Real per_unit) {
  constexpr Real kMost = Real(kOpenCells - 2);
  Real s = x * per_unit;
  s = s > -kMost ? s : -kMost;  // and NaN to -kMost, made 0 below
  s = s < kMost ? s : kMost;
  const auto c = static_cast<std::int64_t>(s);
  return x == x ? c - (s < static_cast<Real>(c) ? 1 : 0) : 0;
}

// floor(c / n) and c - n floor(c / n), for n > 0.
BOIDS_HD BOIDS_INLINE std::int64_t floor_div(std::int64_t c, std::int64_t n) {
  return c >= 0 ? c / n : -((-c + n - 1) / n);
}
BOIDS_HD BOIDS_INLINE std::int64_t floor_mod(std::int64_t c, std::int64_t n) {
  return c - floor_div(c, n) * n;
}

// A chunk of a line: its index along x and the line's other coordinates, packed 21 bits each
// (biased to be non-negative). The chunk's identity: two boids share a chunk exactly when
// their packed chunks are equal.
struct OpenChunk {
  std::int64_t chunk, y, z;

  static constexpr int kBits = 21;
  static constexpr std::uint64_t kMask = (std::uint64_t{1} << kBits) - 1;

  BOIDS_HD BOIDS_INLINE std::uint64_t packed() const {
    const auto bias = [](std::int64_t c) {
      return static_cast<std::uint64_t>(c + kOpenCells) & kMask;
    };
    return bias(y) | bias(z) << kBits | bias(chunk) << (2 * kBits);
  }
  BOIDS_HD BOIDS_INLINE static OpenChunk unpacked(std::uint64_t p) {
    const auto unbias = [](std::uint64_t bits) {
      return static_cast<std::int64_t>(bits & kMask) - kOpenCells;
    };
    return {unbias(p >> (2 * kBits)), unbias(p), unbias(p >> kBits)};
  }
};

// The table line of a packed chunk, in [0, lines) for a power-of-two `lines`: a 64-bit
// finaliser (splitmix64's) mixes every bit of the three coordinates into the low ones, so
// that neighbouring chunks, and flocks a power of two of cells apart, land on unrelated lines.
BOIDS_HD BOIDS_INLINE std::uint64_t table_line(std::uint64_t packed, std::uint64_t lines) {
  std::uint64_t h = packed + 0x9E3779B97F4A7C15ull;
  h = (h ^ (h >> 30)) * 0xBF58476D1CE4E5B9ull;
  h = (h ^ (h >> 27)) * 0x94D049BB133111EBull;
  h ^= h >> 31;
  return h & (lines - 1);
}

}  // namespace boids::kernels
