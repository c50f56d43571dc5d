// The one generic CUDA kernel: runs an index-parallel functor from kernels/ on a GPU.
#pragma once

#include "kernels/host_device.h"

namespace boids::kernels::cuda {

template <typename Functor>
__global__ void for_each_index(index_t count, Functor functor) {
  const index_t i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < count) functor(i);
}

}  // namespace boids::kernels::cuda
