// The sorted-cell hash step, one small function per stage:
//   hash    key each boid by its cell                      (ComputeCellKeys)
//   sort    stable radix sort of (key, index) pairs        (the executor's sort_pairs)
//   reorder gather boids and ids into cell order           (ReorderByCell)
//   bounds  first sorted index of every cell               (FindCellStarts)
//   step    each boid gathers its 3x3 block as row runs    (HashedStepBoid)
// Boids stay in cell order between steps, so the next sort finds them nearly sorted and the
// step reads neighbours from contiguous memory. An id array maps them back to input order.
// Accumulations never use atomics: results depend on neither thread count nor run.
#pragma once

#include "kernels/cell_grid.h"
#include "kernels/rules.h"

namespace boids::kernels {

// The device arrays of a hashed flock. `boids` and `ids` persist between steps; the rest is
// scratch. Key and permutation arrays come in pairs for the double-buffered radix sort.
template <typename Real>
struct HashedBuffers {
  Boid<Real>* boids;     // current state, in cell order of the previous step
  Boid<Real>* sorted;    // scratch: the state reordered into cell order
  index_t* ids;          // ids[i]: input index of boids[i]
  index_t* keys[2];      // cell keys; after the sort keys[sorted_slot] holds the sorted keys
  index_t* order[2];     // permutation; after the sort order[sorted_slot] maps sorted -> old
  index_t* cell_start;   // cells + 1 entries: boids of cell c are [cell_start[c], cell_start[c+1])
  index_t count;
};

// Which of the two buffers of each pair holds the sorted keys and the sorted values.
struct SortedSlots {
  int keys;
  int values;
};

template <typename Real>
struct ComputeCellKeys {
  const Boid<Real>* boids;
  index_t* keys;
  index_t* order;
  CellGrid<Real> grid;

  BOIDS_HD void operator()(index_t i) const {
    keys[i] = grid.key(boids[i].x, boids[i].y);
    order[i] = i;
  }
};

template <typename Real>
struct ReorderByCell {
  const Boid<Real>* boids;
  const index_t* ids;
  const index_t* order;
  Boid<Real>* sorted_boids;
  index_t* sorted_ids;

  BOIDS_HD void operator()(index_t i) const {
    const index_t from = order[i];
    sorted_boids[i] = boids[from];
    sorted_ids[i] = ids[from];
  }
};

// Each boid that starts a run of equal keys writes the starts of the cells between the
// previous key and its own, so every entry is written exactly once and empty cells too.
struct FindCellStarts {
  const index_t* sorted_keys;
  index_t* cell_start;
  index_t count;
  index_t cells;

  BOIDS_HD void operator()(index_t i) const {
    const index_t key = sorted_keys[i];
    const index_t first_cell = i == 0 ? 0 : sorted_keys[i - 1] + 1;
    for (index_t c = first_cell; c <= key; ++c) cell_start[c] = i;
    if (i + 1 == count) {
      for (index_t c = key + 1; c <= cells; ++c) cell_start[c] = count;
    }
  }
};

template <typename Real>
struct HashedStepBoid {
  const Boid<Real>* sorted;
  Boid<Real>* out;
  const index_t* cell_start;
  CellGrid<Real> grid;
  StepParams<Real> params;

  BOIDS_HD void operator()(index_t i) const {
    const Boid<Real> self = sorted[i];
    NeighborSums<Real> sums;
    sums.clear(0);
    grid.for_each_block_run(grid.coordinate(self.x), grid.coordinate(self.y),
                            [&](index_t first_key, index_t last_key) {
                              const index_t end = cell_start[last_key + 1];
                              for (index_t k = cell_start[first_key]; k < end; ++k) {
                                if (k != i) accumulate_neighbor(sums, 0, self.x, self.y, sorted[k], params);
                              }
                            });
    out[i] = advance_boid(self, sums, 0, params);
  }
};

// One hashed step. `Executor` runs index-parallel functors and sorts key/value pairs:
//   exec.for_each(count, functor)
//   exec.sort_pairs(keys[2], values[2], count, bits) -> SortedSlots: where the results are
template <typename Real, typename Executor>
void hashed_step(Executor& exec, HashedBuffers<Real>& b, const CellGrid<Real>& grid,
                 const StepParams<Real>& params) {
  const index_t n = b.count;
  exec.for_each(n, ComputeCellKeys<Real>{b.boids, b.keys[0], b.order[0], grid});
  const SortedSlots slots = exec.sort_pairs(b.keys, b.order, n, key_bits(grid.cells()));
  index_t* sorted_ids = b.keys[1 - slots.keys];  // the unsorted keys are no longer needed
  exec.for_each(n, ReorderByCell<Real>{b.boids, b.ids, b.order[slots.values], b.sorted, sorted_ids});
  exec.for_each(n, FindCellStarts{b.keys[slots.keys], b.cell_start, n, grid.cells()});
  exec.for_each(n, HashedStepBoid<Real>{b.sorted, b.boids, b.cell_start, grid, params});
  b.keys[1 - slots.keys] = b.ids;  // the old id array becomes scratch for the next step's keys
  b.ids = sorted_ids;
}

}  // namespace boids::kernels
