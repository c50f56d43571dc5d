// The cells of open space (a world with no edges): a cell's coordinates are unbounded
// integers, and the grid's table of cells is sized by the flock, not by the space. Cells are
// grouped in chunks of `columns` along x; a chunk of a line (the cells along x that share
// their other coordinates) belongs to a tile of a few lines along y (and z), and a tile takes
// one of the table's slots, where its lines, and their cells, keep their order. So the cells
// of a boid's 3x3 (3x3x3) block are still a few runs of keys, mostly within one slot, as near
// in memory as on the dense grid; and memory stays proportional to the boids however far
// apart they fly.
//
// A tile's slot is its home (OpenHomes: the tiles' grid wrapped around the table) unless
// another tile holds that: then the table records where it went (OpenTable, planned before
// each sort by kernels/open_table.h). A step's keys and queries look tiles up alike, so two
// tiles that do share a slot (where tiles outnumber the slots) share its keys, and the
// distance test tells their boids apart: a collision costs time, never a neighbour.
// kernels/cell_grid.h uses these.
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
// floor(x * per_unit), clamped. NaN goes to cell 0. Selects in this order (NaN first), so
// that a block's lanes find their cells as one vector: GCC leaves the loop scalar where the
// NaN's select comes last.
template <typename Real>
BOIDS_HD BOIDS_INLINE std::int64_t open_cell(Real x, Real per_unit) {
  constexpr Real kMost = Real(kOpenCells - 2);
  Real s = x * per_unit;
  s = x == x ? s : Real(0);
  s = s > -kMost ? s : -kMost;
  s = s < kMost ? s : kMost;
  const auto c = static_cast<std::int32_t>(s);  // within 2^20: a conversion lanes vectorise
  return c - (s < static_cast<Real>(c) ? 1 : 0);
}

