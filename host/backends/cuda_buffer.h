// An owned array in GPU memory.
#pragma once

#include <cstddef>
#include <utility>

#include "host/backends/cuda_check.h"

namespace boids {

template <typename T>
class CudaBuffer {
 public:
  CudaBuffer() = default;
  explicit CudaBuffer(std::size_t count) : count_(count) {
    if (count > 0) BOIDS_CUDA_CHECK(cudaMalloc(&data_, count * sizeof(T)));
  }
  ~CudaBuffer() {
    if (data_) cudaFree(data_);
  }
  CudaBuffer(CudaBuffer&& other) noexcept
      : data_(std::exchange(other.data_, nullptr)), count_(std::exchange(other.count_, 0)) {}
  CudaBuffer& operator=(CudaBuffer&& other) noexcept {
    std::swap(data_, other.data_);
    std::swap(count_, other.count_);
    return *this;
  }
  CudaBuffer(const CudaBuffer&) = delete;
  CudaBuffer& operator=(const CudaBuffer&) = delete;

  T* data() const { return data_; }
  std::size_t size() const { return count_; }
  std::size_t bytes() const { return count_ * sizeof(T); }

 private:
  T* data_ = nullptr;
  std::size_t count_ = 0;
};

}  // namespace boids
