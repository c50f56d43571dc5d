// The uniform grid of the sorted-cell hash, in D = 2 or 3 dimensions: cells at least r wide
// along each axis of the world, keyed line by line (a line is the cells along x that share
// their other coordinates), so that the cells of one line of a boid's 3x3 (3x3x3) block are
// contiguous in sorted order: the block is 3 (9) runs of keys. On a torus the block continues
// across the edges; between walls it stops. A rank's part of a flock (host/mpi) keys its boids
// on a window of the world's grid along the last axis: the rows around its slab, from
// `origin`, which do not wrap (its ghosts across the torus's edge come with their coordinates
// taken across it, next to the slab). In open space the grid is a table of cells that the
// cells of unbounded space hash to (kernels/open_cells.h): `open`.
#pragma once

#include <type_traits>

#include "kernels/host_device.h"
#include "kernels/open_cells.h"

namespace boids::kernels {

template <typename Real, int D>
struct CellGrid {
  static_assert(D == 2 || D == 3, "grids have two or three dimensions");
  // The lines around a line (itself among them), and the runs of keys they make (at most 2 a
  // line).
  static constexpr int kLinesAround = D == 2 ? 3 : 9;

  // A line's identity: its index on a bounded grid, its packed chunk (OpenChunk) in open space.
  using Line = std::uint64_t;

  index_t counts[D];    // cells along each axis: columns, rows (, layers); in open space, a
                        // chunk's columns and the table's lines (, 1)
  Real per_unit[D];     // counts[a] / side[a] (the world's); in open space, 1 / a cell's width
  bool wraps;           // the torus
  bool window = false;  // the last axis is a window of the world's rows, from `origin`
  Real origin = 0;      // where the last axis's first cell starts
  bool open = false;    // open space: cells hash into the table (kernels/open_cells.h)
  OpenTable table;      // open space: where the tiles are, when the simulation plans that

  // Whether the cells along `axis` wrap around.
  BOIDS_HD bool wraps_along(int axis) const { return wraps && !(window && axis == D - 1); }

  BOIDS_HD index_t cells() const {
    index_t n = counts[0];
    for (int a = 1; a < D; ++a) n *= counts[a];
    return n;
  }
  BOIDS_HD index_t lines() const { return cells() / counts[0]; }
  // The table's slots in open space: a tile of lines (OpenTiles) each.
  BOIDS_HD index_t open_slots() const { return counts[1] >> OpenTiles<D>::kBits; }
  BOIDS_HD index_t cells_per_slot() const { return counts[0] << OpenTiles<D>::kBits; }
  // Sizes open space's table at `slots` slots (a power of two), its tiles' homes laid out
  // for that many.
  void size_open_table(index_t slots) {
    counts[1] = slots << OpenTiles<D>::kBits;
    table.homes = OpenHomes::of<D>(slots);
  }

  // Whether the grid is open space, as a type: a block's loops are compiled for one kind of
  // grid (with_openness), so that a torus's keys never pay for open space's hash and runs,
  // which the compiler would otherwise compute beside them in a vectorised loop.
  template <bool Open>
  using Openness = std::bool_constant<Open>;

  // Calls `body` with the grid's Openness.
  template <typename Body>
  BOIDS_HD BOIDS_INLINE void with_openness(Body&& body) const {
    if (open) {
      body(Openness<true>{});
    } else {
      body(Openness<false>{});
    }
  }

  // Cell coordinate of a position along one axis; clamped so that rounding never leaves the
  // grid.
  BOIDS_HD BOIDS_INLINE index_t cell(int axis, Real x) const {
    return clamp_cell((axis == D - 1 ? x - origin : x) * per_unit[axis], counts[axis]);
  }
  template <bool Open>
  BOIDS_HD BOIDS_INLINE index_t column(Real x, Openness<Open>) const {
    if constexpr (Open) {
      return column_in_chunk(open_cell(x, per_unit[0]));
    } else {
      return cell(0, x);
    }
  }

