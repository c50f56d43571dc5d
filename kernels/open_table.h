// Planning open space's table before each sort (the table: kernels/open_cells.h), from the
// flock's positions alone, so that a tile has a slot of its own where one is free and a block
// seldom reads another tile's boids. The stages:
//   clear   the table, and the set of the flock's tiles, emptied                (ClearTable)
//   note    each boid's tile in the set, with its boids; a lane counts a run
//           of boids of one tile at once                                        (NoteTiles)
//   claim   each home slot for the smallest tile whose home it is; where tiles
//           outnumber slots, of those of most boids                        (ClaimHomes)
//   place   the other tiles, in order of tile (where crowded, from most boids to
//           fewest), each in the first free slot after its home; one lane  (PlaceOthers)
//   record  the tiles away from home, in the table of moved tiles            (RecordMoved)
//   key     each boid keyed by its tile's slot, a lane's tile looked up once (OpenCellKeys)
// Every choice is a function of the set of tiles and their boids, whatever order the lanes
// fill it in, and the set is a function of the positions: a flight is the same on any number
// of threads, and a flight resumed from its checkpoint (or any state) goes on as the straight
// one does. Where tiles outnumber the free slots (a flock spreading out fills tiles at its
// edges with a few boids each), the tiles of fewest boids stay at home, sharing it; where
// they outnumber the set's room (twice the slots), every tile does. A shared slot costs time,
// never a neighbour, as keys and queries look tiles up alike.
#pragma once

#include <cstdint>
#include <type_traits>

#include "kernels/atomics.h"
#include "kernels/cell_index.h"
#include "kernels/stages.h"

namespace boids::kernels {

// The consecutive boids a lane of NoteTiles and OpenCellKeys takes: in the last sort's order,
// they mostly share a tile, which the lane then notes or looks up once.
inline constexpr index_t kBoidsALane = 64;

BOIDS_HD inline index_t lanes_for(index_t count) {
  return (count + kBoidsALane - 1) / kBoidsALane;
}
// The end of lane `lane`'s boids, which start at lane * kBoidsALane.
BOIDS_HD inline index_t lane_end(index_t lane, index_t count) {
  const index_t from = lane * kBoidsALane;
  return count - from < kBoidsALane ? count : from + kBoidsALane;
}

struct ClearTable {
  static constexpr const char* kStage = stage::kHash;
  OpenTable table;
  index_t slots;
  BOIDS_HD void operator()(index_t k) const {  // k < table.room, at least 2 * slots
    if (k < slots) {
      table.occupant[k] = kNoTile;
      table.held[k] = 0;
    }
    table.present[k] = kNoTile;
    table.population[k] = 0;
    table.moved[k] = kNoTile;
    table.moved_slot[k] = kNoSlot;
    if (k < 2) atomic_store(&table.tally[k], 0);
  }
};

template <typename Real, int D>
struct NoteTiles {
  static constexpr const char* kStage = stage::kHash;
  const Boid<Real, D>* boids;
  index_t count;
  CellGrid<Real, D> grid;

  BOIDS_HD void operator()(index_t lane) const {
    std::uint64_t last = kNoTile;
    index_t run = 0;
    for (index_t i = lane * kBoidsALane; i < lane_end(lane, count); ++i) {
      const std::uint64_t tile = OpenTiles<D>::tile(grid.line(boids[i].position, std::true_type{}));
      if (tile != last && run > 0) note(last, run);
      run = tile == last ? run + 1 : 1;
      last = tile;
    }
    if (run > 0) note(last, run);
  }

  // Adds `tile` to the set, unless it is there already, and `boids_of_tile` to its
  // population; marks the overflow (tally[0]) when the set is full.
  BOIDS_HD void note(std::uint64_t tile, index_t boids_of_tile) const {
    const OpenTable& t = grid.table;
    index_t k = t.probe(tile, 0);
    for (index_t tries = 0; tries < t.room; ++tries, k = (k + 1) & (t.room - 1)) {
      const std::uint64_t seen = atomic_compare_exchange(&t.present[k], kNoTile, tile);
      if (seen == kNoTile || seen == tile) {
        if (seen == kNoTile) atomic_increment(&t.tally[1]);
        atomic_add(&t.population[k], boids_of_tile);
        return;
      }
    }
    atomic_store(&t.tally[0], 1);
  }
};

// Whether the tiles outnumber the slots: then homes go to the tiles of most boids, and the
// tiles of fewest share.
BOIDS_HD inline bool crowded(const OpenTable& table, index_t slots) {
  return atomic_load(&table.tally[1]) > slots;
}

// Each home for the smallest of its tiles; where crowded, of those of most boids, which a
// first pass (`weighing`) finds. A tile's identity never changes, so where not crowded a
// home's holder changes only when a smaller tile comes or its holder goes.
struct ClaimHomes {
  static constexpr const char* kStage = stage::kHash;
  OpenTable table;
  index_t slots;
  bool weighing;

