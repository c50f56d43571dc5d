// The cpu backend's executor with blocks of 16 boids in either precision, so that a box's
// hashed step takes the pencils of kernels/hashed_step.h on any CPU (with AVX2 alone, a float
// block holds 8 boids and never does).
#pragma once

#include "host/backends/cpu/cpu_executor.h"

namespace boids::test_support {

class SixteenLaneExecutor : public CpuExecutor {
 public:
  template <typename Real>
  static constexpr int hashed_lanes = 16;
};

}  // namespace boids::test_support
