// Runs the kernels' index-parallel functors on a GPU: the cuda backend's launch layer.
#pragma once

#include "host/backends/cuda_check.h"
#include "host/backends/cuda_reduce.h"
#include "host/backends/cuda_sort.h"
#include "kernels/cuda/for_each.cuh"

namespace boids {

class CudaExecutor {
 public:
  static constexpr int kThreadsPerBlock = 256;

  // One boid per thread in the hashed step.
  template <typename Real>
  static constexpr int hashed_lanes = 1;

  explicit CudaExecutor(cudaStream_t stream) : stream_(stream) {}

  template <typename Functor>
  void for_each(kernels::index_t count, const Functor& functor) {
    if (count == 0) return;
    const unsigned blocks = (count + kThreadsPerBlock - 1) / kThreadsPerBlock;
    kernels::cuda::for_each_index<<<blocks, kThreadsPerBlock, 0, stream_>>>(count, functor);
    BOIDS_CUDA_CHECK_LAUNCH("for_each_index");
  }

  kernels::SortedSlots sort_pairs(kernels::index_t* keys[2], kernels::index_t* values[2],
                                  kernels::index_t count, int bits) {
    return sorter_.sort(keys, values, count, bits, stream_);
  }

  void find_cell_starts(const kernels::index_t* sorted_keys, kernels::index_t* cell_start,
                        kernels::index_t count, kernels::index_t cells) {
    for_each(count, kernels::FindCellStarts{sorted_keys, cell_start, count, cells});
  }

  double sum(const double* values, kernels::index_t count) {
    return cuda_sum(values, count, stream_);
  }

  kernels::index_t maximum(const kernels::index_t* values, kernels::index_t count) {
    return cuda_maximum(values, count, stream_);
  }

  cudaStream_t stream() const { return stream_; }

 private:
  cudaStream_t stream_;
  CudaPairSorter sorter_;
};

}  // namespace boids
