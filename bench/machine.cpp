#include "bench/machine.h"

#include <omp.h>

#include <algorithm>
#include <chrono>
#include <cstring>
#include <fstream>
#include <memory>
#include <vector>

#include "host/base/errors.h"

namespace boids::bench {
namespace {

using Clock = std::chrono::steady_clock;

double seconds_since(Clock::time_point start) {
  return std::chrono::duration<double>(Clock::now() - start).count();
}

// Bytes of one vector register, and how many independent vector chains keep both
// arithmetic ports busy despite the multiply and add latencies without spilling registers.
#if defined(__AVX512F__)
constexpr int kVectorBytes = 64;
constexpr int kVectors = 16;
#else
constexpr int kVectorBytes = 32;
constexpr int kVectors = 12;
#endif

// x = x * a + b on kVectors vectors of Real, `iterations` times, on every thread; returns
// floating-point operations per second (one multiply and one add per lane and iteration).
template <typename Real>
double multiply_add_rate(double seconds) {
  typedef Real Vector __attribute__((vector_size(kVectorBytes)));
  constexpr int kLanes = kVectorBytes / static_cast<int>(sizeof(Real));
  volatile Real factor = Real(0.999999), offset = Real(1e-7);
  volatile Real sink = 0;
  std::uint64_t iterations = 1 << 12;
  for (;;) {
    const auto start = Clock::now();
#pragma omp parallel
    {
      const Real a_scalar = factor, b_scalar = offset;
      Vector a, b, acc[kVectors];
      for (int l = 0; l < kLanes; ++l) {
        a[l] = a_scalar;
        b[l] = b_scalar;
      }
      for (int v = 0; v < kVectors; ++v) {
        for (int l = 0; l < kLanes; ++l)
          acc[v][l] = Real(1) + Real(0.001) * static_cast<Real>(v * kLanes + l);
      }
      for (std::uint64_t i = 0; i < iterations; ++i) {
#pragma GCC unroll 16
        for (int v = 0; v < kVectors; ++v) acc[v] = acc[v] * a + b;
      }
      Real total = 0;
      for (int v = 0; v < kVectors; ++v) {
        for (int l = 0; l < kLanes; ++l) total += acc[v][l];
      }
#pragma omp critical
      sink = sink + total;
    }
    const double took = seconds_since(start);
    if (took >= seconds) {
      const double operations =
          2.0 * static_cast<double>(iterations) * kVectors * kLanes * omp_get_max_threads();
      return operations / took;
    }
    iterations *= took > seconds / 8 ? 2 : 8;
  }
}

// A parallel memcpy of `bytes` on every thread, best of several; bytes read plus written / s.
double copy_rate(std::uint64_t bytes) {
  const std::unique_ptr<char[]> from(new char[bytes]), to(new char[bytes]);
  const int threads = omp_get_max_threads();
  const std::uint64_t chunk = (bytes / static_cast<std::uint64_t>(threads) + 63) / 64 * 64;
  auto each_chunk = [&](auto&& action) {
#pragma omp parallel
    {
      const std::uint64_t first = chunk * static_cast<std::uint64_t>(omp_get_thread_num());
      if (first < bytes) action(first, std::min(chunk, bytes - first));
    }
  };
  // First touch on the threads that will copy, so pages land near them.
  each_chunk([&](std::uint64_t first, std::uint64_t length) {
    std::memset(from.get() + first, 1, length);
    std::memset(to.get() + first, 0, length);
  });
  double best = 0;
  for (int repeat = 0; repeat < 6; ++repeat) {
    const auto start = Clock::now();
    each_chunk([&](std::uint64_t first, std::uint64_t length) {
      std::memcpy(to.get() + first, from.get() + first, length);
    });
    const double took = seconds_since(start);
    if (repeat > 0 && (best == 0 || took < best)) best = took;  // the first copy warms up
  }
  return 2.0 * static_cast<double>(bytes) / best;
}

}  // namespace

std::string cpu_model() {
  std::ifstream in("/proc/cpuinfo");
  std::string line;
  while (std::getline(in, line)) {
    if (line.rfind("model name", 0) == 0) {
      const auto colon = line.find(':');
      if (colon != std::string::npos) {
        std::string model = line.substr(colon + 1);
        model.erase(0, model.find_first_not_of(" \t"));
        return model;
      }
    }
  }
  return "unknown CPU";
}

Limits measure_cpu(std::uint64_t copy_bytes, double seconds) {
  Limits limits;
  limits.name = cpu_model();
  limits.threads = omp_get_max_threads();
  limits.memory_bytes_per_s = copy_rate(copy_bytes);
  limits.float_flops = multiply_add_rate<float>(seconds);
  limits.double_flops = multiply_add_rate<double>(seconds);
  limits.bandwidth_method = "parallel memcpy of " + std::to_string(copy_bytes >> 20) + " MiB on " +
                            std::to_string(limits.threads) +
                            " threads, best of 5, (read + written) / s";
  limits.flops_method = "measured: separate multiply and add (no FMA) on " +
                        std::to_string(kVectors) + " " + std::to_string(kVectorBytes * 8) +
                        "-bit vectors per thread, " + std::to_string(limits.threads) + " threads";
  return limits;
}

#if !defined(BOIDS_HAVE_CUDA)
bool gpu_limits_compiled() {
  return false;
}

Limits measure_gpu(std::uint64_t /*copy_bytes*/) {
  throw RuntimeError("this boids-bench was built without CUDA");
}
#endif

}  // namespace boids::bench