  // The line of cells that holds a position: its row (and layer); in open space, its chunk.
  template <bool Open>
  BOIDS_HD BOIDS_INLINE Line line(const Real (&position)[D], Openness<Open>) const {
    if constexpr (Open) {
      return chunk_of_cell(open_cells(position).c).packed();
    } else {
      index_t l = cell(D - 1, position[D - 1]);
      for (int a = D - 2; a >= 1; --a) l = l * counts[a] + cell(a, position[a]);
      return l;
    }
  }

  template <bool Open>
  BOIDS_HD BOIDS_INLINE index_t key(const Real (&position)[D], Openness<Open> o) const {
    if constexpr (Open) {
      return open_key(open_cells(position).c);
    } else {
      return line_key(line(position, o), o) + column(position[0], o);
    }
  }

  // The same on a grid of either kind.
  BOIDS_HD BOIDS_INLINE index_t column(Real x) const {
    return open ? column(x, Openness<true>{}) : column(x, Openness<false>{});
  }
  BOIDS_HD BOIDS_INLINE Line line(const Real (&position)[D]) const {
    return open ? line(position, Openness<true>{}) : line(position, Openness<false>{});
  }
  BOIDS_HD BOIDS_INLINE index_t key(const Real (&position)[D]) const {
    return open ? key(position, Openness<true>{}) : key(position, Openness<false>{});
  }

  // The last tile of open space looked up, and its slot: consecutive boids and lines mostly
  // share a tile, whose slot is then looked up once.
  struct TileSlot {
    std::uint64_t tile = kNoTile;
    index_t slot = 0;
  };
  // The key of a position in open space, through `last`; in two halves, so that a block finds
  // its lanes' chunks and columns together (vectorised) and looks their tiles up in turn.
  BOIDS_HD BOIDS_INLINE index_t open_key(const Real (&position)[D], TileSlot& last) const {
    Line l;
    index_t column;
    open_line(position, l, column);
    return open_key_of_line(l, column, last);
  }
  BOIDS_HD BOIDS_INLINE void open_line(const Real (&position)[D], Line& l, index_t& column) const {
    const OpenCell cell = open_cells(position);
    l = chunk_of_cell(cell.c).packed();
    column = column_in_chunk(cell.c[0]);
  }
  BOIDS_HD BOIDS_INLINE index_t open_key_of_line(Line l, index_t column, TileSlot& last) const {
    return key_in_slot(slot_of_line(l, last), l) + column;
  }

  // The cell of open space that holds a position, as every key and query finds it.
  struct OpenCell {
    std::int64_t c[D];
  };
  BOIDS_HD BOIDS_INLINE OpenCell open_cells(const Real (&position)[D]) const {
    OpenCell cell;
    for (int a = 0; a < D; ++a) cell.c[a] = open_cell(position[a], per_unit[a]);
    return cell;
  }

  // The slot of a key of open space (as the step and the planning key it).
  BOIDS_HD BOIDS_INLINE index_t slot_of_key(index_t key) const {
    return key >> (OpenTiles<D>::kBits + kOpenColumnBits);
  }
  // A key of open space in two parts, which the planning finds apart: the first key of its
  // slot, and the key's place in the slot (its line's in the tile, and its column).
  BOIDS_HD BOIDS_INLINE index_t first_key_of_slot(index_t slot) const {
    return key_in_slot(slot, 0);
  }
  BOIDS_HD BOIDS_INLINE index_t key_in_tile(Line l, index_t column) const {
    return key_in_slot(0, l) + column;
  }

  // The key of a cell of open space, from its coordinates.
  BOIDS_HD BOIDS_INLINE index_t open_key(const std::int64_t (&c)[D]) const {
    bool held = true;
    return open_key(c, held);
  }
  // The same, and whether the table holds the cell's tile in that slot (`held`; always, with
  // no table). A tile it does not hold is keyed by its home, whose cells may be another
  // tile's: where the last plan was not crowded, such a tile has no boids.
  BOIDS_HD BOIDS_INLINE index_t open_key(const std::int64_t (&c)[D], bool& held) const {
    const Line l = chunk_of_cell(c).packed();
    const std::uint64_t tile = OpenTiles<D>::tile(l);
    const index_t slot = table.slot_of(tile, open_slots());
    held = table.occupant == nullptr || table.occupant[slot] == tile;
    return key_in_slot(slot, l) + column_in_chunk(c[0]);
  }

