// Many small flocks stepped as one (a sweep's replicas and points): one cell index over all of
// them, one launch of each stage. A flock alone keeps a GPU busy only from a few hundred
// thousand boids; a batch of a thousand flocks of a few thousand boids fills it. Each flock's
// cells are keyed above those of the flocks before it (kernels/flock_set.h), so the stages of
// kernels/cell_index.h and kernels/hashed_step.h serve the batch as they stand: every block of
// the step lies in one flock, finds it by its index, and steps as HashedStepBlock steps that
// flock alone. Each flock flies exactly the flight it flies alone, bit for bit.
#pragma once

#include "kernels/flock_metrics.h"
#include "kernels/flock_set.h"
#include "kernels/hashed_step.h"

namespace boids::kernels {

// Keys each boid by its flock's grid, from the flock's first key.
template <typename Real, int D>
struct BatchCellKeys {
  static constexpr const char* kStage = stage::kHash;
  BatchFlocks<Real, D> flocks;
  const Boid<Real, D>* boids;
  index_t* keys;
  index_t* order;

  BOIDS_HD void operator()(index_t i) const {
    const FlockPlace<Real, D>& f = flocks.of_slot(i);
    keys[i] = f.key_base + f.grid.key(boids[i].position);
    order[i] = i;
  }
};

// The ids of a batch at its start: each boid's index within its own flock, which keys its
// noise as it would alone.
template <typename Real, int D>
struct BatchInputIds {
  BatchFlocks<Real, D> flocks;
  index_t* ids;

  BOIDS_HD void operator()(index_t i) const { ids[i] = i - flocks.of_slot(i).first; }
};

// One block of the batch's step: the block of its flock that HashedStepBlock would step alone.
template <typename Model, typename Real, int Lanes, int D>
struct BatchedStepBlock {
  static constexpr const char* kStage = stage::kStep;
  static constexpr int kMinBlocksPerSm = HashedStepBlock<Model, Real, Lanes, D>::kMinBlocksPerSm;
  BatchFlocks<Real, D> flocks;
  const Boid<Real, D>* sorted;
  const index_t* ids;
  Boid<Real, D>* out;
  const index_t* cell_start;
  index_t* next_keys;
  index_t* next_order;
  std::uint64_t step;  // keys the noise

  BOIDS_HD void operator()(index_t block) const {
    const FlockPlace<Real, D>& f = flocks.places[flocks.of_block(block)];
    StepParams<Real> params = f.params;
    params.step = step;
    const HashedStepBlock<Model, Real, Lanes, D> alone{
        sorted,     ids,     out,       cell_start + f.key_base, f.grid, params, f.count, next_keys,
        next_order, f.first, f.key_base};
    alone(block - f.first_block);
  }
};

// One hashed step of every flock of the batch: `cells` keys in all, `blocks` blocks in all.
template <typename Model, typename Real, int D, typename Executor>
void hashed_batch_step(Executor& exec, CellIndex<Real, D>& x, const BatchFlocks<Real, D>& flocks,
                       index_t cells, index_t blocks, std::uint64_t step) {
  build_cell_index(exec, x, BatchCellKeys<Real, D>{flocks, x.boids, x.keys, x.order}, cells,
                   /*carry_ids=*/true);
  using Block = BatchedStepBlock<Model, Real, Executor::template hashed_lanes<Real, D>, D>;
  exec.for_each(blocks,
                Block{flocks, x.sorted, x.ids, x.boids, x.cell_start, x.keys, x.order, step});
  x.keys_ready = true;
}

// Builds the batch's cell index of its current positions and measures every flock into
// out[f]; `places` is the host's copy of the flocks' places.
template <typename Real, int D, typename Executor>
void measure_batch(Executor& exec, CellIndex<Real, D>& x, const BatchFlocks<Real, D>& flocks,
                   index_t cells, const FlockPlace<Real, D>* places, MetricsResult* out) {
  build_cell_index(exec, x, BatchCellKeys<Real, D>{flocks, x.boids, x.keys, x.order}, cells,
                   /*carry_ids=*/false);
  measure_flocks(exec, x, flocks, places, flocks.count, out);
}

}  // namespace boids::kernels
