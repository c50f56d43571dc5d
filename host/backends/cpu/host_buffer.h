// Host memory as executors see it: an owned array with the interface of CudaBuffer, so that a
// simulation holds its arrays the same way on every executor, and the memory services of an
// executor that runs on the host (HostMemory).
#pragma once

#include <chrono>
#include <cstddef>
#include <cstring>
#include <memory>
#include <string>
#include <utility>

#include "host/backends/stage_clock.h"
#include "host/base/memory.h"

namespace boids {

// Elements are left uninitialised: the simulation writes every entry before it reads it, and a
// billion boids need not be zeroed first.
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

// What an executor over host memory gives KernelSimulation besides running functors: buffers,
// transfers (copies), and timing on a steady clock (the time from mark() to
// seconds_since_mark()).
class HostMemory {
 public:
  template <typename T>
  using Buffer = HostBuffer<T>;
  static constexpr bool kHostMemory = true;

  std::string memory_name() const { return "host memory"; }
  // Who holds it, for messages: this machine, or the process under its address-space limit.
  std::string memory_holder() const { return host_memory_holder(); }

  template <typename T>
  void upload(T* to, const T* from, std::size_t count) const {
    if (count > 0) std::memcpy(static_cast<void*>(to), from, count * sizeof(T));
  }
  template <typename T>
  void download(T* to, const T* from, std::size_t count) const {
    if (count > 0) std::memcpy(static_cast<void*>(to), from, count * sizeof(T));
  }
  void synchronize() const {}

  void mark() { start_ = std::chrono::steady_clock::now(); }
  double seconds_since_mark() const {
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - start_).count();
  }

  // The time each stage of its launches takes, while on (host/backends/stage_clock.h); a
  // launch on the host's threads is done when it returns, so nothing is waited for.
  struct NoWait {
    void operator()() const {}
  };
  StageClock& stage_clock() const { return clock_; }
  StageClock::Timer<NoWait> stage_timer(const char* stage) const { return {clock_, stage, {}}; }

 private:
  std::chrono::steady_clock::time_point start_;
  mutable StageClock clock_;
};

}  // namespace boids
