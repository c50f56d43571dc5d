// Planning open space's table before each sort (the table: kernels/open_cells.h), from the
// flock's positions alone, so that a tile has a slot of its own where one is free and a block
// seldom reads another tile's boids. The step's move keys each boid it moves by the table it
// flew with, and enters its tile in the set of the flock's tiles; where the plan keeps every
// tile's slot, as from step to step it mostly does, those keys stand. The stages:
//   gather  the tiles the move keyed by their own slots, into the set          (GatherSeen)
//   begin   whether the set the move filled will do: not where the boids were placed
//           since, or the tiles outnumber the slots (their boids then count)    (BeginPlan)
//   clear   the table, and the set where it is counted again                     (ClearTable)
//   note    where it is, each boid's tile in the set, with its boids; a lane
//           counts a run of boids of one tile at once, and keeps each boid's
//           entry and place in its tile for the keys                             (NoteTiles)
//   crowd   whether the tiles are too many: those left without a slot then share
//           their home, or one hashed from the tile where the home has many (NoteCrowding)
//   claim   each home slot for the smallest tile whose home it is; where tiles
//           outnumber slots, of those of most boids, each home's tiles counted (ClaimHomes)
//   list    the free slots, and the other tiles with their boids              (ListOthers)
//   place   the other tiles, in order of tile (where crowded, from most boids to
//           fewest), each in the first free slot after its home; one lane  (PlaceOthers)
//   record  the tiles away from home, in the table of moved tiles   (ClearMoved, RecordMoved)
//   check   whether each tile keeps the slot the move keyed its boids by; where
//           no key stands, each entry's slot                                    (CheckKeys)
//   key     where one does not, the boids keyed by its slot keyed again, a lane's
//           tile looked up once (every boid, where no key stands: by its entry's
//           slot and its place in its tile)                                    (OpenCellKeys)
//   empty   the set, for the step's move to fill                                 (EmptySet)
// Every choice is a function of the set of tiles and their boids, whatever order the lanes
// fill it in, and the set is a function of the positions, whoever fills it: a flight is the
// same on any number of threads, and a flight resumed from its checkpoint (or any state)
// goes on as the straight one does. Where tiles outnumber the free slots (a flock spreading
// out fills tiles at its edges with a few boids each), the tiles of fewest boids share: at
// home, or where their home has many, as groups a period of the homes apart give it, at a slot
// hashed from the tile. Where they outnumber the set's room (eight times the slots), every
// tile stays at home.
// A shared slot costs time, never a neighbour, as keys and queries look tiles up alike.
#pragma once

#include <cstdint>

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

// The lines and columns of open space of boids [from, from + n) (0 < n <= N), the last
// repeated in the entries past n: the N entries as one vector. A call of its own on CPU
// threads: inlined into a loop that uses them as it goes (the step's move, NoteTiles' runs),
// GCC kept it scalar, with a branch for each clamp (a tenth of the open 2D step's time).
template <typename Real, int D, int N>
BOIDS_HD BOIDS_GPU_INLINE void find_open_lines(const CellGrid<Real, D>& grid,
                                               const Boid<Real, D>* boids, index_t from, index_t n,
                                               typename CellGrid<Real, D>::Line (&lines)[N],
                                               index_t (&columns)[N]) {
#if !defined(__CUDA_ARCH__)
#pragma omp simd
#endif
  for (int k = 0; k < N; ++k) {
    const index_t i = from + (static_cast<index_t>(k) < n ? static_cast<index_t>(k) : n - 1);
    grid.open_line(boids[i].position, lines[k], columns[k]);
  }
}

// The boids whose lines and columns a lane of NoteTiles finds at once (OpenLines).
inline constexpr int kLinesAtOnce = 16;

// The lines and columns of up to kLinesAtOnce consecutive boids: the boids' cells are most of
// NoteTiles' work, found as one vector before it counts runs of tiles.
template <typename Real, int D>
struct OpenLines {
  typename CellGrid<Real, D>::Line lines[kLinesAtOnce];
  index_t columns[kLinesAtOnce];
  index_t n = 0;

  // Those of boids [from, end), at most kLinesAtOnce of them.
  BOIDS_HD BOIDS_INLINE void find(const CellGrid<Real, D>& grid, const Boid<Real, D>* boids,
                                  index_t from, index_t end) {
    n = end - from < index_t{kLinesAtOnce} ? end - from : index_t{kLinesAtOnce};
    find_open_lines(grid, boids, from, n, lines, columns);
  }
};

