// The sorted-cell hash step: the cell index (kernels/cell_index.h: hash, sort, reorder, cell
// starts), then each boid gathers its 3x3 block as 3 row runs, or its 3x3x3 block as 9
// (HashedStepBlock). The step also
// keys the boids it moves, so the next index needs no pass of its own to hash them. Boids stay
// in cell order between steps, so the next sort finds them nearly sorted and the step reads
// neighbours from contiguous memory; an id array maps them back to input order.
// Accumulations never use atomics: results depend on neither thread count nor run.
#pragma once

#include "kernels/advance.h"
#include "kernels/cell_index.h"
#include "kernels/open_table.h"

namespace boids::kernels {

// Where a block's runs of candidates lie among the sorted boids, the empty ones left out, so
// that one loop can take them all, going on at each run's end to the next run's start.
template <int Most>
struct RunBounds {
  index_t from[Most + 1], to[Most + 1];  // and an entry past the last, read as a loop ends
  index_t total = 0;                     // the candidates in all the runs

  template <typename Runs>
  BOIDS_HD BOIDS_INLINE RunBounds(const Runs& runs, const index_t* cell_start) {
    int filled = 0;
    for (int r = 0; r < runs.count; ++r) {
      from[filled] = cell_start[runs.first[r]];
      to[filled] = cell_start[runs.last[r] + 1];
      total += to[filled] - from[filled];
      filled += from[filled] < to[filled] ? 1 : 0;
    }
    from[filled] = to[filled] = 0;
  }
};

// Steps a block of `Lanes` consecutive sorted boids. The boids of a block that share a line
// of cells (a row; in 3D, a row of a layer) gather together from the cells around their span
// of columns: a superset of each one's block of cells, in which the distance test rejects the
// others. With one lane (a GPU thread per boid) that is exactly the boid's block; on CPU
// threads the block's lanes are one vector (kernels/lane_pack.h), each lane adding its
// candidates in sorted order.
template <typename Model, typename Real, int Lanes, int D>
struct HashedStepBlock {
  static constexpr const char* kStage = stage::kStep;
  static constexpr index_t kNearObstacles = 32;  // room for the obstacles near one block
  // On a GPU, the blocks of threads that must fit on a multiprocessor at once, which caps a
  // thread's registers (kernels/cuda/for_each.cuh) at 64 in float and 128 in double. A thread
  // waits on its candidates' reads, and only many warps hide them: uncapped, the 3D step kept
  // too few warps on a multiprocessor to hide them (bench/results: the register cap).
  static constexpr int kMinBlocksPerSm = sizeof(Real) == 4 ? 4 : 2;
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
  // In open space, where the simulation watches for it: set (to 1) once a moved boid lies
  // beyond `reach` along an axis, so that no pass of its own looks for one.
  index_t* beyond = nullptr;
  Real reach = Real(0);

  static index_t blocks_for(index_t count) { return (count + Lanes - 1) / Lanes; }

  BOIDS_HD BOIDS_GPU_INLINE void operator()(index_t block) const {
    grid.with_openness([&](auto o) BOIDS_LAMBDA_INLINE { step_block(block, o); });
  }

  // Steps the sorted boids in `slots`, which share a line of cells, gathering from `runs`, the
  // cells around them; `wraps` when an offset between them may cross the torus's edge.
  template <typename Runs>
  BOIDS_HD BOIDS_GPU_INLINE void step_lanes(const ConsecutiveSlots& slots, const Runs& runs,
                                            bool wraps) const {
    const StepParams<Real> p = params;  // a local copy: provably not aliased by the sums
    LaneBoids<Real, Lanes, D> self;
    Sums sums;
    start_lanes<Model>(sorted, slots, self, sums);
    with_pair_flags(wraps, p.limited_view, [&](auto flags) BOIDS_LAMBDA_INLINE {
      gather<decltype(flags)>(sums, self, slots, runs, p);
    });
    with_extras(p, [&](auto extras) BOIDS_LAMBDA_INLINE {
      advance_all<decltype(extras)>(sums, self, slots, p, runs.centre);
    });
  }

