#include <cub/device/device_radix_sort.cuh>

#include "host/backends/cuda_check.h"
#include "host/backends/cuda_sort.h"

namespace boids {

CudaPairSorter::~CudaPairSorter() {
  if (scratch_) cudaFree(scratch_);
}

std::size_t CudaPairSorter::scratch_bytes(kernels::index_t count) {
  cub::DoubleBuffer<kernels::index_t> keys(nullptr, nullptr), values(nullptr, nullptr);
  std::size_t bytes = 0;
  BOIDS_CUDA_CHECK(cub::DeviceRadixSort::SortPairs(nullptr, bytes, keys, values, count, 0, 32));
  return bytes;
}

kernels::SortedSlots CudaPairSorter::sort(kernels::index_t* keys[2], kernels::index_t* values[2],
                                          kernels::index_t count, int bits, cudaStream_t stream) {
  cub::DoubleBuffer<kernels::index_t> key_buffer(keys[0], keys[1]);
  cub::DoubleBuffer<kernels::index_t> value_buffer(values[0], values[1]);
  const int end_bit = bits > 0 ? bits : 1;
  std::size_t needed = 0;
  BOIDS_CUDA_CHECK(cub::DeviceRadixSort::SortPairs(nullptr, needed, key_buffer, value_buffer, count,
                                                   0, end_bit, stream));
  if (needed > scratch_size_) {
    if (scratch_) BOIDS_CUDA_CHECK(cudaFree(scratch_));
    scratch_ = nullptr;
    BOIDS_CUDA_CHECK(cudaMalloc(&scratch_, needed));
    scratch_size_ = needed;
  }
  BOIDS_CUDA_CHECK(cub::DeviceRadixSort::SortPairs(scratch_, needed, key_buffer, value_buffer,
                                                   count, 0, end_bit, stream));
  return {key_buffer.selector, value_buffer.selector};
}

}  // namespace boids