// Whether the tiles outnumber the slots: then homes go to the tiles of most boids, and the
// tiles of fewest share.
BOIDS_HD inline bool crowded(const OpenTable& table, index_t slots) {
  return atomic_load(&table.tally[kTallyTiles]) > slots;
}

// Whether the set holds more tiles than slots, or had no room for them all: then their boids
// count, which the planning counts in a pass of its own, not the move.
BOIDS_HD inline bool too_many_tiles(const OpenTable& table, index_t slots) {
  return atomic_load(&table.tally[kTallyFull]) != 0 || crowded(table, slots);
}

// Whether the set the last step's move filled will do: where it was (`noted`: no boid placed
// since), and the tiles are not too many (else their boids are counted, which the move does
// not). The set is otherwise counted again, and the boids keyed again.
struct BeginPlan {
  static constexpr const char* kStage = stage::kHash;
  OpenTable table;
  index_t slots;
  bool noted;
  BOIDS_HD void operator()(index_t) const {
    index_t* t = table.tally;
    const bool again =
        !noted || atomic_load(&t[kTallyCrowded]) != 0 || too_many_tiles(table, slots);
    atomic_store(&t[kTallyRecount], again ? 1 : 0);
    atomic_store(&t[kTallyRekey], again ? kRekeyAll : kRekeyNone);
    atomic_store(&t[kTallyFree], 0);
    atomic_store(&t[kTallyOthers], 0);
    if (again) {
      atomic_store(&t[kTallyFull], 0);
      atomic_store(&t[kTallyTiles], 0);
    }
  }
};

// The table emptied, and the set where it is counted again; `whole`, everything, the tallies
// too (a table new to its arrays).
struct ClearTable {
  static constexpr const char* kStage = stage::kHash;
  OpenTable table;
  index_t slots;
  bool whole;
  BOIDS_HD void operator()(index_t k) const {  // k < table.room, at least 2 * slots
    if (k < slots) {
      table.occupant[k] = kNoTile;
      table.held[k] = 0;
      table.homed[k] = 0;
      if (whole) table.seen[k] = table.stale[k] = 0;
    }
    if (whole || atomic_load(&table.tally[kTallyRecount]) != 0) {
      table.present[k] = kNoTile;
      table.population[k] = 0;
    }
    if (whole) {
      table.moved[k] = kNoTile;
      table.moved_slot[k] = kNoSlot;
      if (k < kTallies) atomic_store(&table.tally[k], 0);
    }
  }
};

// The entry of `tile` in the set, entered where it was not yet (`entered` then true); kNoSlot
// where the set has no room, which its tally then says. Most tiles are in already, found
// without a write. Once the set is full, no tile is looked for: a flock dispersed over far
// more tiles than the set's room would otherwise search all of it for each of its tiles.
BOIDS_HD inline index_t enter_tile(const OpenTable& t, std::uint64_t tile, bool& entered) {
  entered = false;
  if (atomic_load(&t.tally[kTallyFull]) != 0) return kNoSlot;
  index_t k = t.probe(tile, 0);
  for (index_t tries = 0; tries < t.room; ++tries, k = (k + 1) & (t.room - 1)) {
    std::uint64_t seen = atomic_load(&t.present[k]);
    if (seen == kNoTile) seen = atomic_compare_exchange(&t.present[k], kNoTile, tile);
    if (seen == kNoTile) {
      atomic_increment(&t.tally[kTallyTiles]);
      entered = true;
      return k;
    }
    if (seen == tile) return k;
  }
  atomic_store(&t.tally[kTallyFull], 1);
  return kNoSlot;
}

// The step's move: `tile`, whose boids it keyed by `slot`, for the next planning. A tile
// that holds the slot is marked there (its line of the table mostly read already, and
// written once a step); any other (a tile new to the table) enters the set, with the slot
// (the same for each of its boids, so whichever enters it says it).
BOIDS_HD inline void note_keyed_tile(const OpenTable& t, std::uint64_t tile, index_t slot) {
  if (t.occupant[slot] == tile) {
    if (atomic_load(&t.seen[slot]) == 0) atomic_store(&t.seen[slot], 1);
    return;
  }
  bool entered = false;
  const index_t k = enter_tile(t, tile, entered);
  if (entered) atomic_store(&t.keyed[k], slot);
}

