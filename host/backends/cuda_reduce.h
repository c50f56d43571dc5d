// Sums and maxima on the GPU (CUB), for the metrics. Compiled once in cuda_reduce.cu.
#pragma once

#include <cuda_runtime.h>

#include "kernels/host_device.h"

namespace boids {

// Deterministic for a given device and count (CUB's reduction uses no atomics).
double cuda_sum(const double* values, kernels::index_t count, cudaStream_t stream);
kernels::index_t cuda_maximum(const kernels::index_t* values, kernels::index_t count,
                              cudaStream_t stream);

}  // namespace boids
