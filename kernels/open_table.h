// Settling open space's table after each sort (the table: kernels/open_cells.h), so that no
// two tiles share a slot for more than a step and a block seldom reads another tile's boids.
// The stages:
//   claim   an empty slot is freed; a slot where a tile missing from the table was keyed
//           lists its boids' tiles, and keeps the one it held, else the smallest  (ClaimSlots)
//   place   the others take free slots, in slot order, one lane alone           (PlaceEvicted)
//   record  the tiles away from home, in the table of moved tiles                (RecordMoved)
// A tile keeps its slot while it holds boids. A tile placed elsewhere is keyed there from the
// step's own moves, and the next sort puts it there; until then the step's queries find it at
// home (OpenTable::keys). So a slot is shared only for the step in which a new tile comes to
// it, no boid is sorted twice, and every choice depends on the sorted boids alone (the moved
// tiles' table places its entries in any order, and a lookup finds the same slot whatever
// it was): the flight is the same on any number of threads.
#pragma once

#include <type_traits>

#include "kernels/atomics.h"
#include "kernels/cell_index.h"

namespace boids::kernels {

// The most tiles a slot lists: more would share it until a later step, which costs time,
// never a neighbour.
inline constexpr int kMostTilesASlot = 16;
// A slot's `extra` once PlaceEvicted has placed a tile there.
inline constexpr index_t kPlacedHere = kNoSlot;

// The tiles of slot s's boids, in order of first appearance, up to kMostTilesASlot.
template <typename Real, int D>
struct SlotTiles {
  std::uint64_t tile[kMostTilesASlot];
  int count = 0;

  BOIDS_HD SlotTiles(const CellGrid<Real, D>& grid, const Boid<Real, D>* sorted,
                     const index_t* cell_start, index_t s) {
    const index_t from = cell_start[s * grid.cells_per_slot()];
    const index_t to = cell_start[(s + 1) * grid.cells_per_slot()];
    for (index_t i = from; i < to && count < kMostTilesASlot; ++i) {
      const std::uint64_t t = OpenTiles<D>::tile(grid.line(sorted[i].position, std::true_type{}));
      bool seen = false;
      for (int k = 0; k < count; ++k) seen = seen || tile[k] == t;
      if (!seen) tile[count++] = t;
    }
  }
  BOIDS_HD bool holds(std::uint64_t t) const {
    bool found = false;
    for (int k = 0; k < count; ++k) found = found || tile[k] == t;
    return found;
  }
  BOIDS_HD std::uint64_t smallest() const {
    std::uint64_t least = kNoTile;
    for (int k = 0; k < count; ++k) least = tile[k] < least ? tile[k] : least;
    return least;
  }
};

template <typename Real, int D>
struct ClaimSlots {
  static constexpr const char* kStage = stage::kSort;  // the index is the sort's stage
  const Boid<Real, D>* sorted;
  const index_t* cell_start;
  CellGrid<Real, D> grid;

  BOIDS_HD void operator()(index_t s) const {
    const OpenTable& t = grid.table;
    t.extra[s] = 0;
    const bool empty =
        cell_start[s * grid.cells_per_slot()] == cell_start[(s + 1) * grid.cells_per_slot()];
    if (empty) {
      t.occupant[s] = kNoTile;
    } else if (t.contested[s] != 0) {  // else the tile the table keyed there holds it alone
      const SlotTiles<Real, D> tiles(grid, sorted, cell_start, s);
      t.occupant[s] = tiles.holds(t.occupant[s]) ? t.occupant[s] : tiles.smallest();
      t.extra[s] = static_cast<index_t>(tiles.count - 1);
    }
    t.contested[s] = 0;
  }
};

// The tiles that lost their slot, each in the next free slot (one lane: new tiles come a few
// at a time, at the flock's edges, once its first step has settled). Where none is free, a
// tile stays at home, sharing it.
template <typename Real, int D>
struct PlaceEvicted {
  static constexpr const char* kStage = stage::kSort;
  const Boid<Real, D>* sorted;
  const index_t* cell_start;
  CellGrid<Real, D> grid;

  BOIDS_HD void operator()(index_t) const {
    const index_t slots = grid.open_slots();
    const OpenTable& t = grid.table;
    index_t free_slot = 0;
    for (index_t s = 0; s < slots; ++s) {
      if (t.extra[s] == 0 || t.extra[s] == kPlacedHere) continue;
      const SlotTiles<Real, D> tiles(grid, sorted, cell_start, s);
      for (int k = 0; k < tiles.count; ++k) {
        if (tiles.tile[k] == t.occupant[s]) continue;
        while (free_slot < slots && t.occupant[free_slot] != kNoTile) ++free_slot;
        if (free_slot == slots) return;
        t.occupant[free_slot] = tiles.tile[k];
        t.extra[free_slot] = kPlacedHere;
      }
    }
  }
};

struct EmptySlots {
  static constexpr const char* kStage = stage::kSort;
  OpenTable table;
  BOIDS_HD void operator()(index_t s) const {
    table.occupant[s] = kNoTile;
    table.contested[s] = 0;
  }
};

struct ClearMoved {
  static constexpr const char* kStage = stage::kSort;
  OpenTable table;
  BOIDS_HD void operator()(index_t k) const {
    table.moved[k] = kNoTile;
    table.moved_slot[k] = kNoSlot;
  }
};

// Enters each tile held away from its home in the table of moved tiles; one placed by this
// settling, as pending.
struct RecordMoved {
  static constexpr const char* kStage = stage::kSort;
  OpenTable table;
  index_t slots;

  BOIDS_HD void operator()(index_t s) const {
    const std::uint64_t tile = table.occupant[s];
    if (tile == kNoTile || table_line(tile, slots) == s) return;
    const index_t slot = table.extra[s] == kPlacedHere ? s | kPendingSlot : s;
    for (index_t k = table.moved_probe(tile);; k = (k + 1) & (table.moved_room - 1)) {
      if (atomic_compare_exchange(&table.moved_slot[k], kNoSlot, slot) == kNoSlot) {
        table.moved[k] = tile;
        return;
      }
    }
  }
};

struct ExtraTiles {
  static constexpr const char* kStage = stage::kSort;
  const index_t* extra;
  BOIDS_HD double operator()(index_t s) const { return extra[s]; }
};

// Settles the table of `grid` for index `x`, just sorted (its boids in x.sorted), and returns
// the grid that the step's queries use: the boids where the sort put them.
template <typename Real, int D, typename Executor>
CellGrid<Real, D> settle_open_table(Executor& exec, const CellIndex<Real, D>& x,
                                    const CellGrid<Real, D>& grid) {
  const index_t slots = grid.open_slots();
  exec.for_each(slots, ClaimSlots<Real, D>{x.sorted, x.cell_start, grid});
  if (exec.sum(slots, ExtraTiles{grid.table.extra}) > 0) {
    exec.for_each(1, PlaceEvicted<Real, D>{x.sorted, x.cell_start, grid});
  }
  exec.for_each(grid.table.moved_room, ClearMoved{grid.table});
  exec.for_each(slots, RecordMoved{grid.table, slots});
  return grid.queried();
}

}  // namespace boids::kernels
