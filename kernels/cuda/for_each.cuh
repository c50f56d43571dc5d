// The one generic CUDA kernel: runs an index-parallel functor from kernels/ on a GPU.
#pragma once

#include <type_traits>

#include "kernels/host_device.h"

namespace boids::kernels::cuda {

inline constexpr int kForEachThreads = 256;  // threads a block

// How many blocks of kForEachThreads a functor needs at once on a multiprocessor: its
// kMinBlocksPerSm where it names one, which caps its registers a thread (65,536 / (256 n)),
// else 1, which leaves them to the compiler.
template <typename F, typename = void>
struct MinBlocksPerSm : std::integral_constant<int, 1> {};
template <typename F>
struct MinBlocksPerSm<F, std::void_t<decltype(F::kMinBlocksPerSm)>>
    : std::integral_constant<int, F::kMinBlocksPerSm> {};

// The functor stays in the kernel's parameters (__grid_constant__, compute capability 7.0 on),
// read through the constant cache: a functor whose call is not inlined takes its address, and
// without the annotation every thread first copies it whole into local memory (the hashed
// step's 360 bytes in 3D, 45 loads and stores a thread).
template <typename Functor>
__global__ void __launch_bounds__(kForEachThreads, MinBlocksPerSm<Functor>::value)
    for_each_index(index_t count, const __grid_constant__ Functor functor) {
  const index_t i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < count) functor(i);
}

}  // namespace boids::kernels::cuda