  BOIDS_HD void operator()(index_t k) const {
    const std::uint64_t tile = table.present[k];
    if (tile == kNoTile || atomic_load(&table.tally[0]) != 0) return;
    const auto home = static_cast<index_t>(table_line(tile, slots));
    const bool by_boids = crowded(table, slots);
    if (weighing) {
      if (by_boids) atomic_max(&table.held[home], table.population[k]);
    } else if (!by_boids || table.population[k] == table.held[home]) {
      atomic_min(&table.occupant[home], tile);
    }
  }
};

// Sorts the tiles and their boids in [0, n) by tile, or with `by_boids` from most boids to
// fewest and, of as many, by tile (a heap sort: one lane, no memory beside the arrays).
BOIDS_HD inline void sort_tiles(std::uint64_t* tiles, index_t* boids, index_t n, bool by_boids) {
  const auto after = [&](index_t i, index_t j) {  // whether tile i comes after tile j
    if (by_boids && boids[i] != boids[j]) return boids[i] < boids[j];
    return tiles[i] > tiles[j];
  };
  const auto swap = [&](index_t i, index_t j) {
    const std::uint64_t tile = tiles[i];
    tiles[i] = tiles[j];
    tiles[j] = tile;
    const index_t b = boids[i];
    boids[i] = boids[j];
    boids[j] = b;
  };
  const auto sift = [&](index_t root, index_t end) {
    for (index_t child = 2 * root + 1; child < end; child = 2 * root + 1) {
      if (child + 1 < end && after(child + 1, child)) ++child;
      if (!after(child, root)) return;
      swap(root, child);
      root = child;
    }
  };
  for (index_t k = n / 2; k-- > 0;) sift(k, n);
  for (index_t end = n; end-- > 1;) {
    swap(0, end);
    sift(0, end);
  }
}

// The tiles that lost their home, gathered at the front of the set (which is not read again
// until the next planning clears it), each placed in the first free slot after its home
// (wrapping around), in order of tile: a tile that comes or goes moves only the few placed
// near it, so from step to step the table, and the boids' order, change little. Where tiles
// outnumber the slots, those of most boids are placed first, and the rest stay at home,
// sharing it: the boids that share are the fewest.
struct PlaceOthers {
  static constexpr const char* kStage = stage::kHash;
  OpenTable table;
  index_t slots;
  BOIDS_HD void operator()(index_t) const {
    if (atomic_load(&table.tally[0]) != 0) return;
    index_t others = 0, free_slots = 0;
    for (index_t s = 0; s < slots; ++s) free_slots += table.occupant[s] == kNoTile;
    for (index_t k = 0; k < table.room; ++k) {
      const std::uint64_t tile = table.present[k];
      if (tile != kNoTile && table.occupant[table_line(tile, slots)] != tile) {
        table.present[others] = tile;
        table.population[others] = table.population[k];
        ++others;
      }
    }
    sort_tiles(table.present, table.population, others, crowded(table, slots));
    for (index_t k = 0; k < others && k < free_slots; ++k) {
      auto s = static_cast<index_t>(table_line(table.present[k], slots));
      while (table.occupant[s] != kNoTile) s = (s + 1) & (slots - 1);
      table.occupant[s] = table.present[k];
    }
  }
};

// Enters each tile held away from its home in the table of moved tiles.
struct RecordMoved {
  static constexpr const char* kStage = stage::kHash;
  OpenTable table;
  index_t slots;
  BOIDS_HD void operator()(index_t s) const {
    const std::uint64_t tile = table.occupant[s];
    if (tile == kNoTile || table_line(tile, slots) == s) return;
    for (index_t k = table.probe(tile, 1);; k = (k + 1) & (table.room - 1)) {
      if (atomic_compare_exchange(&table.moved_slot[k], kNoSlot, s) == kNoSlot) {
        table.moved[k] = tile;
        return;
      }
    }
  }
};

template <typename Real, int D>
struct OpenCellKeys {
  static constexpr const char* kStage = stage::kHash;
  const Boid<Real, D>* boids;
  index_t* keys;
  index_t* order;
  index_t count;
  CellGrid<Real, D> grid;

  BOIDS_HD void operator()(index_t lane) const {
    typename CellGrid<Real, D>::TileSlot last;
    for (index_t i = lane * kBoidsALane; i < lane_end(lane, count); ++i) {
      keys[i] = grid.open_key(boids[i].position, last);
      order[i] = i;
    }
  }
};

// Plans the table of `grid` for the boids of index `x` where they are now, and keys them by
// it, ready for the sort.
template <typename Real, int D, typename Executor>
void plan_open_table(Executor& exec, CellIndex<Real, D>& x, const CellGrid<Real, D>& grid) {
  const OpenTable& t = grid.table;
  const index_t slots = grid.open_slots();
  const index_t lanes = lanes_for(x.count);
  exec.for_each(t.room, ClearTable{t, slots});
  exec.for_each(lanes, NoteTiles<Real, D>{x.boids, x.count, grid});
  exec.for_each(t.room, ClaimHomes{t, slots, /*weighing=*/true});
  exec.for_each(t.room, ClaimHomes{t, slots, /*weighing=*/false});
  exec.for_each(1, PlaceOthers{t, slots});
  exec.for_each(slots, RecordMoved{t, slots});
  exec.for_each(lanes, OpenCellKeys<Real, D>{x.boids, x.keys, x.order, x.count, grid});
  x.keys_ready = true;
}

}  // namespace boids::kernels
