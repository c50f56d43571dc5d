// The hashed method's search for the K nearest (kernels/nearest_step.h, and the predators'
// in kernels/pursuit.h): the cells around a boid's own ring by ring, until no boid beyond the
// rings can come nearer than the K-th. On a bounded grid the rings' cells are runs of keys;
// in open space each cell is found through the grid's table.
#pragma once

#include <cstdint>

#include "kernels/cell_grid.h"
#include "kernels/nearest_list.h"
#include "kernels/open_table.h"

namespace boids::kernels {

// The cells within k of a boid's along every axis (its box of ring k): offsets [low, high]
// from the boid's cell, cut off at walls, and on a torus never more than the axis's cells.
template <int D>
struct CellBox {
  int low[D], high[D];
};

// The rings open space searches around a boid before it offers the boid every other
// instead (a boid with fewer than K others within them, where the rings would never end).
inline constexpr int kOpenNearestRings = 8;

// Ring by ring around one boid's cell on the flock's grid: the cells of each ring, and how far
// the nearest boid beyond the rings searched can be. In open space the cells have no bound and
// are found through the grid's table (for_each_open_cell_between).
template <typename Real, int D>
struct RingSearch {
  const CellGrid<Real, D>& grid;
  int counts[D];   // the grid's cells along each axis (in open space, beyond any)
  int cell[D];     // the boid's
  Real scaled[D];  // its position in units of cells

  BOIDS_HD RingSearch(const CellGrid<Real, D>& g, const Real (&x)[D]) : grid(g) {
    for (int a = 0; a < D; ++a) {
      counts[a] = g.open ? 1 << 30 : static_cast<int>(g.counts[a]);
      cell[a] = g.open ? static_cast<int>(g.open_cells(x).c[a]) : static_cast<int>(g.cell(a, x[a]));
      scaled[a] = x[a] * g.per_unit[a];
    }
  }

  BOIDS_HD CellBox<D> box(int k) const {
    CellBox<D> b;
    for (int a = 0; a < D; ++a) {
      if (grid.open) {
        b.low[a] = -k;
        b.high[a] = k;
        continue;
      }
      const int n = counts[a];
      const bool around = grid.wraps_along(a);
      b.low[a] = -min_of(k, around ? (n - 1) / 2 : cell[a]);
      b.high[a] = min_of(k, around ? n - 1 - (n - 1) / 2 : n - 1 - cell[a]);
    }
    return b;
  }

  // Whether the box holds every cell of the grid.
  BOIDS_HD bool whole(const CellBox<D>& b) const {
    for (int a = 0; a < D; ++a) {
      if (b.high[a] - b.low[a] + 1 < counts[a]) return false;
    }
    return true;
  }

  // A distance no boid outside the box comes nearer than, squared; less by 1/16 of a cell,
  // which covers the rounding of the cells' keys and of the distances.
  BOIDS_HD Real beyond_sq(const CellBox<D>& b) const {
    Real nearest = Real(-1);
    for (int a = 0; a < D; ++a) {
      const bool around = grid.wraps_along(a);
      if (b.high[a] - b.low[a] + 1 >= counts[a]) continue;
      const Real to_low = scaled[a] - static_cast<Real>(cell[a] + b.low[a]);
      const Real to_high = static_cast<Real>(cell[a] + b.high[a] + 1) - scaled[a];
      const bool low_open = around || grid.open || cell[a] + b.low[a] > 0;
      const bool high_open = around || cell[a] + b.high[a] + 1 < counts[a];
      Real gap = low_open ? to_low : to_high;
      if (low_open && high_open) gap = min_of(to_low, to_high);
      const Real distance = max_of(gap - Real(1) / Real(16), Real(0)) / grid.per_unit[a];
      nearest = nearest < Real(0) ? distance : min_of(nearest, distance);
    }
    return nearest * nearest;
  }

  // Calls visit(first_key, last_key) for each run of cells of `outer` outside `inner` (none
  // inside when `first`): a line's cells in one or two runs, or its two ends.
  template <typename Visit>
  BOIDS_HD void for_each_run_between(const CellBox<D>& inner, const CellBox<D>& outer, bool first,
                                     Visit&& visit) const {
    const int z_low = D == 3 ? outer.low[D - 1] : 0, z_high = D == 3 ? outer.high[D - 1] : 0;
    for (int z = z_low; z <= z_high; ++z) {
      for (int y = outer.low[1]; y <= outer.high[1]; ++y) {
        bool inside = !first && y >= inner.low[1] && y <= inner.high[1];
        if constexpr (D == 3) inside = inside && z >= inner.low[2] && z <= inner.high[2];
        index_t line = wrapped(1, y);
        if constexpr (D == 3) line += wrapped(2, z) * grid.counts[1];
        const index_t line_key = line * grid.counts[0];
        if (!inside) {
          const index_t start = wrapped(0, outer.low[0]);
          const index_t end = start + static_cast<index_t>(outer.high[0] - outer.low[0]);
          const index_t columns = grid.counts[0];
          if (end < columns) {
            visit(line_key + start, line_key + end);
          } else {  // across the torus's edge
            visit(line_key + start, line_key + columns - 1);
            visit(line_key, line_key + end - columns);
          }
          continue;
        }
        if (outer.low[0] < inner.low[0]) {
          const index_t key = line_key + wrapped(0, outer.low[0]);
          visit(key, key);
        }
        if (outer.high[0] > inner.high[0]) {
          const index_t key = line_key + wrapped(0, outer.high[0]);
          visit(key, key);
        }
      }
    }
  }