  // Whether a boid in `column` may join a span of its line of open space from `first_column`:
  // not when the span would take both ends of a chunk, whose cells around would be three runs
  // of a line. (On a bounded grid any boid of the line may.)
  BOIDS_HD BOIDS_INLINE bool joins_open_span(index_t first_column, index_t column) const {
    return first_column != 0 || column + 1 != counts[0];
  }

  // Whether the cells around a span of columns of a line of a bounded grid lie away from the
  // torus's edges, and are narrow enough that every offset between them is shorter than half
  // the world: then no offset needs wrapping. Two cells of slack cover rounding at cell borders.
  // Between walls, and along a window, nothing ever wraps (nor in open space).
  BOIDS_HD bool spans_without_wrap(index_t first_column, index_t last_column, Line l) const {
    if (!wraps) return true;
    bool inside = first_column >= 1 && last_column + 2 <= counts[0] &&
                  2 * (last_column - first_column + 5) <= counts[0];
    for (int a = 1; a < D; ++a) {
      const index_t c = coordinate_of_line(l, a), n = counts[a];
      if (wraps_along(a)) inside = inside && c >= 1 && c + 2 <= n && 2 * (3 + 2) <= n;
    }
    return inside;
  }

  // The contiguous runs of keys that make up a block of cells; in open space, with the tile
  // of the span's own line and its slot, which the step's move keys its boids by.
  struct Runs {
    static constexpr int kMost = 2 * kLinesAround;
    index_t first[kMost], last[kMost];
    int count = 0;
    TileSlot centre;
    BOIDS_HD void add(index_t first_key, index_t last_key) {
      first[count] = first_key;
      last[count] = last_key;
      ++count;
    }
    // In ascending order, overlapping runs merged: two chunks of open space that share a line
    // of the table would otherwise give its cells twice.
    BOIDS_HD void make_disjoint() {
      sort_pairs(first, last, count);  // at most 2 * kLinesAround runs
      int kept = 0;
      for (int r = 0; r < count; ++r) {
        if (kept > 0 && first[r] <= last[kept - 1]) {
          last[kept - 1] = max_of(last[kept - 1], last[r]);
        } else {
          first[kept] = first[r];
          last[kept] = last[r];
          ++kept;
        }
      }
      count = kept;
    }
  };

  // The runs of the cells around a span of columns [first_column, last_column] of line `l`:
  // columns first - 1 to last + 1 of the lines around it (one cell either way along each
  // other axis, rows inside layers, in ascending order of the offset), each cell exactly once.
  // On grids narrower than 3 cells, or when the span covers the line, a whole line is one
  // run; at the edges of the torus a line splits in two runs, and between walls the block is
  // cut off. (A list rather than a callback, so that the hot loops over it stay in one
  // function.)
  template <bool Open>
  BOIDS_HD BOIDS_INLINE Runs span_runs(index_t first_column, index_t last_column, Line l,
                                       Openness<Open>) const {
    if constexpr (Open) {
      return open_span_runs(first_column, last_column, l);
    } else {
      return bounded_span_runs(first_column, last_column, l);
    }
  }

  // Calls visit(first_key, last_key) for each run of the block of cells around cell `key` of
  // a bounded grid.
  template <typename Visit>
  BOIDS_HD void for_each_block_run(index_t key, Visit&& visit) const {
    const index_t c = key % counts[0];
    const Runs runs = span_runs(c, c, key / counts[0], Openness<false>{});
    for (int r = 0; r < runs.count; ++r) visit(runs.first[r], runs.last[r]);
  }
  // The same around the cell that holds `position`, on any grid.
  template <typename Visit>
  BOIDS_HD void for_each_block_run(const Real (&position)[D], Visit&& visit) const {
    with_openness([&](auto o) {
      const index_t c = column(position[0], o);
      const Runs runs = span_runs(c, c, line(position, o), o);
      for (int r = 0; r < runs.count; ++r) visit(runs.first[r], runs.last[r]);
    });
  }

