// The naive step on a GPU, tiled as the classic all-pairs N-body kernel: each block stages a
// tile of candidates in shared memory (one 16-byte load per candidate in float) and every
// thread, one boid each, gathers the tile in ascending index order, like the reference.
#pragma once

#include "kernels/rules.h"

namespace boids::kernels::cuda {

inline constexpr int kNaiveTile = 256;  // threads per block = candidates per tile

template <typename Real>
__global__ void __launch_bounds__(kNaiveTile)
    naive_tiled_step(const Boid<Real>* in, Boid<Real>* out, index_t count, StepParams<Real> p) {
  __shared__ Boid<Real> tile[kNaiveTile];
  const index_t block_first = blockIdx.x * kNaiveTile;
  const index_t i = block_first + threadIdx.x;
  const Boid<Real> self = in[i < count ? i : count - 1];
  NeighborSums<Real> sums;
  sums.clear(0);
  for (index_t base = 0; base < count; base += kNaiveTile) {
    const index_t j = base + threadIdx.x;
    if (j < count) tile[threadIdx.x] = in[j];
    __syncthreads();
    const index_t length = count - base < kNaiveTile ? count - base : kNaiveTile;
    if (base == block_first) {  // the one tile that holds this thread's own boid
      for (index_t k = 0; k < length; ++k) {
        if (base + k != i) accumulate_neighbor(sums, 0, self.x, self.y, tile[k], p);
      }
    } else if (length == kNaiveTile) {
#pragma unroll 16
      for (int k = 0; k < kNaiveTile; ++k) accumulate_neighbor(sums, 0, self.x, self.y, tile[k], p);
    } else {
      for (index_t k = 0; k < length; ++k) accumulate_neighbor(sums, 0, self.x, self.y, tile[k], p);
    }
    __syncthreads();
  }
  if (i < count) out[i] = advance_boid(self, sums, 0, p);
}

}  // namespace boids::kernels::cuda