  // In open space, calls visit(key, c, held) for each cell c of `outer` outside `inner` (every
  // one when `first`), `key` the cell's in the grid's table and `held` whether the table holds
  // its tile there (CellGrid::open_key). Cells of tiles that share a slot share its keys, so a
  // visit there takes only the boids of its own cell (in_open_cell): each boid once.
  template <typename Visit>
  BOIDS_HD void for_each_open_cell_between(const CellBox<D>& inner, const CellBox<D>& outer,
                                           bool first, Visit&& visit) const {
    const int z_low = D == 3 ? outer.low[D - 1] : 0, z_high = D == 3 ? outer.high[D - 1] : 0;
    for (int z = z_low; z <= z_high; ++z) {
      for (int y = outer.low[1]; y <= outer.high[1]; ++y) {
        bool inside = !first && y >= inner.low[1] && y <= inner.high[1];
        if constexpr (D == 3) inside = inside && z >= inner.low[2] && z <= inner.high[2];
        for (int x = outer.low[0]; x <= outer.high[0];
             x = inside && x < outer.high[0] ? outer.high[0] : x + 1) {
          std::int64_t c[D];
          c[0] = cell[0] + x;
          c[1] = cell[1] + y;
          if constexpr (D == 3) c[2] = cell[2] + z;
          bool held = true;
          const index_t key = grid.open_key(c, held);
          visit(key, c, held);
        }
      }
    }
  }

  // Whether `position` lies in open space's cell `c`, as the grid keys it.
  BOIDS_HD bool in_open_cell(const Real (&position)[D], const std::int64_t (&c)[D]) const {
    const auto at = grid.open_cells(position);
    for (int a = 0; a < D; ++a) {
      if (at.c[a] != c[a]) return false;
    }
    return true;
  }

 private:
  // The cell `offset` from the boid's along `axis`: the offsets stay within half the axis's
  // cells, so one turn brings it back onto the torus.
  BOIDS_HD index_t wrapped(int axis, int offset) const {
    const int n = counts[axis];
    const int c = cell[axis] + offset;
    return static_cast<index_t>(c < 0 ? c + n : (c >= n ? c - n : c));
  }
};

// Offers `self` (at sorted slot `self_slot`; past the last slot for a point that is no boid
// of the flock) the boids of the cells around its own, ring by ring, until the list is full
// and no boid beyond the rings can come nearer than its last, or the rings cover the grid.
template <bool Wraps, bool LimitedView, typename Real, int D>
BOIDS_HD void offer_rings(NearestList<Real>& list, const Boid<Real, D>& self, index_t self_slot,
                          const Boid<Real, D>* sorted, const index_t* ids,
                          const index_t* cell_start, index_t count, const CellGrid<Real, D>& grid,
                          const StepParams<Real>& p) {
  const RingSearch<Real, D> rings(grid, self.position);
  const bool shared = grid.open && slots_shared(grid.table);
  CellBox<D> inner = rings.box(0);
  for (int k = 0;; ++k) {
    const CellBox<D> outer = rings.box(k);
    if (grid.open) {
      rings.for_each_open_cell_between(
          inner, outer, k == 0, [&](index_t key, const std::int64_t(&c)[D], bool held) {
            if (!shared) {        // the cell's keys are its own, or its tile has no boids
              if (!held) return;  // its keys are another tile's cells
              offer_run<Wraps, LimitedView>(list, self, self_slot, sorted, ids, cell_start[key],
                                            cell_start[key + 1], p);
              return;
            }
            for (index_t j = cell_start[key]; j < cell_start[key + 1]; ++j) {
              if (rings.in_open_cell(sorted[j].position, c)) {
                offer_one<Wraps, LimitedView>(list, self, self_slot, sorted, ids, j, p);
              }
            }
          });
    } else {
      rings.for_each_run_between(inner, outer, k == 0, [&](index_t first, index_t last) {
        offer_run<Wraps, LimitedView>(list, self, self_slot, sorted, ids, cell_start[first],
                                      cell_start[last + 1], p);
      });
    }
    if (rings.whole(outer)) return;
    if (list.full() && list.farthest_sq() < rings.beyond_sq(outer)) return;
    if (grid.open && k == kOpenNearestRings) {  // every boid instead, as the naive method
      list.count = 0;
      offer_run<Wraps, LimitedView>(list, self, self_slot, sorted, ids, 0, count, p);
      return;
    }
    inner = outer;
  }
}

}  // namespace boids::kernels