 private:
  // Steps a block on a grid of one kind (CellGrid::Openness): its boids in spans of a line,
  // each with the cells around it.
  template <typename O>
  BOIDS_HD BOIDS_GPU_INLINE void step_block(index_t block, O o) const {
    const index_t block_end = first_slot + min_of<index_t>(block * Lanes + Lanes, count);
    index_t first = first_slot + block * Lanes;
    if constexpr (O::value) {
      step_open_block(first, static_cast<int>(block_end - first), o);
    } else {
      step_bounded_block(first, block_end, o);
    }
  }

  // step_block on a bounded grid: a span of a line ends where the next boid's row differs.
  template <typename O>
  BOIDS_HD BOIDS_GPU_INLINE void step_bounded_block(index_t first, index_t block_end, O o) const {
    while (first < block_end) {
      const auto line = grid.line(sorted[first].position, o);
      const index_t first_column = grid.column(sorted[first].position[0], o);
      index_t end = first + 1;
      while (end < block_end && grid.line(sorted[end].position, o) == line) ++end;
      const index_t last_column = grid.column(sorted[end - 1].position[0], o);
      step_lanes(ConsecutiveSlots{first, static_cast<int>(end - first)},
                 grid.span_runs(first_column, last_column, line, o),
                 !grid.spans_without_wrap(first_column, last_column, line));
      first = end;
    }
  }

  // step_block in open space, for the `n` boids from `first`: each boid's line (its chunk's
  // packed coordinates) and column found once, for the block's lanes together, where the
  // torus's span tests find a boid's row again in each test.
  template <typename O>
  BOIDS_HD BOIDS_GPU_INLINE void step_open_block(index_t first, int n, O o) const {
    if (n <= 0) return;
    using Line = typename CellGrid<Real, D>::Line;
    Line lines[Lanes];
    index_t columns[Lanes];
    find_open_lines(grid, sorted, first, static_cast<index_t>(n), lines, columns);
    for (int k = 0; k < n;) {
      int end = k + 1;
      while (end < n && lines[end] == lines[k] && grid.joins_open_span(columns[k], columns[end])) {
        ++end;
      }
      step_lanes(ConsecutiveSlots{first + static_cast<index_t>(k), end - k},
                 grid.span_runs(columns[k], columns[end - 1], lines[k], o), false);
      k = end;
    }
  }

  // Moves the boids in `slots` (kernels/advance.h) and keys them for the next sort; in open
  // space, from `centre`, the tile of their line and its slot. With the extras, the world's
  // terms come first, from the obstacles near the block only.
  template <typename E>
  BOIDS_HD BOIDS_INLINE void advance_all(const Sums& sums, const LaneBoids<Real, Lanes, D>& self,
                                         const ConsecutiveSlots& slots,
                                         const StepParams<Real>& step,
                                         const typename CellGrid<Real, D>::TileSlot& centre) const {
    StepParams<Real> p = step;
    Obstacle<Real> near[Lanes > 1 ? kNearObstacles : 1];
    if (E::kAny && Lanes > 1 && p.obstacle_count > 0) narrow_to_block(p, self, near);
    LaneBoids<Real, Lanes, D> next;
    advance_block<Model, E>(
        next, self, slots.active, sums,
        [&](int lane) BOIDS_LAMBDA_INLINE { return ids[slots[lane]]; }, p);
    // Stored first: open space finds the moved boids' cells from memory, as the block found
    // its sorted boids' (find_open_lines).
    for (int lane = 0; lane < slots.active; ++lane) out[slots[lane]] = next.boid(lane);
    if (beyond != nullptr && any_beyond_reach(next)) atomic_store(beyond, 1);
    index_t keys[Lanes];
    grid.with_openness([&](auto o) BOIDS_LAMBDA_INLINE {
      if constexpr (decltype(o)::value) {
        // Keyed by the table the step flew with, from the tile the boids were in (most stay
        // in it: no lookup), and each tile noted for the next planning: where it keeps every
        // tile's slot, these keys stand (kernels/open_table.h). Where a table is kept and
        // its tiles outnumber its slots, the planning keys the boids itself.
        const bool planned = grid.table.occupant != nullptr;
        if (planned && move_leaves_keys(grid.table)) {
          for (int lane = 0; lane < Lanes; ++lane) keys[lane] = 0;
        } else {
          typename CellGrid<Real, D>::Line lines[Lanes];
          index_t columns[Lanes];
          find_open_lines(grid, out, slots.first, static_cast<index_t>(slots.active), lines,
                          columns);
          typename CellGrid<Real, D>::TileSlot last = centre;
          std::uint64_t noted = kNoTile;
          for (int lane = 0; lane < Lanes; ++lane) {
            keys[lane] = grid.open_key_of_line(lines[lane], columns[lane], last);
            if (planned && lane < slots.active && last.tile != noted) {
              note_keyed_tile(grid.table, last.tile, last.slot);
              noted = last.tile;
            }
          }
        }
      } else {
#if !defined(__CUDA_ARCH__)
#pragma omp simd
#endif
        for (int lane = 0; lane < Lanes; ++lane) {
          Real x[D];
          lane_position(next, lane, x);
          keys[lane] = grid.key(x, o);
        }
      }
    });
    for (int lane = 0; lane < slots.active; ++lane) {
      const index_t i = slots[lane];
      next_keys[i] = key_base + keys[lane];
      next_order[i] = i;
    }
  }

