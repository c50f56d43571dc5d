// The GPU's limits, measured: device-to-device copy bandwidth and fused multiply-add peak.
#include <cuda_runtime.h>

#include <string>

#include "bench/machine.h"
#include "host/base/errors.h"

namespace boids::bench {
namespace {

void check(cudaError_t status, const char* what) {
  if (status != cudaSuccess) {
    throw RuntimeError(std::string("GPU measurement: ") + what + ": " + cudaGetErrorString(status));
  }
}

constexpr int kChains = 8;  // independent FMA chains per thread, to hide the latency

template <typename Real>
__global__ void multiply_add_kernel(Real a, Real b, int iterations, Real* sink) {
  Real acc[kChains];
#pragma unroll
  for (int c = 0; c < kChains; ++c) acc[c] = Real(threadIdx.x + c);
  for (int i = 0; i < iterations; ++i) {
#pragma unroll
    for (int c = 0; c < kChains; ++c) acc[c] = fma(acc[c], a, b);
  }
  Real total = 0;
#pragma unroll
  for (int c = 0; c < kChains; ++c) total += acc[c];
  if (total == Real(-1)) *sink = total;  // never true; keeps the loop alive
}

struct Events {
  cudaEvent_t start = nullptr, stop = nullptr;
  Events() {
    check(cudaEventCreate(&start), "cudaEventCreate");
    check(cudaEventCreate(&stop), "cudaEventCreate");
  }
  ~Events() {
    cudaEventDestroy(start);
    cudaEventDestroy(stop);
  }
  double seconds() const {
    check(cudaEventSynchronize(stop), "cudaEventSynchronize");
    float ms = 0;
    check(cudaEventElapsedTime(&ms, start, stop), "cudaEventElapsedTime");
    return ms * 1e-3;
  }
};

template <typename Real>
double multiply_add_rate(const cudaDeviceProp& props, Real* sink) {
  const int threads = 256;
  const int blocks = props.multiProcessorCount * 8;
  Events events;
  double best = 0;
  int iterations = 1 << 12;
  for (int repeat = 0; repeat < 4; ++repeat) {
    check(cudaEventRecord(events.start), "cudaEventRecord");
    multiply_add_kernel<Real><<<blocks, threads>>>(Real(0.999999), Real(1e-7), iterations, sink);
    check(cudaGetLastError(), "multiply-add kernel");
    check(cudaEventRecord(events.stop), "cudaEventRecord");
    const double took = events.seconds();
    const double operations = 2.0 * kChains * iterations * double(blocks) * threads;
    if (repeat > 0 && operations / took > best) best = operations / took;  // the first warms up
    if (took < 0.02) iterations *= 4;
  }
  return best;
}

}  // namespace

bool gpu_limits_compiled() {
  return true;
}

Limits measure_gpu(std::uint64_t copy_bytes) {
  int device = 0;
  check(cudaGetDevice(&device), "cudaGetDevice");
  cudaDeviceProp props{};
  check(cudaGetDeviceProperties(&props, device), "cudaGetDeviceProperties");
  Limits limits;
  limits.name = props.name;
  limits.threads = props.multiProcessorCount;

  void *from = nullptr, *to = nullptr;
  check(cudaMalloc(&from, copy_bytes), "cudaMalloc");
  check(cudaMalloc(&to, copy_bytes), "cudaMalloc");
  check(cudaMemset(from, 1, copy_bytes), "cudaMemset");
  Events events;
  double best = 0;
  for (int repeat = 0; repeat < 6; ++repeat) {
    check(cudaEventRecord(events.start), "cudaEventRecord");
    check(cudaMemcpyAsync(to, from, copy_bytes, cudaMemcpyDeviceToDevice), "cudaMemcpy");
    check(cudaEventRecord(events.stop), "cudaEventRecord");
    const double took = events.seconds();
    if (repeat > 0 && (best == 0 || took < best)) best = took;
  }
  limits.memory_bytes_per_s = 2.0 * double(copy_bytes) / best;
  limits.float_flops = multiply_add_rate(props, static_cast<float*>(to));
  limits.double_flops = multiply_add_rate(props, static_cast<double*>(to));
  check(cudaFree(from), "cudaFree");
  check(cudaFree(to), "cudaFree");
  limits.bandwidth_method = "cudaMemcpy device to device of " + std::to_string(copy_bytes >> 20) +
                            " MiB, best of 5, (read + written) / s";
  limits.flops_method = "measured: fused multiply-add kernel (2 operations each), " +
                        std::to_string(kChains) + " chains per thread";
  return limits;
}

}  // namespace boids::bench
