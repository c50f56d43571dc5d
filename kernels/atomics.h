// The few atomic operations the metric kernels need (union-find links and component sizes),
// and open space's table (its set of tiles, the smallest tile of a home), on both sides.
// Accumulations of the step never use atomics; these only build a structure whose final answer
// (components, their sizes, the set's members) does not depend on the order of operations.
#pragma once

#include <cstdint>

#include "kernels/host_device.h"

namespace boids::kernels {

BOIDS_HD inline index_t atomic_load(const index_t* address) {
#if defined(__CUDA_ARCH__)
  return *reinterpret_cast<const volatile index_t*>(address);
#else
  return __atomic_load_n(address, __ATOMIC_RELAXED);
#endif
}

BOIDS_HD inline void atomic_store(index_t* address, index_t value) {
#if defined(__CUDA_ARCH__)
  *reinterpret_cast<volatile index_t*>(address) = value;
#else
  __atomic_store_n(address, value, __ATOMIC_RELAXED);
#endif
}

// Stores `desired` if *address == expected; returns the value found.
BOIDS_HD inline index_t atomic_compare_exchange(index_t* address, index_t expected,
                                                index_t desired) {
#if defined(__CUDA_ARCH__)
  return atomicCAS(address, expected, desired);
#else
  __atomic_compare_exchange_n(address, &expected, desired, false, __ATOMIC_RELAXED,
                              __ATOMIC_RELAXED);
  return expected;
#endif
}

BOIDS_HD inline void atomic_add(index_t* address, index_t value) {
#if defined(__CUDA_ARCH__)
  atomicAdd(address, value);
#else
  __atomic_fetch_add(address, value, __ATOMIC_RELAXED);
#endif
}

BOIDS_HD inline void atomic_max(index_t* address, index_t value) {
#if defined(__CUDA_ARCH__)
  atomicMax(address, value);
#else
  index_t seen = __atomic_load_n(address, __ATOMIC_RELAXED);
  while (value > seen && !__atomic_compare_exchange_n(address, &seen, value, true, __ATOMIC_RELAXED,
                                                      __ATOMIC_RELAXED)) {
  }
#endif
}

// Adds one; returns the value before (a lane's place in a list the lanes fill together).
BOIDS_HD inline index_t atomic_increment(index_t* address) {
#if defined(__CUDA_ARCH__)
  return atomicAdd(address, 1u);
#else
  return __atomic_fetch_add(address, 1u, __ATOMIC_RELAXED);
#endif
}

// The same on 64-bit words.
BOIDS_HD inline std::uint64_t atomic_load(const std::uint64_t* address) {
#if defined(__CUDA_ARCH__)
  return *reinterpret_cast<const volatile std::uint64_t*>(address);
#else
  return __atomic_load_n(address, __ATOMIC_RELAXED);
#endif
}

BOIDS_HD inline std::uint64_t atomic_compare_exchange(std::uint64_t* address,
                                                      std::uint64_t expected,
                                                      std::uint64_t desired) {
#if defined(__CUDA_ARCH__)
  return atomicCAS(reinterpret_cast<unsigned long long*>(address), expected, desired);
#else
  __atomic_compare_exchange_n(address, &expected, desired, false, __ATOMIC_RELAXED,
                              __ATOMIC_RELAXED);
  return expected;
#endif
}

// *address = min(*address, value).
BOIDS_HD inline void atomic_min(std::uint64_t* address, std::uint64_t value) {
#if defined(__CUDA_ARCH__)
  atomicMin(reinterpret_cast<unsigned long long*>(address), value);
#else
  std::uint64_t seen = __atomic_load_n(address, __ATOMIC_RELAXED);
  while (value < seen && !__atomic_compare_exchange_n(address, &seen, value, true, __ATOMIC_RELAXED,
                                                      __ATOMIC_RELAXED)) {
  }
#endif
}

}  // namespace boids::kernels
