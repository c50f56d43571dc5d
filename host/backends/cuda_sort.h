// Stable radix sort of 32-bit (key, value) pairs on the GPU (CUB), sorting only the key bits
// that are used. Declared for host code; compiled once in cuda_sort.cu.
#pragma once

#include <cuda_runtime.h>

#include <cstddef>

#include "kernels/hashed_step.h"

namespace boids {

class CudaPairSorter {
 public:
  CudaPairSorter() = default;
  ~CudaPairSorter();
  CudaPairSorter(const CudaPairSorter&) = delete;
  CudaPairSorter& operator=(const CudaPairSorter&) = delete;

  // Sorts keys[0]/values[0] by their low `bits` bits; the result lands in the returned slots.
  kernels::SortedSlots sort(kernels::index_t* keys[2], kernels::index_t* values[2],
                            kernels::index_t count, int bits, cudaStream_t stream);

  // Temporary storage CUB needs for `count` pairs, in bytes.
  static std::size_t scratch_bytes(kernels::index_t count);

 private:
  void* scratch_ = nullptr;
  std::size_t scratch_size_ = 0;
};

}  // namespace boids
