// The uniform grid of the sorted-cell hash: square cells at least r wide, keyed row by row,
// so that the cells of one row of a boid's 3x3 block are contiguous in sorted order.
#pragma once

#include "kernels/host_device.h"

namespace boids::kernels {

template <typename Real>
struct CellGrid {
  index_t side;         // cells per axis
  Real cells_per_unit;  // side / L

  BOIDS_HD index_t cells() const { return side * side; }

  // Cell coordinate of a position in [0, L); clamped so that rounding never leaves the grid.
  BOIDS_HD index_t coordinate(Real position) const {
    const Real scaled = position * cells_per_unit;
    if (!(scaled >= Real(0))) return 0;
    const index_t c = static_cast<index_t>(scaled);
    return c < side ? c : side - 1;
  }

  BOIDS_HD index_t key(Real x, Real y) const { return coordinate(y) * side + coordinate(x); }

  // Whether the cells around a span of columns of a row lie inside the grid, away from its
  // edges, and are narrow enough that every offset between them is shorter than half the
  // world: then no offset needs wrapping. Two cells of slack cover rounding at cell borders.
  BOIDS_HD bool spans_without_wrap(index_t first_column, index_t last_column, index_t row) const {
    return side >= 9 && first_column >= 1 && last_column + 2 <= side && row >= 1 &&
           row + 2 <= side && 2 * (last_column - first_column + 5) <= side;
  }

  // Calls visit(first_key, last_key) for each contiguous run of keys in the 3x3 block around
  // cell (cx, cy), each cell exactly once.
  template <typename Visit>
  BOIDS_HD void for_each_block_run(index_t cx, index_t cy, Visit&& visit) const {
    for_each_span_run(cx, cx, cy, visit);
  }

  // The same for the cells around a span of columns [first_column, last_column] of row cy:
  // columns first - 1 to last + 1 of rows cy - 1 to cy + 1, each cell exactly once. On grids
  // narrower than 3 cells, or when the span covers the row, a whole row is one run; at the
  // edges of the torus a row splits in two runs.
  template <typename Visit>
  BOIDS_HD void for_each_span_run(index_t first_column, index_t last_column, index_t cy,
                                  Visit&& visit) const {
    const int rows = side < 3 ? static_cast<int>(side) : 3;
    const bool whole_row = side < 3 || last_column - first_column + 3 >= side;
    for (int r = 0; r < rows; ++r) {
      const index_t row = side < 3 ? static_cast<index_t>(r) : (cy + side - 1 + r) % side;
      const index_t row_key = row * side;
      if (whole_row) {
        visit(row_key, row_key + side - 1);
      } else if (first_column == 0) {
        visit(row_key, row_key + last_column + 1);
        visit(row_key + side - 1, row_key + side - 1);
      } else if (last_column == side - 1) {
        visit(row_key, row_key);
        visit(row_key + first_column - 1, row_key + side - 1);
      } else {
        visit(row_key + first_column - 1, row_key + last_column + 1);
      }
    }
  }
};

// Number of bits a radix sort needs for keys in [0, cells).
inline int key_bits(index_t cells) {
  int bits = 0;
  while (bits < 32 && (std::uint64_t{1} << bits) < cells) ++bits;
  return bits;
}

// A grid for neighbour radius `radius` on an L x L torus. Cells are widened by a margin that
// covers the rounding of positions in `Real`, so two boids closer than r are never two cells
// apart. The grid has at most one cell per boid: in a sparser flock, smaller cells would only
// cost memory (the cell starts stay within 4 bytes per boid) and a longer scan of empty cells.
template <typename Real>
CellGrid<Real> make_cell_grid(double radius, double world, index_t count) {
  const double rounding = 16.0 * static_cast<double>(sizeof(Real) == 4 ? 1.1920929e-7 : 2.2e-16);
  const double margin = 1.0 + rounding * max_of(1.0, world / radius);
  double side = std::floor(world / (radius * margin));
  // Also at most 46340 cells per axis, so that side * side (keys, cell counts) fits in an int.
  const double most = min_of(std::floor(std::sqrt(static_cast<double>(count))), 46340.0);
  side = min_of(max_of(side, 1.0), max_of(most, 1.0));
  CellGrid<Real> grid;
  grid.side = static_cast<index_t>(side);
  grid.cells_per_unit = static_cast<Real>(side / world);
  return grid;
}

}  // namespace boids::kernels
