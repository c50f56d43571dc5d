// A flock where it lives on a GPU, for callers that read it there (CuPy, PyTorch).
#pragma once

#include <cstdint>

#include "host/core/config.h"

namespace boids {

// A flock in GPU memory, valid until its next step or change: `count` boids of four values
// (x, y, vx, vy) of `precision` each, in the backend's order; slot k holds boid ids[k] (`ids`
// null when the backend keeps input order). Work on it must follow `stream` (a cudaStream_t).
struct DeviceState {
  const void* boids = nullptr;
  const std::uint32_t* ids = nullptr;
  std::uint64_t count = 0;
  Precision precision = Precision::kFloat;
  void* stream = nullptr;
  int device = 0;  // the CUDA device ordinal
};

}  // namespace boids
