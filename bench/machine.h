// The machine a sweep runs on and its limits, measured by the bench itself: memory bandwidth
// (a large copy, bytes read plus bytes written per second) and peak arithmetic (a
// multiply-add microkernel), for the CPU and, when the sweep uses it, the GPU.
#pragma once

#include <cstdint>
#include <string>

namespace boids::bench {

struct Limits {
  std::string name;               // "Intel(R) Xeon(R) ...", "NVIDIA H200"
  int threads = 0;                // OpenMP threads (CPU) or streaming multiprocessors (GPU)
  double memory_bytes_per_s = 0;  // measured copy: bytes read + bytes written, per second
  double float_flops = 0;         // measured peak arithmetic, floating-point operations per second
  double double_flops = 0;
  std::string bandwidth_method;  // how the bandwidth was measured, for people
  std::string flops_method;      // how the peak was measured, for people
};

// The CPU's model name from /proc/cpuinfo ("unknown CPU" when absent).
std::string cpu_model();

// Measures the CPU: a parallel memcpy of two `copy_bytes` buffers on all OpenMP threads (best of
// several), and a multiply-add loop with separate multiplies and adds (the project compiles
// with -ffp-contract=off, so the kernels use no fused multiply-add either), vectorised
// across many independent chains on every thread, for `seconds` per precision.
Limits measure_cpu(std::uint64_t copy_bytes, double seconds);

// Whether this build has the GPU measurement (BOIDS_HAVE_CUDA).
bool gpu_limits_compiled();

// Measures the current CUDA device: cudaMemcpy device to device of `copy_bytes` (best of
// several, timed with events) and a fused multiply-add kernel (2 operations each), float and
// double. Throws RuntimeError when there is no usable device or the build has no CUDA.
Limits measure_gpu(std::uint64_t copy_bytes);

}  // namespace boids::bench