// The tiles the move marked in their own slots, entered in the set with them (the table as
// the move read it, before the planning clears it); the marks cleared. Marks left from before
// the boids were placed (not `noted`) are only cleared.
struct GatherSeen {
  static constexpr const char* kStage = stage::kHash;
  OpenTable table;
  bool noted;
  BOIDS_HD void operator()(index_t s) const {  // s < slots
    if (table.seen[s] == 0) return;
    table.seen[s] = 0;
    if (!noted) return;
    bool entered = false;
    const index_t k = enter_tile(table, table.occupant[s], entered);
    if (entered) table.keyed[k] = s;
  }
};

// Each boid's tile in the set, with its boids, where the set is counted again; and, in the
// index's keys and order (free until OpenCellKeys, which then keys every boid), each boid's
// tile's entry in the set and its key within its tile's slot, from which OpenCellKeys keys
// it once the tiles have slots, rather than from its position again.
template <typename Real, int D>
struct NoteTiles {
  static constexpr const char* kStage = stage::kHash;
  const Boid<Real, D>* boids;
  index_t* entries;  // the index's keys
  index_t* offsets;  // the index's order
  index_t count;
  CellGrid<Real, D> grid;

  BOIDS_HD void operator()(index_t lane) const {
    if (atomic_load(&grid.table.tally[kTallyRecount]) == 0) return;  // the move's set stands
    std::uint64_t last = kNoTile;
    index_t run_from = 0;
    const index_t end = lane_end(lane, count);
    for (index_t from = lane * kBoidsALane; from < end; from += kLinesAtOnce) {
      OpenLines<Real, D> at;
      at.find(grid, boids, from, end);
      for (index_t k = 0; k < at.n; ++k) {
        const index_t i = from + k;
        offsets[i] = grid.key_in_tile(at.lines[k], at.columns[k]);
        const std::uint64_t tile = OpenTiles<D>::tile(at.lines[k]);
        if (tile == last) continue;
        if (last != kNoTile) note(last, run_from, i);
        last = tile;
        run_from = i;
      }
    }
    if (last != kNoTile) note(last, run_from, end);
  }

  // Adds `tile` to the set, unless it is there already, and its boids [from, end) to its
  // population; their entry, kNoSlot where the set has no room.
  BOIDS_HD void note(std::uint64_t tile, index_t from, index_t end) const {
    bool entered = false;
    const index_t k = enter_tile(grid.table, tile, entered);
    if (k != kNoSlot) atomic_add(&grid.table.population[k], end - from);
    for (index_t i = from; i < end; ++i) entries[i] = k;
  }
};

// Whether the tiles are too many, for every stage after this one and the step to read
// (OpenTable::slot_of: those left without a slot scatter; the move leaves its keys), with a
// plain read: nothing writes it meanwhile. The stages before read the last planning's.
struct NoteCrowding {
  static constexpr const char* kStage = stage::kHash;
  OpenTable table;
  index_t slots;
  BOIDS_HD void operator()(index_t) const {
    table.tally[kTallyCrowded] = too_many_tiles(table, slots) ? 1 : 0;
  }
};

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
    if (tile == kNoTile || atomic_load(&table.tally[kTallyFull]) != 0) return;
    const index_t home = table.home(tile, slots);
    const bool by_boids = crowded(table, slots);
    if (weighing) {
      if (by_boids) {
        atomic_max(&table.held[home], table.population[k]);
        atomic_increment(&table.homed[home]);
      }
    } else if (!by_boids || table.population[k] == table.held[home]) {
      atomic_min(&table.occupant[home], tile);
    }
  }
};

// Selects the first `k` of the tiles in [0, n) (by tile, or with `by_boids` from most boids
// to fewest and, of as many, by tile) and calls place(tile) for each, in order: a heap whose
// root is the first, built in one pass and popped k times (one lane, no memory beside the
// arrays), so that a crowded table's lane, placing a few hundred tiles of thousands, sorts
// no more than it places.
template <typename Place>
BOIDS_HD void place_first_tiles(std::uint64_t* tiles, index_t* boids, index_t n, index_t k,
                                bool by_boids, const Place& place) {
  const auto before = [&](index_t i, index_t j) {  // whether tile i comes before tile j
    if (by_boids && boids[i] != boids[j]) return boids[i] > boids[j];
    return tiles[i] < tiles[j];
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
      if (child + 1 < end && before(child + 1, child)) ++child;
      if (!before(child, root)) return;
      swap(root, child);
      root = child;
    }
  };
  if (k == 0) return;
  for (index_t r = n / 2; r-- > 0;) sift(r, n);
  for (index_t end = n; end > 0 && n - end < k; --end) {
    place(tiles[0]);
    swap(0, end - 1);
    sift(0, end - 1);
  }
}

