// Every CUDA call is checked; a failure becomes a RuntimeError naming the call and the reason.
#pragma once

#include <cuda_runtime.h>

#include <string>

#include "host/base/errors.h"

namespace boids {

inline void check_cuda(cudaError_t status, const char* call, const char* file, int line) {
  if (status == cudaSuccess) return;
  throw RuntimeError(std::string("CUDA call ") + call + " failed: " + cudaGetErrorString(status) +
                     " (" + file + ":" + std::to_string(line) + ")");
}

}  // namespace boids

#define BOIDS_CUDA_CHECK(call) ::boids::check_cuda((call), #call, __FILE__, __LINE__)

// After a kernel launch: reports a bad configuration at once, and an error in an earlier kernel.
#define BOIDS_CUDA_CHECK_LAUNCH(kernel) \
  ::boids::check_cuda(cudaGetLastError(), "launch of " kernel, __FILE__, __LINE__)
