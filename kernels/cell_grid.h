// The uniform grid of the sorted-cell hash: cells at least r wide and high over the W x H
// world, keyed row by row, so that the cells of one row of a boid's 3x3 block are contiguous
// in sorted order. On a torus the block continues across the edges; between walls it stops.
#pragma once

#include "kernels/host_device.h"

namespace boids::kernels {

template <typename Real>
struct CellGrid {
  index_t columns, rows;
  Real columns_per_unit;  // columns / W
  Real rows_per_unit;     // rows / H
  bool wraps;             // the torus

  BOIDS_HD index_t cells() const { return columns * rows; }

  // Cell coordinates of a position in the world; clamped so that rounding never leaves the grid.
  BOIDS_HD index_t column(Real x) const { return clamp_cell(x * columns_per_unit, columns); }
  BOIDS_HD index_t row(Real y) const { return clamp_cell(y * rows_per_unit, rows); }

  BOIDS_HD index_t key(Real x, Real y) const { return row(y) * columns + column(x); }

  // Whether the cells around a span of columns of a row lie away from the torus's edges, and
  // are narrow enough that every offset between them is shorter than half the world: then no
  // offset needs wrapping. Two cells of slack cover rounding at cell borders. Between walls,
  // nothing ever wraps.
  BOIDS_HD bool spans_without_wrap(index_t first_column, index_t last_column, index_t row) const {
    if (!wraps) return true;
    return first_column >= 1 && last_column + 2 <= columns && row >= 1 && row + 2 <= rows &&
           2 * (last_column - first_column + 5) <= columns && 10 <= rows;
  }

  // The contiguous runs of keys that make up a block of cells: at most 3 rows of 2 runs.
  struct Runs {
    index_t first[6], last[6];
    int count = 0;
    BOIDS_HD void add(index_t first_key, index_t last_key) {
      first[count] = first_key;
      last[count] = last_key;
      ++count;
    }
  };

  // The runs of the cells around a span of columns [first_column, last_column] of row cy:
  // columns first - 1 to last + 1 of rows cy - 1 to cy + 1, each cell exactly once. On grids
  // narrower than 3 cells, or when the span covers the row, a whole row is one run; at the
  // edges of the torus a row splits in two runs, and between walls the block is cut off.
  // (A list rather than a callback, so that the hot loops over it stay in one function.)
  BOIDS_HD Runs span_runs(index_t first_column, index_t last_column, index_t cy) const {
    Runs runs;
    const bool all_rows = rows < 3;
    const int row_count = all_rows ? static_cast<int>(rows) : 3;
    const bool whole_row = columns < 3 || last_column - first_column + 3 >= columns;
    for (int r = 0; r < row_count; ++r) {
      index_t row;
      if (all_rows) {
        row = static_cast<index_t>(r);
      } else if (wraps) {
        row = (cy + rows - 1 + r) % rows;
      } else {
        if ((r == 0 && cy == 0) || (r == 2 && cy + 1 == rows)) continue;
        row = cy - 1 + r;
      }
      const index_t row_key = row * columns;
      if (whole_row) {
        runs.add(row_key, row_key + columns - 1);
      } else if (!wraps) {
        const index_t left = first_column > 0 ? first_column - 1 : 0;
        const index_t right = last_column + 1 < columns ? last_column + 1 : columns - 1;
        runs.add(row_key + left, row_key + right);
      } else if (first_column == 0) {
        runs.add(row_key, row_key + last_column + 1);
        runs.add(row_key + columns - 1, row_key + columns - 1);
      } else if (last_column == columns - 1) {
        runs.add(row_key, row_key);
        runs.add(row_key + first_column - 1, row_key + columns - 1);
      } else {
        runs.add(row_key + first_column - 1, row_key + last_column + 1);
      }
    }
    return runs;
  }

  // Calls visit(first_key, last_key) for each run of the 3x3 block around cell (cx, cy).
  template <typename Visit>
  BOIDS_HD void for_each_block_run(index_t cx, index_t cy, Visit&& visit) const {
    const Runs runs = span_runs(cx, cx, cy);
    for (int r = 0; r < runs.count; ++r) visit(runs.first[r], runs.last[r]);
  }

 private:
  BOIDS_HD static index_t clamp_cell(Real scaled, index_t count) {
    if (!(scaled >= Real(0))) return 0;
    const index_t c = static_cast<index_t>(scaled);
    return c < count ? c : count - 1;
  }
};

// Number of bits a radix sort needs for keys in [0, cells).
inline int key_bits(index_t cells) {
  int bits = 0;
  while (bits < 32 && (std::uint64_t{1} << bits) < cells) ++bits;
  return bits;
}

// A grid for neighbour radius `radius` on a width x height world. Cells are widened by a margin
// that covers the rounding of positions in `Real`, so two boids closer than r are never two
// cells apart. The grid has at most one cell per boid: in a sparser flock, smaller cells would
// only cost memory (the cell starts stay within 4 bytes per boid) and a longer scan of empty
// cells; then both sides shrink by the same factor. At most one cell per boid also keeps every
// key below 2^31.
template <typename Real>
CellGrid<Real> make_cell_grid(double radius, double width, double height, index_t count,
                              bool wraps) {
  const double rounding = 16.0 * static_cast<double>(sizeof(Real) == 4 ? 1.1920929e-7 : 2.2e-16);
  const double margin = 1.0 + rounding * max_of(1.0, max_of(width, height) / radius);
  double columns = max_of(std::floor(width / (radius * margin)), 1.0);
  double rows = max_of(std::floor(height / (radius * margin)), 1.0);
  const double most = max_of(static_cast<double>(count), 1.0);
  if (columns * rows > most) {
    const double shrink = std::sqrt(most / (columns * rows));
    columns = max_of(std::floor(columns * shrink), 1.0);
    rows = max_of(std::floor(rows * shrink), 1.0);
    columns = min_of(columns, max_of(std::floor(most / rows), 1.0));  // one side was at 1
    rows = min_of(rows, max_of(std::floor(most / columns), 1.0));
  }
  CellGrid<Real> grid;
  grid.columns = static_cast<index_t>(columns);
  grid.rows = static_cast<index_t>(rows);
  grid.columns_per_unit = static_cast<Real>(columns / width);
  grid.rows_per_unit = static_cast<Real>(rows / height);
  grid.wraps = wraps;
  return grid;
}

}  // namespace boids::kernels
