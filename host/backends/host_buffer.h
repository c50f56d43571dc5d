// An owned array in host memory with the interface of CudaBuffer, so that a simulation holds
// its arrays the same way on every executor. Elements are left uninitialised: the simulation
// writes every entry before it reads it, and a billion boids need not be zeroed first.
#pragma once

#include <cstddef>
#include <memory>
#include <utility>

namespace boids {

template <typename T>
class HostBuffer {
 public:
  HostBuffer() = default;
  explicit HostBuffer(std::size_t count)
      : data_(count > 0 ? new T[count] : nullptr), count_(count) {}
  HostBuffer(HostBuffer&& other) noexcept
      : data_(std::move(other.data_)), count_(std::exchange(other.count_, 0)) {}
  HostBuffer& operator=(HostBuffer&& other) noexcept {
    std::swap(data_, other.data_);
    std::swap(count_, other.count_);
    return *this;
  }

  T* data() const { return data_.get(); }
  std::size_t size() const { return count_; }
  std::size_t bytes() const { return count_ * sizeof(T); }

 private:
  std::unique_ptr<T[]> data_;
  std::size_t count_ = 0;
};

}  // namespace boids
