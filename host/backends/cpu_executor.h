// Runs the kernels' index-parallel functors on OpenMP threads: the cpu backend's launch layer.
#pragma once

#include <omp.h>

#include <algorithm>
#include <cstdint>
#include <vector>

#include "kernels/hashed_step.h"

namespace boids {

class CpuExecutor {
 public:
  template <typename Functor>
  void for_each(kernels::index_t count, const Functor& functor) const {
    const auto n = static_cast<std::int64_t>(count);
#pragma omp parallel for schedule(static)
    for (std::int64_t i = 0; i < n; ++i) functor(static_cast<kernels::index_t>(i));
  }

  // Stable sort of (key, value) pairs by keys below 2^bits: a counting sort, O(n + 2^bits),
  // since cell keys are dense. Sorts from slot 0 into slot 1. The order of equal keys is
  // their input order, so the result never depends on the thread count.
  kernels::SortedSlots sort_pairs(kernels::index_t* keys[2], kernels::index_t* values[2],
                                  kernels::index_t count, int bits) {
    const std::size_t buckets = std::size_t{1} << bits;
    offsets_.assign(buckets + 1, 0);
    const kernels::index_t* in_keys = keys[0];
    for (kernels::index_t i = 0; i < count; ++i) ++offsets_[in_keys[i] + 1];
    for (std::size_t b = 0; b < buckets; ++b) offsets_[b + 1] += offsets_[b];
    for (kernels::index_t i = 0; i < count; ++i) {
      const kernels::index_t to = offsets_[in_keys[i]]++;
      keys[1][to] = in_keys[i];
      values[1][to] = values[0][i];
    }
    return {1, 1};
  }

  // Sum in fixed chunks added in order: the same result on any number of threads.
  double sum(const double* values, kernels::index_t count) const {
    constexpr std::int64_t kChunk = 1 << 14;
    const std::int64_t n = count, chunks = (n + kChunk - 1) / kChunk;
    std::vector<double> partial(static_cast<std::size_t>(chunks), 0.0);
#pragma omp parallel for schedule(static)
    for (std::int64_t c = 0; c < chunks; ++c) {
      double s = 0;
      for (std::int64_t i = c * kChunk; i < std::min(n, (c + 1) * kChunk); ++i) s += values[i];
      partial[static_cast<std::size_t>(c)] = s;
    }
    double total = 0;
    for (double s : partial) total += s;
    return total;
  }

  kernels::index_t maximum(const kernels::index_t* values, kernels::index_t count) const {
    kernels::index_t best = 0;
#pragma omp parallel for reduction(max : best) schedule(static)
    for (std::int64_t i = 0; i < static_cast<std::int64_t>(count); ++i) best = std::max(best, values[i]);
    return best;
  }

  static int threads() { return omp_get_max_threads(); }

 private:
  std::vector<kernels::index_t> offsets_;
};

}  // namespace boids