 private:
  // span_runs on a bounded grid: the lines around, rows inside layers.
  BOIDS_HD BOIDS_INLINE Runs bounded_span_runs(index_t first_column, index_t last_column,
                                               Line l) const {
    index_t around[D][3];  // the coordinates around the line's along each axis but x
    int around_count[D];
    for (int a = 1; a < D; ++a) around_count[a] = neighbors(a, coordinate_of_line(l, a), around[a]);
    Runs runs;
    const int layers = D == 3 ? around_count[D - 1] : 1;
    for (int z = 0; z < layers; ++z) {
      for (int y = 0; y < around_count[1]; ++y) {
        index_t neighbor = around[1][y];
        if constexpr (D == 3) neighbor += around[2][z] * counts[1];
        add_line_runs(runs, neighbor * counts[0], first_column, last_column);
      }
    }
    return runs;
  }

  // A line's coordinate along `axis` (1 or 2): in 2D the line is the row, and in 3D the row
  // and layer need one division, which the compiler shares between them.
  BOIDS_HD BOIDS_INLINE index_t coordinate_of_line(Line line, int axis) const {
    const auto l = static_cast<index_t>(line);
    if (D == 2) return l;
    return axis == 1 ? l % counts[1] : l / counts[1];
  }

  // The chunk that holds a cell of open space.
  BOIDS_HD BOIDS_INLINE OpenChunk chunk_of_cell(const std::int64_t (&c)[D]) const {
    return {chunk_of_column(c[0]), c[1], D == 3 ? c[D - 1] : 0};
  }

  // The first key of a line: on a bounded grid its index's; in open space, its place within its
  // tile's slot.
  template <bool Open>
  BOIDS_HD BOIDS_INLINE index_t line_key(Line l, Openness<Open>) const {
    if constexpr (Open) {
      return key_in_slot(table.slot_of(OpenTiles<D>::tile(l), open_slots()), l);
    } else {
      return static_cast<index_t>(l) * counts[0];
    }
  }
  // The slot of line `l` of open space's tile, through `last`.
  BOIDS_HD BOIDS_INLINE index_t slot_of_line(Line l, TileSlot& last) const {
    const std::uint64_t tile = OpenTiles<D>::tile(l);
    if (tile != last.tile) {
      last.tile = tile;
      last.slot = table.slot_of(tile, open_slots());
    }
    return last.slot;
  }
  // The first key of line `l` of open space in its tile's slot.
  BOIDS_HD BOIDS_INLINE index_t key_in_slot(index_t slot, Line l) const {
    using Tiles = OpenTiles<D>;
    return ((slot << Tiles::kBits) + static_cast<index_t>(Tiles::within(l))) << kOpenColumnBits;
  }

  // span_runs in open space: the columns around the span in the chunk of each line around,
  // and where the span touches a chunk's end, the nearest column of the chunk beyond it
  // (joins_open_span keeps a span from touching both).
  BOIDS_HD Runs open_span_runs(index_t first_column, index_t last_column, Line l) const {
    const index_t columns = counts[0];
    if (first_column > 0 && last_column + 1 < columns && tile_holds_around(l)) {
      return runs_within_tile(first_column, last_column, l);
    }
    const OpenChunk at = OpenChunk::unpacked(l);
    TileSlot last;  // the lines around mostly share a tile
    const auto key_of = [&](const OpenChunk& chunk) {
      const Line line = chunk.packed();
      return key_in_slot(slot_of_line(line, last), line);
    };
    Runs runs;
    const int layers = D == 3 ? 3 : 1;
    for (int z = 0; z < layers; ++z) {
      for (int y = 0; y < 3; ++y) {
        OpenChunk around{at.chunk, at.y + y - 1, D == 3 ? at.z + z - 1 : 0};
        const index_t key = key_of(around);
        if (y == 1 && (D == 2 || z == 1)) runs.centre = last;
        runs.add(key + (first_column > 0 ? first_column - 1 : 0),
                 key + (last_column + 1 < columns ? last_column + 1 : columns - 1));
        if (first_column == 0) {
          around.chunk = at.chunk - 1;
          const index_t left = key_of(around) + columns - 1;
          runs.add(left, left);
        } else if (last_column + 1 == columns) {
          around.chunk = at.chunk + 1;
          const index_t right = key_of(around);
          runs.add(right, right);
        }
      }
    }
    runs.make_disjoint();
    return runs;
  }

