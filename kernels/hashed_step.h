// The sorted-cell hash step: the cell index (kernels/cell_index.h: hash, sort, reorder, cell
// starts), then each boid gathers its 3x3 block as 3 row runs, or its 3x3x3 block as 9
// (HashedStepBlock; on CPU threads in 3D, PencilStep). The step also
// keys the boids it moves, so the next index needs no pass of its own to hash them. Boids stay
// in cell order between steps, so the next sort finds them nearly sorted and the step reads
// neighbours from contiguous memory; an id array maps them back to input order.
// Accumulations never use atomics: results depend on neither thread count nor run.
#pragma once

#include "kernels/advance.h"
#include "kernels/cell_index.h"

namespace boids::kernels {

// The sorted boids of a block listed from a pencil of lines (PencilStep); a line's block holds
// consecutive ones (ConsecutiveSlots, kernels/rules.h). Lanes from `active` on hold no boid.
template <int Lanes>
struct ListedSlots {
  index_t at[Lanes];
  int active = 0;
  BOIDS_HD index_t operator[](int lane) const { return at[lane]; }
};

// Steps a block of `Lanes` consecutive sorted boids. The boids of a block that share a line
// of cells (a row; in 3D, a row of a layer) gather together from the cells around their span
// of columns: a superset of each one's block of cells, in which the distance test rejects the
// others. With one lane (a GPU thread per boid) that is exactly the boid's block; on CPU
// threads the block's lanes are one vector with AVX-512 (kernels/lane_pack.h), else a loop
// over the lanes that vectorises, each lane adding its candidates in sorted order.
template <typename Model, typename Real, int Lanes, int D>
struct HashedStepBlock {
  static constexpr const char* kStage = stage::kStep;
  static constexpr index_t kNearObstacles = 32;  // room for the obstacles near one block
  using Sums = typename Model::template Sums<Real, Lanes, D>;

