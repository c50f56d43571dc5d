// Owned GPU resources: arrays, a stream, events. Each releases what it holds when destroyed,
// also when a later CUDA call throws.
#pragma once

#include <cstddef>
#include <utility>

#include "host/backends/cuda/cuda_check.h"

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

// An owned CUDA stream (non-blocking: it does not wait for the legacy default stream).
class CudaStream {
 public:
  CudaStream() { BOIDS_CUDA_CHECK(cudaStreamCreateWithFlags(&stream_, cudaStreamNonBlocking)); }
  ~CudaStream() { cudaStreamDestroy(stream_); }
  CudaStream(const CudaStream&) = delete;
  CudaStream& operator=(const CudaStream&) = delete;

  cudaStream_t get() const { return stream_; }

 private:
  cudaStream_t stream_ = nullptr;
};

// An owned CUDA event: for timing by default, or with cudaEventDisableTiming for ordering.
class CudaEvent {
 public:
  explicit CudaEvent(unsigned flags = cudaEventDefault) {
    BOIDS_CUDA_CHECK(cudaEventCreateWithFlags(&event_, flags));
  }
  ~CudaEvent() { cudaEventDestroy(event_); }
  CudaEvent(const CudaEvent&) = delete;
  CudaEvent& operator=(const CudaEvent&) = delete;

  cudaEvent_t get() const { return event_; }

 private:
  cudaEvent_t event_ = nullptr;
};

}  // namespace boids