  // Whether the lines around line `l` (one either way along y, and z in 3D) lie in its tile.
  BOIDS_HD BOIDS_INLINE static bool tile_holds_around(Line l) {
    using Tiles = OpenTiles<D>;
    const std::uint64_t y = l & Tiles::kLowY;
    const std::uint64_t z = (l >> OpenChunk::kBits) & Tiles::kLowZ;
    return y > 0 && y < Tiles::kLowY && (D == 2 || (z > 0 && z < Tiles::kLowZ));
  }
  // open_span_runs where the lines around all lie in the span's tile and the span keeps off
  // its chunk's ends, as for most spans: one slot, a line's keys kOpenColumns after the line
  // below it, its layer's 2^kBitsY lines after the layer below, so the runs come in ascending
  // order and apart, as the general case sorts and merges them.
  BOIDS_HD BOIDS_INLINE Runs runs_within_tile(index_t first_column, index_t last_column,
                                              Line l) const {
    using Tiles = OpenTiles<D>;
    Runs runs;
    runs.centre.tile = Tiles::tile(l);
    runs.centre.slot = table.slot_of(runs.centre.tile, open_slots());
    const index_t centre = key_in_slot(runs.centre.slot, l);
    constexpr index_t kLine = kOpenColumns, kLayer = kOpenColumns << Tiles::kBitsY;
    const int layers = D == 3 ? 3 : 1;
    for (int z = 0; z < layers; ++z) {
      const index_t layer = centre - (D == 3 ? kLayer : 0) + static_cast<index_t>(z) * kLayer;
      for (int y = 0; y < 3; ++y) {
        const index_t key = layer - kLine + static_cast<index_t>(y) * kLine;
        runs.add(key + first_column - 1, key + last_column + 1);
      }
    }
    return runs;
  }

  // Selects, not branches, so that a block's keys vectorise: NaN and negatives go to cell 0,
  // and the conversion never overflows (2^31 - 128 is exact in float and double, and beyond
  // any axis's cells).
  BOIDS_HD BOIDS_INLINE static index_t clamp_cell(Real scaled, index_t count) {
    constexpr Real kHighest = Real(2147483520.0);
    const Real low = scaled >= Real(0) ? scaled : Real(0);
    const auto c = static_cast<index_t>(static_cast<std::int32_t>(low < kHighest ? low : kHighest));
    return c < count ? c : count - 1;
  }

  // The coordinates c - 1 to c + 1 along `axis`: wrapped on the torus (every one, in
  // ascending order, on an axis of fewer than 3 cells), cut off at the walls and at a
  // window's ends. Returns how many.
  BOIDS_HD int neighbors(int axis, index_t c, index_t (&out)[3]) const {
    const index_t n = counts[axis];
    const bool around = wraps_along(axis);
    int count = 0;
    for (index_t r = 0; r < 3; ++r) {
      if (around && n < 3) {
        if (r < n) out[count++] = r;
      } else if (around) {
        out[count++] = (c + n - 1 + r) % n;
      } else if (c + r >= 1 && c + r <= n) {
        out[count++] = c + r - 1;
      }
    }
    return count;
  }

