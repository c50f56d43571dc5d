// The few atomic operations the metric kernels need (union-find links and component sizes),
// on both sides. Accumulations of the step never use atomics; these only build a structure
// whose final answer (components, their sizes) does not depend on the order of operations.
#pragma once

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

BOIDS_HD inline void atomic_increment(index_t* address) {
#if defined(__CUDA_ARCH__)
  atomicAdd(address, 1u);
#else
  __atomic_fetch_add(address, 1u, __ATOMIC_RELAXED);
#endif
}

}  // namespace boids::kernels
