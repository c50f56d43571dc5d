// The flocks a pass works on: one flock (the whole index) or a batch of independent flocks
// sharing one set of arrays (kernels/batch_step.h). A batch keys flock f's cells from
// key_base, above every cell of flocks 0..f-1, so one stable sort by cell keeps each flock's
// boids together in slots [first, first + count), in the order that flock alone would sort
// them. Per-boid passes find their flock by slot; each flock keeps its own grid and step
// constants, so a batch may mix worlds, sizes and weights.
#pragma once

#include "kernels/cell_grid.h"
#include "kernels/step_params.h"

namespace boids::kernels {

// Where one flock sits in its arrays, and its world.
template <typename Real, int D>
struct FlockPlace {
  index_t first;  // its boids are slots [first, first + count)
  index_t count;
  index_t key_base;     // its cells are keys [key_base, key_base + grid.cells())
  index_t first_block;  // its first block of the hashed step
  CellGrid<Real, D> grid;
  StepParams<Real> params;
};

// The last entry of the ascending `starts` [0, n) not above `x`: the segment holding x.
BOIDS_HD inline index_t segment_of(const index_t* starts, index_t n, index_t x) {
  index_t low = 0, high = n;  // starts[low] <= x < starts[high], with starts[n] taken as past x
  while (high - low > 1) {
    const index_t middle = low + (high - low) / 2;
    if (starts[middle] <= x) {
      low = middle;
    } else {
      high = middle;
    }
  }
  return low;
}

// A single flock, as a set of one: every slot is its own.
template <typename Real, int D>
struct OneFlock {
  FlockPlace<Real, D> place;
  BOIDS_HD const FlockPlace<Real, D>& of_slot(index_t) const { return place; }
  BOIDS_HD index_t flock_of_slot(index_t) const { return 0; }
};

// A batch, its tables in the executor's memory.
template <typename Real, int D>
struct BatchFlocks {
  const FlockPlace<Real, D>* places;
  const index_t* slot_start;   // count + 1 entries: places[f].first, then the batch's boids
  const index_t* block_start;  // count + 1 entries: places[f].first_block, then all blocks
  index_t count;               // flocks

  BOIDS_HD const FlockPlace<Real, D>& of_slot(index_t i) const {
    return places[segment_of(slot_start, count, i)];
  }
  BOIDS_HD index_t flock_of_slot(index_t i) const { return segment_of(slot_start, count, i); }
  BOIDS_HD index_t of_block(index_t block) const { return segment_of(block_start, count, block); }
};

}  // namespace boids::kernels
