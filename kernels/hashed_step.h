// The sorted-cell hash step, one small function per stage:
//   hash    key each boid by its cell                      (ComputeCellKeys; after the first
//           step the step itself keys the boids it moves)
//   sort    stable radix sort of (key, index) pairs        (the executor's sort_pairs)
//   reorder gather boids and ids into cell order           (ReorderByCell)
//   bounds  first sorted index of every cell               (FindCellStarts)
//   step    each boid gathers its 3x3 block as row runs    (HashedStepBlock)
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
  Boid<Real>* boids;    // current state, in cell order of the previous step
  Boid<Real>* sorted;   // scratch: the state reordered into cell order
  index_t* ids;         // ids[i]: input index of boids[i]
  index_t* keys[2];     // cell keys; after the sort keys[sorted_slot] holds the sorted keys
  index_t* order[2];    // permutation; after the sort order[sorted_slot] maps sorted -> old
  index_t* cell_start;  // cells + 1 entries: boids of cell c are [cell_start[c], cell_start[c+1])
  index_t count;
  bool keys_ready = false;  // keys[0] and order[0] hold the keys of `boids` and the identity
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

// Steps a block of `Lanes` consecutive sorted boids. The boids of a block that share a row
// of cells gather together from the cells around their span of columns: a superset of each
// one's 3x3 block, in which the distance test rejects the others. With one lane (a GPU
// thread per boid) that is exactly the boid's 3x3 block; on CPU threads the lane loop
// vectorises across boids, each adding its candidates in sorted order.
template <typename Real, int Lanes>
struct HashedStepBlock {
  const Boid<Real>* sorted;
  Boid<Real>* out;
  const index_t* cell_start;
  CellGrid<Real> grid;
  StepParams<Real> params;
  index_t count;
  index_t* next_keys;   // the moved boids' cell keys, for the next step's sort
  index_t* next_order;  // the identity, for the next step's sort

  static index_t blocks_for(index_t count) { return (count + Lanes - 1) / Lanes; }

  BOIDS_HD void operator()(index_t block) const {
    const index_t block_end = min_of<index_t>(block * Lanes + Lanes, count);
    index_t first = block * Lanes;
    while (first < block_end) {
      const index_t row = grid.coordinate(sorted[first].y);
      index_t end = first + 1;
      while (end < block_end && grid.coordinate(sorted[end].y) == row) ++end;
      step_row_segment(first, end, row);
      first = end;
    }
  }

 private:
  // Steps sorted boids [first, end), all in row `row`, hence in ascending columns.
  BOIDS_HD void step_row_segment(index_t first, index_t end, index_t row) const {
    const StepParams<Real> p = params;  // a local copy: provably not aliased by the sums
    Real x[Lanes], y[Lanes];
    NeighborSums<Real, Lanes> sums;
    start_lanes(sorted, first, end - 1, x, y, sums);
    const index_t first_column = grid.coordinate(sorted[first].x);
    const index_t last_column = grid.coordinate(sorted[end - 1].x);
    if (grid.spans_without_wrap(first_column, last_column, row)) {
      gather<false>(sums, x, y, first, first_column, last_column, row, p);
    } else {
      gather<true>(sums, x, y, first, first_column, last_column, row, p);
    }
    for (index_t i = first; i < end; ++i) {
      const Boid<Real> moved = advance_boid(sorted[i], sums, static_cast<int>(i - first), p);
      out[i] = moved;
      next_keys[i] = grid.key(moved.x, moved.y);
      next_order[i] = i;
    }
  }

  // Adds the candidates around the span to every lane but the boid itself.
  template <bool Wraps>
  BOIDS_HD void gather(NeighborSums<Real, Lanes>& sums, const Real* x, const Real* y, index_t first,
                       index_t first_column, index_t last_column, index_t row,
                       const StepParams<Real>& p) const {
    grid.for_each_span_run(first_column, last_column, row,
                           [&](index_t first_key, index_t last_key) {
                             const index_t run_end = cell_start[last_key + 1];
                             for (index_t j = cell_start[first_key]; j < run_end; ++j) {
                               const Boid<Real> candidate = sorted[j];
#if !defined(__CUDA_ARCH__)
#pragma omp simd
#endif
                               for (int lane = 0; lane < Lanes; ++lane) {
                                 accumulate_neighbor<Wraps>(sums, lane, x[lane], y[lane], candidate,
                                                            p, j != first + lane);
                               }
                             }
                           });
  }
};

// One hashed step. `Executor` runs index-parallel functors and sorts key/value pairs:
//   exec.for_each(count, functor)
//   exec.sort_pairs(keys[2], values[2], count, bits) -> SortedSlots: where the results are
//   exec.find_cell_starts(sorted_keys, cell_start, count, cells): FindCellStarts, or faster
//   Executor::hashed_lanes<Real>: boids per block of the step (1 on a GPU)
template <typename Real, typename Executor>
void hashed_step(Executor& exec, HashedBuffers<Real>& b, const CellGrid<Real>& grid,
                 const StepParams<Real>& params) {
  const index_t n = b.count;
  if (!b.keys_ready) exec.for_each(n, ComputeCellKeys<Real>{b.boids, b.keys[0], b.order[0], grid});
  const SortedSlots slots = exec.sort_pairs(b.keys, b.order, n, key_bits(grid.cells()));
  index_t* sorted_ids = b.keys[1 - slots.keys];  // the unsorted keys are no longer needed
  exec.for_each(n,
                ReorderByCell<Real>{b.boids, b.ids, b.order[slots.values], b.sorted, sorted_ids});
  exec.find_cell_starts(b.keys[slots.keys], b.cell_start, n, grid.cells());
  // The step also keys the moved boids for the next sort, saving it a pass over the state:
  // into the sorted keys' buffer and the spare permutation buffer, free once the cell starts
  // are known.
  index_t* next_keys = b.keys[slots.keys];
  index_t* next_order = b.order[1 - slots.values];
  using Step = HashedStepBlock<Real, Executor::template hashed_lanes<Real>>;
  exec.for_each(Step::blocks_for(n),
                Step{b.sorted, b.boids, b.cell_start, grid, params, n, next_keys, next_order});
  index_t* spare_order = b.order[slots.values];
  b.keys[0] = next_keys;
  b.keys[1] = b.ids;  // the old id array becomes scratch
  b.order[0] = next_order;
  b.order[1] = spare_order;
  b.ids = sorted_ids;
  b.keys_ready = true;
}

}  // namespace boids::kernels
