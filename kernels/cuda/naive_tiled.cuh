// The naive step on a GPU, tiled as the classic all-pairs N-body kernel: each block stages a
// tile of candidates in shared memory (one 16-byte load per 2D candidate in float) and every
// thread, one boid each, gathers the tile in ascending index order, like the reference
// (gather_naive_tile, in kernels/naive_step.h).
#pragma once

#include "kernels/naive_step.h"

namespace boids::kernels::cuda {

template <typename Model, bool Wraps, bool LimitedView, typename Real, int D>
__global__ void __launch_bounds__(kNaiveTile)
    naive_tiled_step(const Boid<Real, D>* in, Boid<Real, D>* out, index_t count,
                     StepParams<Real> p) {
  __shared__ Boid<Real, D> tile[kNaiveTile];
  const index_t i = blockIdx.x * kNaiveTile + threadIdx.x;
  const Boid<Real, D> me = in[i < count ? i : count - 1];  // threads past the end compute, unused
  LaneBoids<Real, 1, D> self;
  self.set(0, me);
  typename Model::template Sums<Real, 1, D> sums;
  Model::start(sums, 0, me);
  for (index_t base = 0; base < count; base += kNaiveTile) {
    const index_t j = base + threadIdx.x;
    if (j < count) tile[threadIdx.x] = in[j];
    __syncthreads();
    gather_naive_tile<Model, Wraps, LimitedView>(sums, self, i, tile, base, count, p);
    __syncthreads();
  }
  if (i < count) out[i] = advance_one<Model>(me, sums, i, p);
}

}  // namespace boids::kernels::cuda