  const Boid<Real, D>* sorted;
  const index_t* ids;  // input index of each sorted boid (keys its noise)
  Boid<Real, D>* out;
  const index_t* cell_start;  // the flock's own: cell c starts at cell_start[c]
  CellGrid<Real, D> grid;
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
      const index_t line = grid.line(sorted[first].position);
      index_t end = first + 1;
      while (end < block_end && grid.line(sorted[end].position) == line) ++end;
      step_lanes<1>(ConsecutiveSlots{first, static_cast<int>(end - first)},
                    grid.column(sorted[first].position[0]),
                    grid.column(sorted[end - 1].position[0]), line);
      first = end;
    }
  }

  // Steps the sorted boids in `slots`, all in columns [first_column, last_column] of the block
  // of Extent lines along each axis but x from line `line` (each boid's lines around are
  // gathered in their own order: see CellGrid::span_runs).
  template <int Extent, typename Slots>
  BOIDS_HD void step_lanes(const Slots& slots, index_t first_column, index_t last_column,
                           index_t line) const {
    const StepParams<Real> p = params;  // a local copy: provably not aliased by the sums
    LaneBoids<Real, Lanes, D> self;
    Sums sums;
    start_lanes<Model>(sorted, slots, self, sums);
    const bool wraps = !grid.template spans_without_wrap<Extent>(first_column, last_column, line);
    with_pair_flags(wraps, p.limited_view, [&](auto flags) BOIDS_LAMBDA_INLINE {
      gather<decltype(flags), Extent>(sums, self, slots, first_column, last_column, line, p);
    });
    with_extras(p, [&](auto extras) BOIDS_LAMBDA_INLINE {
      advance_all<decltype(extras)>(sums, self, slots, p);
    });
  }

 private:
  // Moves the boids in `slots` (kernels/advance.h) and keys them for the next sort. With the
  // extras, the world's terms come first, from the obstacles near the block only.
  template <typename E, typename Slots>
  BOIDS_HD BOIDS_INLINE void advance_all(const Sums& sums, const LaneBoids<Real, Lanes, D>& self,
                                         const Slots& slots, const StepParams<Real>& step) const {
    StepParams<Real> p = step;
    Obstacle<Real> near[Lanes > 1 ? kNearObstacles : 1];
    if (E::kAny && Lanes > 1 && p.obstacle_count > 0) narrow_to_block(p, self, near);
    LaneBoids<Real, Lanes, D> next;
    advance_block<Model, E>(
        next, self, slots.active, sums,
        [&](int lane) BOIDS_LAMBDA_INLINE { return ids[slots[lane]]; }, p);
    index_t keys[Lanes];
#if !defined(__CUDA_ARCH__)
#pragma omp simd
#endif
    for (int lane = 0; lane < Lanes; ++lane) {
      Real x[D];
      lane_position(next, lane, x);
      keys[lane] = grid.key(x);
    }
    for (int lane = 0; lane < slots.active; ++lane) {
      const index_t i = slots[lane];
      out[i] = next.boid(lane);
      next_keys[i] = key_base + keys[lane];
      next_order[i] = i;
    }
  }

  // Narrows the obstacles to those near the block's boids: most blocks have none near, and a
  // step among obstacles costs about as much as one without.
  BOIDS_HD void narrow_to_block(StepParams<Real>& p, const LaneBoids<Real, Lanes, D>& self,
                                Obstacle<Real>* near) const {
    Real low[D], high[D], wind[D];
    block_bounds(self, low, high);
    for (int a = 0; a < D; ++a) wind[a] = p.wind[a];
    const Real travel =
        (p.max_speed + square_root(length_sq(wind))) * p.dt * Real(1.01);  // a step's longest move
    narrow_obstacles(p, low, high, travel, near, kNearObstacles);
  }

  // Adds the candidates around the span to every lane but the boid itself.
  template <typename F, int Extent, typename Slots>
  BOIDS_HD BOIDS_INLINE void gather(Sums& sums, const LaneBoids<Real, Lanes, D>& self,
                                    const Slots& slots, index_t first_column, index_t last_column,
                                    index_t line, const StepParams<Real>& p) const {
    const auto runs = grid.template span_runs<Extent>(first_column, last_column, line);
#if !defined(__CUDACC__)
    if constexpr (Lanes > 1 && kGatherAsVectors) {
      gather_lanes<F>(sums, self, slots, runs, p);
      return;
    }
#endif
    for (int r = 0; r < runs.count; ++r) {
      const index_t run_end = cell_start[runs.last[r] + 1];
      for (index_t j = cell_start[runs.first[r]]; j < run_end; ++j) {
        const Boid<Real, D> candidate = sorted[j];
#if !defined(__CUDA_ARCH__)
#pragma omp simd
#endif
        for (int lane = 0; lane < Lanes; ++lane) {
          accumulate_neighbour<Model, F::kWraps, F::kLimitedView>(sums, lane, self, candidate, p,
                                                                  j != slots[lane]);
        }
      }
    }
  }

#if !defined(__CUDACC__)
  // gather on CPU threads: the block's lanes as vectors (kernels/lane_pack.h), its sums as a
  // Pack of them, each candidate added to every lane at once.
  template <typename F, typename Slots, typename Runs>
  BOIDS_INLINE void gather_lanes(Sums& sums, const LaneBoids<Real, Lanes, D>& self,
                                 const Slots& slots, const Runs& runs,
                                 const StepParams<Real>& p) const {
    using V = typename PackOf<Real, Lanes>::Values;
    using M = typename PackOf<Real, Lanes>::Mask;
    using Int = typename PackOf<Real, Lanes>::Int;
    V x[D], v[D];
    for (int a = 0; a < D; ++a) {
      x[a] = load_lanes<V>(self.position[a]);
      v[a] = load_lanes<V>(self.velocity[a]);
    }
    M slot;
    for (int lane = 0; lane < Lanes; ++lane) slot[lane] = static_cast<Int>(slots[lane]);
    typename Sums::Pack packed;
    packed.load(sums);
    for (int r = 0; r < runs.count; ++r) {
      const index_t run_end = cell_start[runs.last[r] + 1];
      for (index_t j = cell_start[runs.first[r]]; j < run_end; ++j) {
        accumulate_lanes<Model, F::kWraps, F::kLimitedView>(packed, x, v, sorted[j], p,
                                                            slot != static_cast<Int>(j));
      }
    }
    packed.store(sums);
  }
#endif
};