// The slots no tile claimed, counted, and the tiles that lost their home listed in the table
// of moved tiles (emptied next, before it is filled) with their boids: a lane for each entry,
// so that the one lane placing them reads the few it places, not the set and the slots.
struct ListOthers {
  static constexpr const char* kStage = stage::kHash;
  OpenTable table;
  index_t slots;
  BOIDS_HD void operator()(index_t k) const {  // k < table.room, at least 2 * slots
    if (atomic_load(&table.tally[kTallyFull]) != 0) return;
    if (k < slots && table.occupant[k] == kNoTile) atomic_increment(&table.tally[kTallyFree]);
    const std::uint64_t tile = table.present[k];
    if (tile == kNoTile || table.occupant[table.home(tile, slots)] == tile) return;
    const index_t at = atomic_increment(&table.tally[kTallyOthers]);
    table.moved[at] = tile;
    table.moved_slot[at] = table.population[k];
  }
};

// The listed tiles, in order of tile (the lanes listed them in any order), each placed in the
// first free slot after its home (wrapping around): a tile that comes or goes moves only the
// few placed near it, so from step to step the table, and the boids' order, change little.
// Where tiles outnumber the slots, those of most boids are placed first, and the rest share
// (OpenTable::slot_of): the boids that share are the fewest.
struct PlaceOthers {
  static constexpr const char* kStage = stage::kHash;
  OpenTable table;
  index_t slots;
  BOIDS_HD void operator()(index_t) const {
    if (atomic_load(&table.tally[kTallyFull]) != 0) return;
    const index_t others = atomic_load(&table.tally[kTallyOthers]);
    const index_t free_slots = atomic_load(&table.tally[kTallyFree]);
    const index_t placed = others < free_slots ? others : free_slots;
    place_first_tiles(table.moved, table.moved_slot, others, placed, crowded(table, slots),
                      [&](std::uint64_t tile) {
                        index_t s = table.home(tile, slots);
                        while (table.occupant[s] != kNoTile) s = (s + 1) & (slots - 1);
                        table.occupant[s] = tile;
                      });
  }
};

struct ClearMoved {
  static constexpr const char* kStage = stage::kHash;
  OpenTable table;
  BOIDS_HD void operator()(index_t k) const {  // k < table.room
    table.moved[k] = kNoTile;
    table.moved_slot[k] = kNoSlot;
  }
};

// Enters each tile held away from its home in the table of moved tiles.
struct RecordMoved {
  static constexpr const char* kStage = stage::kHash;
  OpenTable table;
  index_t slots;
  BOIDS_HD void operator()(index_t s) const {
    const std::uint64_t tile = table.occupant[s];
    if (tile == kNoTile || table.home(tile, slots) == s) return;
    for (index_t k = table.probe(tile, 1);; k = (k + 1) & (table.room - 1)) {
      if (atomic_compare_exchange(&table.moved_slot[k], kNoSlot, s) == kNoSlot) {
        table.moved[k] = tile;
        return;
      }
    }
  }
};

