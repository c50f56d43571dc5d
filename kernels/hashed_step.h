// The sorted-cell hash step: the cell index (kernels/cell_index.h: hash, sort, reorder, cell
// starts), then each boid gathers its 3x3 block as row runs (HashedStepBlock). The step also
// keys the boids it moves, so the next index needs no pass of its own to hash them. Boids stay
// in cell order between steps, so the next sort finds them nearly sorted and the step reads
// neighbours from contiguous memory; an id array maps them back to input order.
// Accumulations never use atomics: results depend on neither thread count nor run.
#pragma once

#include "kernels/advance.h"
#include "kernels/cell_index.h"

namespace boids::kernels {

// Steps a block of `Lanes` consecutive sorted boids. The boids of a block that share a row
// of cells gather together from the cells around their span of columns: a superset of each
// one's 3x3 block, in which the distance test rejects the others. With one lane (a GPU
// thread per boid) that is exactly the boid's 3x3 block; on CPU threads the lane loop
// vectorises across boids, each adding its candidates in sorted order.
template <typename Model, typename Real, int Lanes>
struct HashedStepBlock {
  static constexpr index_t kNearObstacles = 32;  // room for the obstacles near one block
  using Sums = typename Model::template Sums<Real, Lanes>;

  const Boid<Real>* sorted;
  const index_t* ids;  // input index of each sorted boid (keys its noise)
  Boid<Real>* out;
  const index_t* cell_start;  // the flock's own: cell c starts at cell_start[c]
  CellGrid<Real> grid;
  StepParams<Real> params;
  index_t count;
  index_t* next_keys;   // the moved boids' cell keys, for the next step's sort
  index_t* next_order;  // the identity, for the next step's sort
  // In a batch (kernels/batch_step.h), the flock's first slot and first cell key.
  index_t first_slot = 0;
  index_t key_base = 0;

  static index_t blocks_for(index_t count) { return (count + Lanes - 1) / Lanes; }

  BOIDS_HD void operator()(index_t block) const {
    const index_t block_end = first_slot + min_of<index_t>(block * Lanes + Lanes, count);
    index_t first = first_slot + block * Lanes;
    while (first < block_end) {
      const index_t row = grid.row(sorted[first].y);
      index_t end = first + 1;
      while (end < block_end && grid.row(sorted[end].y) == row) ++end;
      step_row_segment(first, end, row);
      first = end;
    }
  }

 private:
  // Steps sorted boids [first, end), all in row `row`, hence in ascending columns.
  BOIDS_HD void step_row_segment(index_t first, index_t end, index_t row) const {
    const StepParams<Real> p = params;  // a local copy: provably not aliased by the sums
    LaneBoids<Real, Lanes> self;
    Sums sums;
    start_lanes<Model>(sorted, first, end - 1, self, sums);
    const index_t first_column = grid.column(sorted[first].x);
    const index_t last_column = grid.column(sorted[end - 1].x);
    const bool wraps = !grid.spans_without_wrap(first_column, last_column, row);
    with_pair_flags(wraps, p.limited_view, [&](auto flags) BOIDS_LAMBDA_INLINE {
      gather<decltype(flags)>(sums, self, first, first_column, last_column, row, p);
    });
    with_extras(p, [&](auto extras) BOIDS_LAMBDA_INLINE {
      advance_all<decltype(extras)>(sums, self, first, end, p);
    });
  }

  // Moves sorted boids [first, end) (kernels/advance.h) and keys them for the next sort. With
  // the extras, the world's terms come first, from the obstacles near the block only.
  template <typename E>
  BOIDS_HD BOIDS_INLINE void advance_all(const Sums& sums, const LaneBoids<Real, Lanes>& self,
                                         index_t first, index_t end,
                                         const StepParams<Real>& step) const {
    StepParams<Real> p = step;
    Obstacle<Real> near[Lanes > 1 ? kNearObstacles : 1];
    if (E::kAny && Lanes > 1 && p.obstacle_count > 0) narrow_to_block(p, self, near);
    LaneBoids<Real, Lanes> next;
    advance_block<Model, E>(
        next, self, static_cast<int>(end - first), sums,
        [&](int lane) BOIDS_LAMBDA_INLINE { return ids[first + static_cast<index_t>(lane)]; }, p);
    index_t keys[Lanes];
#if !defined(__CUDA_ARCH__)
#pragma omp simd
#endif
    for (int lane = 0; lane < Lanes; ++lane) keys[lane] = grid.key(next.x[lane], next.y[lane]);
    for (index_t i = first; i < end; ++i) {
      const int lane = static_cast<int>(i - first);
      out[i] = next.boid(lane);
      next_keys[i] = key_base + keys[lane];
      next_order[i] = i;
    }
  }

  // Narrows the obstacles to those near the block's boids: most blocks have none near, and a
  // step among obstacles costs about as much as one without.
  BOIDS_HD void narrow_to_block(StepParams<Real>& p, const LaneBoids<Real, Lanes>& self,
                                Obstacle<Real>* near) const {
    Real x0 = self.x[0], x1 = self.x[0], y0 = self.y[0], y1 = self.y[0];
    for (int lane = 1; lane < Lanes; ++lane) {
      x0 = min_of(x0, self.x[lane]);
      x1 = max_of(x1, self.x[lane]);
      y0 = min_of(y0, self.y[lane]);
      y1 = max_of(y1, self.y[lane]);
    }
    const Real wind = square_root(p.wind_x * p.wind_x + p.wind_y * p.wind_y);
    const Real travel = (p.max_speed + wind) * p.dt * Real(1.01);  // a step's longest move
    narrow_obstacles(p, x0, x1, y0, y1, travel, near, kNearObstacles);
  }

  // Adds the candidates around the span to every lane but the boid itself.
  template <typename F>
  BOIDS_HD BOIDS_INLINE void gather(Sums& sums, const LaneBoids<Real, Lanes>& self, index_t first,
                                    index_t first_column, index_t last_column, index_t row,
                                    const StepParams<Real>& p) const {
    const typename CellGrid<Real>::Runs runs = grid.span_runs(first_column, last_column, row);
    for (int r = 0; r < runs.count; ++r) {
      const index_t run_end = cell_start[runs.last[r] + 1];
      for (index_t j = cell_start[runs.first[r]]; j < run_end; ++j) {
        const Boid<Real> candidate = sorted[j];
#if !defined(__CUDA_ARCH__)
#pragma omp simd
#endif
        for (int lane = 0; lane < Lanes; ++lane) {
          accumulate_neighbor<Model, F::kWraps, F::kLimitedView>(sums, lane, self, candidate, p,
                                                                 j != first + lane);
        }
      }
    }
  }
};

// One hashed step. `Executor` runs index-parallel functors and builds the cell index (see
// build_cell_index); Executor::hashed_lanes<Real> is the boids per block of the step (1 on a
// GPU). The step writes the moved boids over the state in cell order, and their keys and the
// identity into the index's spare arrays, ready for the next sort.
template <typename Model, typename Real, typename Executor>
void hashed_step(Executor& exec, CellIndex<Real>& x, const CellGrid<Real>& grid,
                 const StepParams<Real>& params) {
  build_cell_index(exec, x, grid, /*carry_ids=*/true);
  using Step = HashedStepBlock<Model, Real, Executor::template hashed_lanes<Real>>;
  exec.for_each(Step::blocks_for(x.count), Step{x.sorted, x.ids, x.boids, x.cell_start, grid,
                                                params, x.count, x.keys, x.order});
  x.keys_ready = true;
}

}  // namespace boids::kernels