  // The runs of the columns around [first_column, last_column] in the line starting at key
  // `line_key`.
  BOIDS_HD void add_line_runs(Runs& runs, index_t line_key, index_t first_column,
                              index_t last_column) const {
    const index_t columns = counts[0];
    if (columns < 3 || last_column - first_column + 3 >= columns) {
      runs.add(line_key, line_key + columns - 1);
    } else if (!wraps) {
      const index_t left = first_column > 0 ? first_column - 1 : 0;
      const index_t right = last_column + 1 < columns ? last_column + 1 : columns - 1;
      runs.add(line_key + left, line_key + right);
    } else if (first_column == 0) {
      runs.add(line_key, line_key + last_column + 1);
      runs.add(line_key + columns - 1, line_key + columns - 1);
    } else if (last_column == columns - 1) {
      runs.add(line_key, line_key);
      runs.add(line_key + first_column - 1, line_key + columns - 1);
    } else {
      runs.add(line_key + first_column - 1, line_key + last_column + 1);
    }
  }
};

// Number of bits a radix sort needs for keys in [0, cells).
inline int key_bits(index_t cells) {
  int bits = 0;
  while (bits < 32 && (std::uint64_t{1} << bits) < cells) ++bits;
  return bits;
}

// How much wider than r a cell is made, so that the rounding of positions in `Real` as far as
// `extent` from the origin never puts two boids closer than r two cells apart.
template <typename Real>
double cell_margin(double radius, double extent) {
  const double rounding = 16.0 * static_cast<double>(sizeof(Real) == 4 ? 1.1920929e-7 : 2.2e-16);
  return 1.0 + rounding * max_of(1.0, extent / radius);
}

// A grid for neighbour radius `radius` on a world with sides `side`. Cells are widened by
// cell_margin, so two boids closer than r are never two cells apart. The grid has at most one cell
// per boid: in a sparser flock, smaller cells would only cost memory (the cell starts stay within 4
// bytes per boid) and a longer scan of empty cells; then every side shrinks by the same factor. At
// most one cell per boid also keeps every key below 2^31.
template <typename Real, int D>
CellGrid<Real, D> make_cell_grid(double radius, const double (&side)[D], index_t count,
                                 bool wraps) {
  double widest = side[0];
  for (int a = 1; a < D; ++a) widest = max_of(widest, side[a]);
  const double margin = cell_margin<Real>(radius, widest);
  double n[D], cells = 1;
  for (int a = 0; a < D; ++a) {
    n[a] = max_of(std::floor(side[a] / (radius * margin)), 1.0);
    cells *= n[a];
  }
  const double most = max_of(static_cast<double>(count), 1.0);
  if (cells > most) {
    const double shrink = D == 2 ? std::sqrt(most / cells) : std::cbrt(most / cells);
    for (int a = 0; a < D; ++a) n[a] = max_of(std::floor(n[a] * shrink), 1.0);
    for (int a = 0; a < D; ++a) {  // a side held at 1 leaves room along the others
      double others = 1;
      for (int b = 0; b < D; ++b) others *= b == a ? 1.0 : n[b];
      n[a] = min_of(n[a], max_of(std::floor(most / others), 1.0));
    }
  }
  CellGrid<Real, D> grid;
  for (int a = 0; a < D; ++a) {
    grid.counts[a] = static_cast<index_t>(n[a]);
    grid.per_unit[a] = static_cast<Real>(n[a] / side[a]);
  }
  grid.wraps = wraps;
  return grid;
}

// A grid of open space for neighbour radius `radius`, for `count` boids within `reach` of the
// origin along each axis: cells r wide, widened by the margin that covers the rounding of
// positions as far out as `reach`, in a table of at least two cells a boid (lines of
// kOpenColumns, at least one slot of them), whatever the flock's extent. In 3D four: a tile
// there is 128 cells long and 8 wide, and a compact flock of a million boids, 104 cells a side,
// spans two tiles' lengths once it leaves its start's cube by a cell: 450 tiles, more than
// two cells a boid's 256 slots, and a table its tiles crowd plans every boid's key afresh
// (bench/results: open space's keys and reach). Its `table` is attached by the simulation
// that keeps one.
template <typename Real, int D>
CellGrid<Real, D> make_open_grid(double radius, double reach, index_t count) {
  const double margin = cell_margin<Real>(radius, reach);
  const std::uint64_t most = std::uint64_t{D == 3 ? 4 : 2} * max_of<index_t>(count, 1);
  index_t lines = index_t{1} << OpenTiles<D>::kBits;
  constexpr index_t kMostLines = (index_t{1} << 30) / kOpenColumns;  // keys stay below 2^30
  while (std::uint64_t{lines} * kOpenColumns < most && lines < kMostLines) lines *= 2;
  CellGrid<Real, D> grid;
  grid.open = true;
  grid.wraps = false;
  grid.counts[0] = kOpenColumns;
  if constexpr (D == 3) grid.counts[2] = 1;
  grid.size_open_table(lines >> OpenTiles<D>::kBits);
  for (int a = 0; a < D; ++a) grid.per_unit[a] = static_cast<Real>(1.0 / (radius * margin));
  return grid;
}

}  // namespace boids::kernels