// Whether each tile of the set the move filled keeps the slot the move keyed its boids by:
// where one does not, the boids keyed by that slot are keyed again. A new tile at the
// flock's edge moves the few tiles placed near it, so most boids keep their keys. Where the
// set was counted again (every boid keyed again), each entry's slot instead, in its `keyed`.
struct CheckKeys {
  static constexpr const char* kStage = stage::kHash;
  OpenTable table;
  index_t slots;
  BOIDS_HD void operator()(index_t k) const {  // k < table.room
    const std::uint64_t tile = table.present[k];
    if (tile == kNoTile) return;
    const index_t slot = table.slot_of(tile, slots);
    if (atomic_load(&table.tally[kTallyRekey]) == kRekeyAll) {
      table.keyed[k] = slot;  // the set counted again: the entry's slot, for OpenCellKeys
      return;
    }
    if (slot != table.keyed[k]) {
      atomic_store(&table.stale[table.keyed[k]], 1);
      atomic_store(&table.tally[kTallyRekey], kRekeyStale);
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
    const index_t rekey = atomic_load(&grid.table.tally[kTallyRekey]);
    if (rekey == kRekeyNone) return;  // the move's keys stand
    typename CellGrid<Real, D>::TileSlot last;
    const index_t end = lane_end(lane, count);
    if (rekey == kRekeyAll) {  // from each boid's entry and offset (NoteTiles, CheckKeys)
      for (index_t i = lane * kBoidsALane; i < end; ++i) {
        const index_t entry = keys[i];
        keys[i] = entry != kNoSlot ? grid.first_key_of_slot(grid.table.keyed[entry]) + order[i]
                                   : grid.open_key(boids[i].position, last);
        order[i] = i;
      }
      return;
    }
    for (index_t i = lane * kBoidsALane; i < end; ++i) {  // the boids of stale slots
      if (grid.table.stale[grid.slot_of_key(keys[i])] == 0) continue;
      keys[i] = grid.open_key(boids[i].position, last);
      order[i] = i;
    }
  }
};

// The set emptied for the step's move to fill.
struct EmptySet {
  static constexpr const char* kStage = stage::kHash;
  OpenTable table;
  index_t slots;
  BOIDS_HD void operator()(index_t k) const {  // k < table.room
    table.present[k] = kNoTile;
    table.population[k] = 0;
    if (k < slots) table.stale[k] = 0;
    if (k == 0) {
      index_t* t = table.tally;
      atomic_store(&t[kTallyFull], 0);
      atomic_store(&t[kTallyTiles], 0);
    }
  }
};

// Whether tiles of open space may share a slot of `t`, and so a cell's keys hold other cells'
// boids: where no table is kept (every tile at home), or its last planning found too many
// tiles. Otherwise every tile has a slot of its own.
BOIDS_HD inline bool slots_shared(const OpenTable& t) {
  return t.occupant == nullptr || atomic_load(&t.tally[kTallyCrowded]) != 0;
}

// Whether the step's move leaves the keying to the next planning: where the last found too
// many tiles (they share slots), which the next then counts again, boid by boid.
BOIDS_HD inline bool move_leaves_keys(const OpenTable& t) {
  return slots_shared(t);
}

// Plans the table of `grid` for the boids of index `x` where they are now, and keys them by
// it, ready for the sort; then empties the set for the step's move. Where x's keys are the
// move's (keys_ready), so is the set.
template <typename Real, int D, typename Executor>
void plan_open_table(Executor& exec, CellIndex<Real, D>& x, const CellGrid<Real, D>& grid) {
  const OpenTable& t = grid.table;
  const index_t slots = grid.open_slots();
  const index_t lanes = lanes_for(x.count);
  exec.for_each(slots, GatherSeen{t, x.keys_ready});
  exec.for_each(1, BeginPlan{t, slots, x.keys_ready});
  exec.for_each(t.room, ClearTable{t, slots, /*whole=*/false});
  exec.for_each(lanes, NoteTiles<Real, D>{x.boids, x.keys, x.order, x.count, grid});
  exec.for_each(1, NoteCrowding{t, slots});
  exec.for_each(t.room, ClaimHomes{t, slots, /*weighing=*/true});
  exec.for_each(t.room, ClaimHomes{t, slots, /*weighing=*/false});
  exec.for_each(t.room, ListOthers{t, slots});
  exec.for_each(1, PlaceOthers{t, slots});
  exec.for_each(t.room, ClearMoved{t});
  exec.for_each(slots, RecordMoved{t, slots});
  exec.for_each(t.room, CheckKeys{t, slots});
  exec.for_each(lanes, OpenCellKeys<Real, D>{x.boids, x.keys, x.order, x.count, grid});
  exec.for_each(t.room, EmptySet{t, slots});
  x.keys_ready = true;
}

// The index of one flock on `grid`. In open space, where the simulation keeps a table of
// tiles, the table is planned first for the boids where they are: a step's move leaves their
// keys to the plan where the tiles outnumber its slots, and every index of the positions (the
// step's, the metrics') must sort by the plan's keys.
template <typename Real, int D, typename Executor>
void build_cell_index(Executor& exec, CellIndex<Real, D>& x, const CellGrid<Real, D>& grid,
                      bool carry_ids) {
  if (grid.open && grid.table.occupant != nullptr) plan_open_table(exec, x, grid);
  build_cell_index(exec, x, ComputeCellKeys<Real, D>{x.boids, x.keys, x.order, grid}, grid.cells(),
                   carry_ids);
}

}  // namespace boids::kernels
