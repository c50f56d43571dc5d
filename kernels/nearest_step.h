// Topological neighbours (--nearest K; Ballerini et al. 2008, PNAS 105:1232): each boid heeds
// the K boids nearest to it that it sees, however far, in place of every boid it sees within
// r. A step of it:
//   select  each boid lists its K nearest by (d^2, input index)    (NearestList::offer)
//   heed    adds them to the model's sums in ascending input index  (heed_listed)
//   move    the model's steering and move, as the metric step's    (advance_one)
// The naive method offers every boid; the hashed method offers the cells around the boid's,
// ring by ring, until no boid beyond the rings can come nearer than the K-th (RingSearch).
// The order (d^2, index) is total, so the set is the same whichever order candidates come in;
// and the sums add in index order, as the reference adds them. So the hashed method flies the
// naive one's flight bit for bit, and naive double the reference's. One boid per thread on
// every executor.
#pragma once

#include "kernels/advance.h"
#include "kernels/cell_index.h"
#include "kernels/open_table.h"

namespace boids::kernels {

// The most neighbours a boid can heed: --nearest K takes K in [1, kMostNearest].
inline constexpr int kMostNearest = 32;

// The `wanted` nearest candidates offered so far, nearest first by (d^2, input index): ties
// go to the lower index.
template <typename Real>
struct NearestList {
  Real d2[kMostNearest];
  index_t id[kMostNearest];    // input index
  index_t slot[kMostNearest];  // where the candidate lies in the array it was offered from
  int wanted;
  int count = 0;

  BOIDS_HD static bool before(Real a2, index_t a, Real b2, index_t b) {
    return a2 < b2 || (a2 == b2 && a < b);
  }
  BOIDS_HD bool full() const { return count == wanted; }
  BOIDS_HD Real farthest_sq() const { return d2[count - 1]; }

  // Keeps the candidate if it is among the nearest so far: an insertion into a short list.
  BOIDS_HD void offer(Real dist2, index_t candidate, index_t at) {
    if (full() && !before(dist2, candidate, d2[count - 1], id[count - 1])) return;
    int k = full() ? count - 1 : count++;
    for (; k > 0 && before(dist2, candidate, d2[k - 1], id[k - 1]); --k) {
      d2[k] = d2[k - 1];
      id[k] = id[k - 1];
      slot[k] = slot[k - 1];
    }
    d2[k] = dist2;
    id[k] = candidate;
    slot[k] = at;
  }

