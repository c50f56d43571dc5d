// The sorted-cell index of a flock, built by the hashed step and by the metrics alike:
//   hash    key each boid by its cell                       (ComputeCellKeys; after a hashed
//           step the step itself has keyed the boids it moved)
//   sort    stable sort of the keys, and the cell starts    (the executor's sort_cells; the
//           starts come from the sort itself, or from the stages of find_cell_starts)
//   reorder gather the boids (and their ids) in cell order   (ReorderByCell)
// Boids stay in cell order between hashed steps, so each sort finds them nearly sorted. An
// executor that can (kSortsMoving: CPU threads) then sorts and reorders in one pass: the sort
// moves each boid and its id straight to its place (MoveToCellOrder), and no permutation is
// written and read back.
// Five index arrays serve every stage: ids, keys, order and the cell starts, with the
// reordered state's buffer lent to the sort as scratch while it is free. That is what keeps
// a float flock within 48 bytes per boid.
#pragma once

#include <type_traits>

#include "kernels/cell_grid.h"
#include "kernels/rules.h"
#include "kernels/stages.h"

namespace boids::kernels {

// Memory an executor may use while it sorts: the reordered state's buffer, not yet written.
struct Scratch {
  void* data;
  std::size_t bytes;
};

// The arrays of an index; views of memory the simulation owns.
template <typename Real, int D>
struct CellIndex {
  Boid<Real, D>* boids;   // the state; in cell order of the last index on the hashed method
  Boid<Real, D>* sorted;  // the state reordered into cell order (lent to the sort before that)
  index_t* ids;           // ids[i]: input index of boids[i] (hashed method only)
  index_t* keys;          // cell keys; scratch once the cell starts are known
  index_t* order;         // the identity before the sort, the sorting permutation after it
  index_t* cell_start;    // cells + 1 entries: boids of cell c are [cell_start[c], cell_start[c+1])
  index_t count;
  bool keys_ready = false;  // keys and order hold the keys of `boids` and the identity

  Scratch sort_scratch() const { return {sorted, sizeof(Boid<Real, D>) * count}; }

  // After a reorder that carried the ids, `order` holds the ids in cell order and `ids` the
  // old ones, no longer needed: the two arrays trade places. A swap of two distinct arrays,
  // so that neither can end up named twice.
  void adopt_sorted_ids() {
    index_t* old_ids = ids;
    ids = order;
    order = old_ids;
  }
};

struct Identity {
  index_t* values;
  BOIDS_HD void operator()(index_t i) const { values[i] = i; }
};

template <typename Real, int D>
struct ComputeCellKeys {
  static constexpr const char* kStage = stage::kHash;
  const Boid<Real, D>* boids;
  index_t* keys;
  index_t* order;
  CellGrid<Real, D> grid;

  BOIDS_HD void operator()(index_t i) const {
    keys[i] = grid.key(boids[i].position);
    order[i] = i;
  }
};

// Gathers the boids into cell order. With `CarryIds`, also the ids: each entry of `order` is
// read once, by its own index, and replaced by the id of the boid it named, so the ids need
// no array of their own (see CellIndex::adopt_sorted_ids).
template <typename Real, int D, bool CarryIds>
struct ReorderByCell {
  static constexpr const char* kStage = stage::kReorder;
  const Boid<Real, D>* boids;
  const index_t* ids;
  index_t* order;
  Boid<Real, D>* sorted;

  BOIDS_HD void operator()(index_t i) const {
    const index_t from = order[i];
    sorted[i] = boids[from];
    if (CarryIds) order[i] = ids[from];
  }
};

// The reorder done by the sort itself, on executors that sort_cells_moving: boid `from` goes to
// its place `to` in cell order, its id with it.
template <typename Real, int D>
struct MoveToCellOrder {
  const Boid<Real, D>* boids;
  const index_t* ids;
  Boid<Real, D>* sorted;
  index_t* sorted_ids;