// Cells a chunk holds along x (below): a power of two, so that a cell's chunk and its column
// in the chunk are a shift and a mask of its coordinate, with no division (an arithmetic
// shift floors a negative coordinate too).
inline constexpr int kOpenColumnBits = 7;
inline constexpr index_t kOpenColumns = index_t{1} << kOpenColumnBits;
BOIDS_HD BOIDS_INLINE std::int64_t chunk_of_column(std::int64_t c) {
  return c >> kOpenColumnBits;
}
BOIDS_HD BOIDS_INLINE index_t column_in_chunk(std::int64_t c) {
  return static_cast<index_t>(c & (kOpenColumns - 1));
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

// A line of a table of `lines` (a power of two) for a packed chunk or tile, where a search
// of the table's sets starts (OpenTable::probe): a 64-bit finaliser (splitmix64's) mixes
// every bit of the three coordinates into the low ones, so that neighbouring tiles, and
// flocks a power of two of cells apart, land on unrelated lines.
BOIDS_HD BOIDS_INLINE std::uint64_t table_line(std::uint64_t packed, std::uint64_t lines) {
  std::uint64_t h = packed + 0x9E3779B97F4A7C15ull;
  h = (h ^ (h >> 30)) * 0xBF58476D1CE4E5B9ull;
  h = (h ^ (h >> 27)) * 0x94D049BB133111EBull;
  h ^= h >> 31;
  return h & (lines - 1);
}

// The tiles of open space: 2^kBitsY lines along y (and 2^kBitsZ along z in 3D) that take a
// slot of the table together. Tiles of chunks 128 cells long, 32 lines in 2D and 8 x 8 in 3D,
// read the fewest cold lines around a block (bench/results/log/2026-12-06-open-space.md). A tile's
// identity is its lines' packed chunk with those low bits of y and z cleared (the bias, 2^20, keeps
// them the coordinates' own).
template <int D>
struct OpenTiles {
  static constexpr int kBitsY = D == 2 ? 5 : 3;
  static constexpr int kBitsZ = D == 2 ? 0 : 3;
  static constexpr int kBits = kBitsY + kBitsZ;  // lines a tile: 32 in 2D, 64 in 3D
  static constexpr std::uint64_t kLowY = (std::uint64_t{1} << kBitsY) - 1;
  static constexpr std::uint64_t kLowZ = (std::uint64_t{1} << kBitsZ) - 1;

  BOIDS_HD BOIDS_INLINE static std::uint64_t tile(std::uint64_t packed_chunk) {
    return packed_chunk & ~(kLowY | kLowZ << OpenChunk::kBits);
  }
  // The line's place within its tile's lines.
  BOIDS_HD BOIDS_INLINE static std::uint64_t within(std::uint64_t packed_chunk) {
    return (packed_chunk & kLowY) | ((packed_chunk >> OpenChunk::kBits) & kLowZ) << kBitsY;
  }
};

// The homes of open space's tiles: a grid of tiles that wraps around the table, 2^bits_y
// tiles along y by 2^bits_z along z (3D) by the rest along x, as the particles of
// cuda-samples wrap their grid. The tiles above and below a tile hold the slots beside its
// own, so a sorted flock lies in strips a chunk wide, each line of a strip beside the lines
// around it, as a torus's rows do: a block at a tile's edge reads the next tile's boids
// beside its own in memory, not from wherever a hash put them (bench/results: open space's
// homes). A grid whose periods are near the extent of a compact flock's tiles along each
// axis (of tiles 4 (16) times as long as wide) gives each tile of a flock that fits its
// own home; tiles a period apart share one, which the planning resolves (open_table.h).
struct OpenHomes {
  int shift_y = 0, shift_z = 0;  // a tile's low bits of packed y (z): OpenTiles<D>::kBitsY (Z)
  int bits_y = 0, bits_z = 0;    // the grid's period along y (z), as a power of two

  // The homes of a table of `slots` slots (a power of two).
  template <int D>
  BOIDS_HD static OpenHomes of(index_t slots) {
    int k = 0;
    while ((index_t{1} << k) < slots) ++k;
    OpenHomes h;
    h.shift_y = OpenTiles<D>::kBitsY;
    h.shift_z = OpenTiles<D>::kBitsZ;
    h.bits_y = D == 2 ? (k + 2) / 2 : (k + 4) / 3;
    if (h.bits_y > k / (D - 1)) h.bits_y = k / (D - 1);
    h.bits_z = D == 2 ? 0 : h.bits_y;
    return h;
  }

  // The home of `tile` among `slots` slots.
  BOIDS_HD BOIDS_INLINE std::uint64_t home(std::uint64_t tile, std::uint64_t slots) const {
    const std::uint64_t y = (tile & OpenChunk::kMask) >> shift_y;
    const std::uint64_t z = ((tile >> OpenChunk::kBits) & OpenChunk::kMask) >> shift_z;
    const std::uint64_t x = tile >> (2 * OpenChunk::kBits);
    const std::uint64_t low_y = (std::uint64_t{1} << bits_y) - 1;
    const std::uint64_t low_z = (std::uint64_t{1} << bits_z) - 1;
    return ((y & low_y) | (z & low_z) << bits_y | x << (bits_y + bits_z)) & (slots - 1);
  }
};

// No tile: an empty slot, or a free entry of a set.
inline constexpr std::uint64_t kNoTile = ~std::uint64_t{0};
inline constexpr index_t kNoSlot = ~index_t{0};

// The table's tallies (OpenTable::tally): whether the set had no room, the tiles in it,
// whether this planning counts the set again, which boids it keys again (OpenRekey), whether
// the planning found too many tiles (more than slots, or than the set's room: the tiles left
// without a slot then share, OpenTable::slot_of, and the step's move leaves the keying to the
// next planning, which counts the set again), and the planning's free slots and tiles away
// from home (listed for its placing).
enum OpenTally : int {
  kTallyFull,
  kTallyTiles,
  kTallyRecount,
  kTallyRekey,
  kTallyCrowded,
  kTallyFree,
  kTallyOthers,
  kTallies
};

// The boids a planning keys again (its tally kTallyRekey): none, every boid (the move left
// no keys that stand), or those keyed by a slot whose tile moved (OpenTable::stale).
enum OpenRekey : index_t { kRekeyNone = 0, kRekeyAll = 1, kRekeyStale = 2 };

// The table's record of which tile holds which slot, planned before each sort from the
// positions alone (kernels/open_table.h): a view of arrays that the simulation owns. Without
// it (`occupant` null: a batch's grids), every tile is at home.
struct OpenTable {
  std::uint64_t* occupant = nullptr;  // slots entries: the tile the slot holds, or kNoTile
  std::uint64_t* present = nullptr;   // room entries: the flock's tiles (a set), or kNoTile
  index_t* population = nullptr;      // and the boids each holds, where counted
  index_t* keyed = nullptr;           // and the slot the step's move keyed its boids by
  index_t* seen = nullptr;            // slots entries: 1 where the move keyed boids of the
                                      // slot's own tile by it
  index_t* stale = nullptr;           // slots entries: 1 where a tile the move keyed by the
                                      // slot holds another now (its boids are keyed again)
  std::uint64_t* moved = nullptr;     // room entries: tiles away from home, or kNoTile
  index_t* moved_slot = nullptr;      // and the slot each holds
  index_t* held = nullptr;            // slots entries: the most boids of a tile of this home
  index_t* homed = nullptr;           // and the tiles whose home it is (where too many)
  index_t* tally = nullptr;           // kTallies entries (OpenTally)
  index_t room = 0;                   // a power of two: eight times the slots
  OpenHomes homes;                    // where each tile's home is (CellGrid::size_open_table)

  // The home of `tile` among `slots`: the slot it holds unless another tile does.
  BOIDS_HD BOIDS_INLINE index_t home(std::uint64_t tile, index_t slots) const {
    return static_cast<index_t>(homes.home(tile, slots));
  }

  // The slot of `tile` among `slots` (a power of two): its home when the tile holds it, or
  // where the planning placed it. A tile the planning left without a slot (it has no boids,
  // or too many tiles came for the slots) keys at home, unless the planning found more than
  // kMostAtHome tiles of that home: then at a slot hashed from it. Groups a period of the
  // homes apart (a lattice of groups, as a study or a benchmark lays them out) would
  // otherwise all share their tiles' homes cell for cell, each query reading every group's
  // boids; tiles spread evenly over the homes share them, a few each, where their groups'
  // edges meet, which slots at random would mix with other tiles' middles (bench/results:
  // open space's set).
  BOIDS_HD BOIDS_INLINE index_t slot_of(std::uint64_t tile, index_t slots) const {
    const index_t home = this->home(tile, slots);
    if (occupant == nullptr || occupant[home] == tile) return home;
    for (index_t k = probe(tile, 1); moved[k] != kNoTile; k = (k + 1) & (room - 1)) {
      if (moved[k] == tile) return moved_slot[k];
    }
    return tally[kTallyCrowded] != 0 && homed[home] > kMostAtHome ? scattered(tile, slots) : home;
  }

  // The most tiles a home keeps where the tiles are too many: the set's room spread evenly
  // over the homes (OpenTableArrays: eight times the slots).
  static constexpr index_t kMostAtHome = 8;

  // A tile's slot where it has none of its own and the planning found too many tiles.
  BOIDS_HD BOIDS_INLINE static index_t scattered(std::uint64_t tile, index_t slots) {
    return static_cast<index_t>(table_line(tile ^ 0x9FB21C651E98DF25ull, slots));
  }

  // Where a tile's search starts in `present` (salt 0) and `moved` (salt 1): bits of its hash
  // that its home did not use.
  BOIDS_HD BOIDS_INLINE index_t probe(std::uint64_t tile, int salt) const {
    return static_cast<index_t>(
        table_line(tile ^ (salt == 0 ? 0x2545F4914F6CDD1Dull : 0x5851F42D4C957F2Dull), room));
  }
};

}  // namespace boids::kernels