  // Puts the list in ascending input index (distances no longer kept): the order in which the
  // sums add.
  BOIDS_HD void sort_by_id() {
    for (int k = 1; k < count; ++k) {
      const index_t i = id[k], s = slot[k];
      int m = k;
      for (; m > 0 && id[m - 1] > i; --m) {
        id[m] = id[m - 1];
        slot[m] = slot[m - 1];
      }
      id[m] = i;
      slot[m] = s;
    }
  }
};

// The largest finite value: a distance no boid lies at, and a radius beyond any distance.
template <typename Real>
BOIDS_HD BOIDS_INLINE constexpr Real beyond_any() {
  return Real(sizeof(Real) == 4 ? 3.4028234663852886e38 : 1.7976931348623157e308);
}

// The squared distance from `self` to `other` if the boid sees it, else beyond_any(). The offset
// is the metric step's (accumulate_neighbor), so the distances are its own. A select, so that
// loops over candidates vectorise.
template <bool Wraps, bool LimitedView, typename Real, int D>
BOIDS_HD BOIDS_INLINE Real seen_distance_sq(const Boid<Real, D>& self, const Boid<Real, D>& other,
                                            const StepParams<Real>& p) {
  Real d[D];
  for (int a = 0; a < D; ++a) {
    const Real delta = other.position[a] - self.position[a];
    d[a] = Wraps ? wrap_axis(delta, a, p) : delta;
  }
  const Real d2 = length_sq(d);
  if constexpr (LimitedView) {
    return in_view(d, d2, self.velocity, p) ? d2 : beyond_any<Real>();
  } else {
    return d2;
  }
}

// Offers boid `self` (at slot `self_slot`) the candidates at slots [first, end) of `boids`, ids
// from `ids` (null: the slot is the id). On CPU threads in chunks: the chunk's distances in a
// loop that vectorises, then the list takes those not beyond its K-th so far (all of them until
// it is full), one at a time. Every method offers through here, so their distances agree.
template <bool Wraps, bool LimitedView, typename Real, int D>
BOIDS_HD void offer_run(NearestList<Real>& list, const Boid<Real, D>& self, index_t self_slot,
                        const Boid<Real, D>* boids, const index_t* ids, index_t first, index_t end,
                        const StepParams<Real>& p) {
#if defined(__CUDA_ARCH__)
  constexpr index_t kChunk = 1;
#else
  constexpr index_t kChunk = 16;
#endif
  for (index_t base = first; base < end; base += kChunk) {
    const index_t last = min_of(base + kChunk, end) - 1;
    Real d2[kChunk];
#if !defined(__CUDA_ARCH__)
#pragma omp simd
#endif
    for (index_t c = 0; c < kChunk; ++c) {
      d2[c] = seen_distance_sq<Wraps, LimitedView>(self, boids[min_of(base + c, last)], p);
    }
    const Real limit = list.full() ? list.farthest_sq() : beyond_any<Real>();
    for (index_t j = base; j <= last; ++j) {
      const Real dist2 = d2[j - base];
      if (dist2 <= limit && dist2 < beyond_any<Real>() && j != self_slot) {
        list.offer(dist2, ids != nullptr ? ids[j] : j, j);
      }
    }
  }
}

// The step's constants for the sums over the listed neighbours: each counts as one within r
// would, the radius test lifted by a radius beyond any distance (the separation radius still
// applies). Made once a step, beside the step's own (whose radius the world's terms read).
template <typename Real>
StepParams<Real> heeding_params(StepParams<Real> p) {
  p.radius_sq = beyond_any<Real>();
  return p;
}

// The model's sums over the listed neighbours, added in ascending input index, under
// `heeding` (heeding_params). The field of view chose them already.
template <typename Model, bool Wraps, typename Real, int D>
BOIDS_HD typename Model::template Sums<Real, 1, D> heed_listed(NearestList<Real>& list,
                                                               const Boid<Real, D>& self,
                                                               const Boid<Real, D>* boids,
                                                               const StepParams<Real>& heeding) {
  LaneBoids<Real, 1, D> lanes;
  lanes.set(0, self);
  typename Model::template Sums<Real, 1, D> sums;
  Model::start(sums, 0, self);
  list.sort_by_id();
  for (int k = 0; k < list.count; ++k) {
    accumulate_neighbor<Model, Wraps, false>(sums, 0, lanes, boids[list.slot[k]], heeding);
  }
  return sums;
}

// One boid's step, `id` its input index: `offer_all(list, flags)` offers it its candidates from
// `boids` (flags: the pair flags of with_pair_flags), then it heeds the K nearest (under
// `heeding`) and moves (under `p`).
template <typename Model, typename Real, int D, typename OfferAll>
BOIDS_HD Boid<Real, D> nearest_step_of(const Boid<Real, D>& self, index_t id,
                                       const Boid<Real, D>* boids, const StepParams<Real>& p,
                                       const StepParams<Real>& heeding, OfferAll&& offer_all) {
  Boid<Real, D> next;
  with_pair_flags(p.torus, p.limited_view, [&](auto flags) {
    NearestList<Real> list;
    list.wanted = p.nearest;
    offer_all(list, flags);
    next = advance_one<Model>(
        self, heed_listed<Model, decltype(flags)::kWraps>(list, self, boids, heeding), id, p);
  });
  return next;
}

// The naive method's: boid i offers every other, in input order, to its list.
template <typename Model, typename Real, int D>
struct NearestNaiveStep {
  static constexpr const char* kStage = stage::kStep;
  const Boid<Real, D>* in;
  Boid<Real, D>* out;
  index_t count;
  StepParams<Real> params;
  StepParams<Real> heeding;  // heeding_params(params)