  BOIDS_HD void operator()(index_t from, index_t to) const {
    sorted[to] = boids[from];
    sorted_ids[to] = ids[from];
  }
};

// Whether an executor can sort and reorder in one pass (Executor::kSortsMoving).
template <typename Executor, typename = void>
struct SortsMoving {
  static constexpr bool value = false;
};
template <typename Executor>
struct SortsMoving<Executor, std::void_t<decltype(Executor::kSortsMoving)>> {
  static constexpr bool value = Executor::kSortsMoving;
};

// The cell starts from sorted keys in three stages, each balanced whatever the flock's shape
// (a clumped flock leaves long stretches of empty cells, which no single thread should fill):
//   clear   every entry 0                                            (ClearCellStarts)
//   mark    the last boid of a run of key k writes start[k + 1] = its index + 1 (MarkCellEnds)
//   scan    an inclusive maximum scan over the cells + 1 entries     (the executor's)
// After the scan start[c] = the number of boids with a key below c: an empty cell starts
// where the next non-empty one does, and start[cells] = count.
struct ClearCellStarts {
  static constexpr const char* kStage = stage::kCellStarts;
  index_t* cell_start;
  BOIDS_HD void operator()(index_t c) const { cell_start[c] = 0; }
};

struct MarkCellEnds {
  static constexpr const char* kStage = stage::kCellStarts;
  const index_t* sorted_keys;
  index_t* cell_start;
  index_t count;

  BOIDS_HD void operator()(index_t i) const {
    const index_t key = sorted_keys[i];
    if (i + 1 == count || sorted_keys[i + 1] != key) cell_start[key + 1] = i + 1;
  }
};

// `Executor` runs index-parallel functors and scans in place:
//   exec.for_each(count, functor), exec.inclusive_max_scan(values, count, scratch)
template <typename Executor>
void find_cell_starts(Executor& exec, const index_t* sorted_keys, index_t* cell_start,
                      index_t count, index_t cells, Scratch scratch) {
  exec.for_each(cells + 1, ClearCellStarts{cell_start});
  exec.for_each(count, MarkCellEnds{sorted_keys, cell_start, count});
  exec.inclusive_max_scan(cell_start, cells + 1, scratch);
}

// Builds the index of the current positions. `Executor` also sorts:
//   exec.sort_cells(keys, order, cell_start, count, cells, scratch): sorts the keys stably,
//   leaving in `order` the sorting permutation (it may use `order`'s identity as the sort's
//   values and `keys` as scratch) and in `cell_start` the cell starts.
// `key_boids(i)` writes boid i's key in [0, cells) and the identity (ComputeCellKeys for one
// flock). With `carry_ids` the ids follow the boids into cell order (the hashed step);
// without, the ids are left alone and `order` keeps the permutation (the metrics).
template <typename Real, int D, typename Executor, typename KeyBoids>
void build_cell_index(Executor& exec, CellIndex<Real, D>& x, const KeyBoids& key_boids,
                      index_t cells, bool carry_ids) {
  const index_t n = x.count;
  if (!x.keys_ready) exec.for_each(n, key_boids);
  if constexpr (SortsMoving<Executor>::value) {
    if (carry_ids &&
        exec.sort_cells_moving(x.keys, x.cell_start, n, cells,
                               MoveToCellOrder<Real, D>{x.boids, x.ids, x.sorted, x.order})) {
      x.keys_ready = false;
      x.adopt_sorted_ids();
      return;
    }
  }
  exec.sort_cells(x.keys, x.order, x.cell_start, n, cells, x.sort_scratch());
  x.keys_ready = false;  // the sort has used them
  if (carry_ids) {
    exec.for_each(n, ReorderByCell<Real, D, true>{x.boids, x.ids, x.order, x.sorted});
    x.adopt_sorted_ids();
  } else {
    exec.for_each(n, ReorderByCell<Real, D, false>{x.boids, nullptr, x.order, x.sorted});
  }
}

// The index of one flock on a CellGrid: build_cell_index(exec, x, grid, carry_ids), in
// kernels/open_table.h, which plans open space's table first.

}  // namespace boids::kernels