  // Whether a lane lies beyond `reach` (kernels/world.h's beyond_reach, here as one vector
  // comparison an axis): the lanes past the block's last boid repeat it.
  BOIDS_HD BOIDS_INLINE bool any_beyond_reach(const LaneBoids<Real, Lanes, D>& next) const {
#if !defined(__CUDACC__)
    if constexpr (Lanes > 1) {
      using V = typename PackOf<Real, Lanes>::Values;
      using M = typename PackOf<Real, Lanes>::Mask;
      M within = ~M{};
      for (int a = 0; a < D; ++a) {
        const V x = load_lanes<V>(next.position[a]);
        within &= (x < Real(0) ? -x : x) <= reach;
      }
      return any_lane(~within);
    }
#endif
    bool any = false;
    for (int lane = 0; lane < Lanes; ++lane) {
      Real x[D];
      lane_position(next, lane, x);
      any = any || beyond_reach(x, reach);
    }
    return any;
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
  template <typename F, typename Runs>
  BOIDS_HD BOIDS_INLINE void gather(Sums& sums, const LaneBoids<Real, Lanes, D>& self,
                                    const ConsecutiveSlots& slots, const Runs& runs,
                                    const StepParams<Real>& p) const {
#if defined(__CUDACC__)
    gather_one_lane<F>(sums, self, slots, runs, p);
#else
    if constexpr (Lanes > 1) {
      gather_lanes<F>(sums, self, slots, runs, p);
    } else {
      gather_one_lane<F>(sums, self, slots, runs, p);
    }
#endif
  }

  // gather for a GPU thread's one lane (CPU blocks of several gather as vectors, below): its
  // runs' candidates in one loop. A warp's threads then take as many turns as the most
  // candidates any of them has, where a loop a run took, run by run, as many as that run's
  // most (bench/warp_turns.py: over a sorted random million, 1.27 times as many turns in 2D
  // and 1.58 in 3D), and a thread reads all its runs' bounds at once, not each run's before
  // its candidates.
  template <typename F, typename Runs>
  BOIDS_HD BOIDS_INLINE void gather_one_lane(Sums& sums, const LaneBoids<Real, Lanes, D>& self,
                                             const ConsecutiveSlots& slots, const Runs& runs,
                                             const StepParams<Real>& p) const {
    static_assert(Lanes == 1, "blocks of several lanes gather as vectors (gather_lanes)");
    const RunBounds<Runs::kMost> bounds(runs, cell_start);
    index_t j = bounds.from[0], end = bounds.to[0];
    int r = 0;
    for (index_t k = 0; k < bounds.total; ++k) {
      const Boid<Real, D> candidate = sorted[j];
      accumulate_neighbor<Model, F::kWraps, F::kLimitedView>(sums, 0, self, candidate, p,
                                                             j != slots.first);
      if (++j == end) {  // on to the next run
        ++r;
        j = bounds.from[r];
        end = bounds.to[r];
      }
    }
  }

#if !defined(__CUDACC__)
  // gather on CPU threads: the block's lanes as vectors (kernels/lane_pack.h), its sums as a
  // Pack of them, each candidate added to every lane at once.
  template <typename F, typename Runs>
  BOIDS_INLINE void gather_lanes(Sums& sums, const LaneBoids<Real, Lanes, D>& self,
                                 const ConsecutiveSlots& slots, const Runs& runs,
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
    for_each_candidate<F>(x, runs, p, [&](index_t j) BOIDS_LAMBDA_INLINE {
      accumulate_lanes<Model, F::kWraps, F::kLimitedView>(packed, x, v, sorted[j], p,
                                                          slot != static_cast<Int>(j));
    });
    packed.store(sums);
  }

  // Whether a block first picks, from its runs, the candidates within r of some lane, and
  // adds those alone: in 3D, where a block of 8 lanes along a line meets about 89 candidates
  // at the published example's density (4 lanes, with AVX2's doubles: 52), of which 27 in 100
  // (25) lie within r of any lane, and the test costs about half an addition to every lane. In
  // 2D 57 in 100 do, and picking costs what it saves (bench/results: picked candidates).
  static constexpr bool picks_candidates() {
    return D == 3;
  }

  // Calls visit(j) for each candidate j of the runs in their order, or, where the block picks
  // them (picks_candidates), for those within r of some lane, in the same order: a rejected
  // candidate adds nothing to any lane (within_reach_of_any), so the sums keep their bits. The
  // runs' picks go in one list, visited in one loop (a loop per run ends mispredicted).
  template <typename F, typename V, typename Runs, typename Visit>
  BOIDS_INLINE void for_each_candidate(const V (&x)[D], const Runs& runs, const StepParams<Real>& p,
                                       Visit&& visit) const {
    if constexpr (picks_candidates()) {
      constexpr int kRoom = 128;  // picks listed before they are visited
      index_t picked[kRoom];
      int kept = 0;
      const auto visit_picked = [&] {
        for (int k = 0; k < kept; ++k) visit(picked[k]);
        kept = 0;
      };
      for (int r = 0; r < runs.count; ++r) {
        const index_t run_end = cell_start[runs.last[r] + 1];
        for (index_t j = cell_start[runs.first[r]]; j < run_end; ++j) {
          if (kept == kRoom) visit_picked();
          picked[kept] = j;  // kept only if within reach
          kept += within_reach_of_any<F::kWraps>(x, sorted[j], p) ? 1 : 0;
        }
      }
      visit_picked();
    } else {
      for (int r = 0; r < runs.count; ++r) {
        const index_t run_end = cell_start[runs.last[r] + 1];
        for (index_t j = cell_start[runs.first[r]]; j < run_end; ++j) visit(j);
      }
    }
  }
#endif
};

// One hashed step. `Executor` runs index-parallel functors and builds the cell index (see
// build_cell_index); Executor::hashed_lanes<Real, D> is the boids per block of the step (1 on a
// GPU). The step writes the moved boids over the state in cell order, and their keys and the
// identity into the index's spare arrays, ready for the next sort. In open space, where the
// simulation keeps a table of tiles, the index plans the table before the sort, and the
// step's keys are kept where it keeps each tile's slot, else the boids keyed by it
// (kernels/open_table.h). Where `beyond` is given, the step sets it once a moved boid lies
// beyond `reach` (HashedStepBlock::beyond).
template <typename Model, typename Real, int D, typename Executor>
void hashed_step(Executor& exec, CellIndex<Real, D>& x, const CellGrid<Real, D>& grid,
                 const StepParams<Real>& params, index_t* beyond = nullptr, Real reach = Real(0)) {
  build_cell_index(exec, x, grid, /*carry_ids=*/true);
  constexpr int kLanes = Executor::template hashed_lanes<Real, D>;
  using Step = HashedStepBlock<Model, Real, kLanes, D>;
  Step step{x.sorted, x.ids, x.boids, x.cell_start, grid, params, x.count, x.keys, x.order};
  step.beyond = beyond;
  step.reach = reach;
  x.keys_ready = true;  // and in open space, the set of tiles filled
  exec.for_each(Step::blocks_for(x.count), step);
}

}  // namespace boids::kernels