  BOIDS_HD void operator()(index_t i) const {
    const Boid<Real, D> self = in[i];
    out[i] = nearest_step_of<Model>(
        self, i, in, params, heeding, [&](NearestList<Real>& list, auto flags) {
          using F = decltype(flags);
          offer_run<F::kWraps, F::kLimitedView>(list, self, i, in, nullptr, 0, count, params);
        });
  }
};

// The cells within k of a boid's along every axis (its box of ring k): offsets [low, high]
// from the boid's cell, cut off at walls, and on a torus never more than the axis's cells.
template <int D>
struct CellBox {
  int low[D], high[D];
};

// Ring by ring around one boid's cell on the flock's grid: the cells of each ring, and how far
// the nearest boid beyond the rings searched can be.
template <typename Real, int D>
struct RingSearch {
  const CellGrid<Real, D>& grid;
  int counts[D];   // the grid's cells along each axis
  int cell[D];     // the boid's
  Real scaled[D];  // its position in units of cells

  BOIDS_HD RingSearch(const CellGrid<Real, D>& g, const Real (&x)[D]) : grid(g) {
    for (int a = 0; a < D; ++a) {
      counts[a] = static_cast<int>(g.counts[a]);
      cell[a] = static_cast<int>(g.cell(a, x[a]));
      scaled[a] = x[a] * g.per_unit[a];
    }
  }

  BOIDS_HD CellBox<D> box(int k) const {
    CellBox<D> b;
    for (int a = 0; a < D; ++a) {
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
      const bool low_open = around || cell[a] + b.low[a] > 0;
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
                          const index_t* cell_start, const CellGrid<Real, D>& grid,
                          const StepParams<Real>& p) {
  const RingSearch<Real, D> rings(grid, self.position);
  CellBox<D> inner = rings.box(0);
  for (int k = 0;; ++k) {
    const CellBox<D> outer = rings.box(k);
    rings.for_each_run_between(inner, outer, k == 0, [&](index_t first, index_t last) {
      offer_run<Wraps, LimitedView>(list, self, self_slot, sorted, ids, cell_start[first],
                                    cell_start[last + 1], p);
    });
    if (rings.whole(outer)) return;
    if (list.full() && list.farthest_sq() < rings.beyond_sq(outer)) return;
    inner = outer;
  }
}

// The hashed method's: the boid at sorted slot s offers the boids of the cells around its own,
// ring by ring (offer_rings). Then it moves and keys itself for the next sort, as the metric
// step does (HashedStepBlock).
template <typename Model, typename Real, int D>
struct NearestHashedStep {
  static constexpr const char* kStage = stage::kStep;
  const Boid<Real, D>* sorted;
  const index_t* ids;
  Boid<Real, D>* out;
  const index_t* cell_start;
  CellGrid<Real, D> grid;
  StepParams<Real> params;
  StepParams<Real> heeding;  // heeding_params(params)
  index_t* next_keys;
  index_t* next_order;

  BOIDS_HD void operator()(index_t s) const {
    const Boid<Real, D> self = sorted[s];
    const Boid<Real, D> next = nearest_step_of<Model>(
        self, ids[s], sorted, params, heeding, [&](NearestList<Real>& list, auto flags) {
          using F = decltype(flags);
          offer_rings<F::kWraps, F::kLimitedView>(list, self, s, sorted, ids, cell_start, grid,
                                                  params);
        });
    out[s] = next;
    next_keys[s] = grid.key(next.position);
    next_order[s] = s;
  }
};

// One step of topological neighbours by `hashed` or naive method. The hashed method builds the
// cell index first and leaves the moved boids in cell order, keyed for the next sort, as
// hashed_step does; the naive one writes the moved boids to `out`, in input order.
template <typename Model, typename Real, int D, typename Executor>
void nearest_hashed_step(Executor& exec, CellIndex<Real, D>& x, const CellGrid<Real, D>& grid,
                         const StepParams<Real>& params) {
  build_cell_index(exec, x, grid, /*carry_ids=*/true);
  exec.for_each(x.count,
                NearestHashedStep<Model, Real, D>{x.sorted, x.ids, x.boids, x.cell_start, grid,
                                                  params, heeding_params(params), x.keys, x.order});
  x.keys_ready = true;
}

template <typename Model, typename Real, int D, typename Executor>
void nearest_naive_step(Executor& exec, const Boid<Real, D>* in, Boid<Real, D>* out, index_t count,
                        const StepParams<Real>& params) {
  exec.for_each(count,
                NearestNaiveStep<Model, Real, D>{in, out, count, params, heeding_params(params)});
}

}  // namespace boids::kernels
