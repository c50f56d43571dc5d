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
#include "kernels/nearest_list.h"
#include "kernels/open_table.h"
#include "kernels/ring_search.h"

namespace boids::kernels {

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

// The hashed method's: the boid at sorted slot s offers the boids of the cells around its own,
// ring by ring (offer_rings). Then it moves and keys itself for the next sort, as the metric
// step does (HashedStepBlock); in open space with a table, the next planning keys it afresh
// (nearest_hashed_step).
template <typename Model, typename Real, int D>
struct NearestHashedStep {
  static constexpr const char* kStage = stage::kStep;
  const Boid<Real, D>* sorted;
  const index_t* ids;
  Boid<Real, D>* out;
  const index_t* cell_start;
  index_t count;
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
          offer_rings<F::kWraps, F::kLimitedView>(list, self, s, sorted, ids, cell_start, count,
                                                  grid, params);
        });
    out[s] = next;
    if (grid.open && grid.table.occupant != nullptr) return;
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
  exec.for_each(x.count, NearestHashedStep<Model, Real, D>{
                             x.sorted, x.ids, x.boids, x.cell_start, x.count, grid, params,
                             heeding_params(params), x.keys, x.order});
  // Open space's table is planned from the tiles the last move noted, which this move does
  // not note (kernels/open_table.h): the next planning counts and keys the boids afresh.
  x.keys_ready = !(grid.open && grid.table.occupant != nullptr);
}

template <typename Model, typename Real, int D, typename Executor>
void nearest_naive_step(Executor& exec, const Boid<Real, D>* in, Boid<Real, D>* out, index_t count,
                        const StepParams<Real>& params) {
  exec.for_each(count,
                NearestNaiveStep<Model, Real, D>{in, out, count, params, heeding_params(params)});
}

}  // namespace boids::kernels