// The cpu backend's step of a box. A block of 16 boids of one line of cells gathers from the
// 9 lines around it: at the seed's mean neighbour count, about 140 candidates, 5 times what
// each lane needs. A block from a pencil of 2x2 lines spans a quarter of the columns and
// gathers from 16 lines: about 110, and the step takes 10 % less time. (With 8 lanes, the
// line block's runs are short already, and the pencil's listing of its boids costs more
// than it saves.) Each task steps one pencil, in blocks of Lanes boids taken column by column
// across its lines; pencils hold uneven numbers of boids. Every lane still adds its own
// candidates in its own order, so the flight is the line blocks' and the GPU's, bit for bit.
template <typename Model, typename Real, int Lanes>
struct PencilStep {
  static constexpr const char* kStage = stage::kStep;
  static constexpr int kExtent = 2;  // lines of a pencil along y and along z
  static constexpr int kLeastLanes = 16;
  HashedStepBlock<Model, Real, Lanes, 3> step;

  static index_t pencils_along(index_t cells) { return (cells + kExtent - 1) / kExtent; }
  static index_t pencils_for(const CellGrid<Real, 3>& g) {
    return pencils_along(g.counts[1]) * pencils_along(g.counts[2]);
  }

  BOIDS_HD void operator()(index_t pencil) const {
    const CellGrid<Real, 3>& g = step.grid;
    const index_t columns = g.counts[0], rows = g.counts[1], layers = g.counts[2];
    const index_t row = pencil % pencils_along(rows) * kExtent;
    const index_t layer = pencil / pencils_along(rows) * kExtent;
    index_t line_keys[kExtent * kExtent];  // the first key of each line of the pencil
    int lines = 0;
    for (index_t z = layer; z < min_of(layer + kExtent, layers); ++z) {
      for (index_t y = row; y < min_of(row + kExtent, rows); ++y) {
        line_keys[lines++] = (z * rows + y) * columns;
      }
    }
    const index_t base_line = layer * rows + row;
    ListedSlots<Lanes> slots;
    index_t first_column = 0, last_column = 0;
    for (index_t c = 0; c < columns; ++c) {
      for (int l = 0; l < lines; ++l) {
        const index_t end = step.cell_start[line_keys[l] + c + 1];
        for (index_t j = step.cell_start[line_keys[l] + c]; j < end; ++j) {
          if (slots.active == 0) first_column = c;
          last_column = c;
          slots.at[slots.active++] = j;
          if (slots.active == Lanes) flush(slots, first_column, last_column, base_line);
        }
      }
    }
    if (slots.active > 0) flush(slots, first_column, last_column, base_line);
  }

 private:
  BOIDS_HD void flush(ListedSlots<Lanes>& slots, index_t first_column, index_t last_column,
                      index_t base_line) const {
    for (int lane = slots.active; lane < Lanes; ++lane) slots.at[lane] = slots.at[slots.active - 1];
    step.template step_lanes<kExtent>(slots, first_column, last_column, base_line);
    slots.active = 0;
  }
};

// One hashed step. `Executor` runs index-parallel functors and builds the cell index (see
// build_cell_index); Executor::hashed_lanes<Real> is the boids per block of the step (1 on a
// GPU). The step writes the moved boids over the state in cell order, and their keys and the
// identity into the index's spare arrays, ready for the next sort.
template <typename Model, typename Real, int D, typename Executor>
void hashed_step(Executor& exec, CellIndex<Real, D>& x, const CellGrid<Real, D>& grid,
                 const StepParams<Real>& params) {
  build_cell_index(exec, x, grid, /*carry_ids=*/true);
  constexpr int kLanes = Executor::template hashed_lanes<Real>;
  using Step = HashedStepBlock<Model, Real, kLanes, D>;
  const Step step{x.sorted, x.ids, x.boids, x.cell_start, grid, params, x.count, x.keys, x.order};
  x.keys_ready = true;
  if constexpr (D == 3 && kLanes >= PencilStep<Model, Real, kLanes>::kLeastLanes) {
    using Pencils = PencilStep<Model, Real, kLanes>;
    if (grid.template holds_blocks_of<Pencils::kExtent>()) {
      exec.for_each_uneven(Pencils::pencils_for(grid), Pencils{step});
      return;
    }
  }
  exec.for_each(Step::blocks_for(x.count), step);
}

}  // namespace boids::kernels
