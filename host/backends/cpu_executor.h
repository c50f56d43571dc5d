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
#if defined(__AVX512F__)
  static constexpr int kVectorBytes = 64;
#else
  static constexpr int kVectorBytes = 32;
#endif

  // Boids per block of the hashed step: one vector register's worth.
  template <typename Real>
  static constexpr int hashed_lanes = kVectorBytes / sizeof(Real);

  template <typename Functor>
  void for_each(kernels::index_t count, const Functor& functor) const {
    const auto n = static_cast<std::int64_t>(count);
#pragma omp parallel for schedule(static)
    for (std::int64_t i = 0; i < n; ++i) functor(static_cast<kernels::index_t>(i));
  }

  // Stable sort of (key, value) pairs by keys below 2^bits: a counting sort, O(n + 2^bits),
  // since cell keys are dense. Sorts from slot 0 into slot 1. Each thread owns a range of
  // keys: it counts and places only those, reading every key, so equal keys keep their input
  // order and the result never depends on the thread count.
  kernels::SortedSlots sort_pairs(kernels::index_t* keys[2], kernels::index_t* values[2],
                                  kernels::index_t count, int bits) {
    const std::size_t buckets = std::size_t{1} << bits;
    offsets_.resize(buckets + 1);
    bucket_start_.resize(buckets + 1);
    bucket_start_[buckets] = count;
    const int parts = std::max(1, std::min({omp_get_max_threads(), kMaxSortThreads,
                                            static_cast<int>(count / kMinKeysPerSortThread)}));
    range_totals_.assign(static_cast<std::size_t>(parts) + 1, 0);
    const kernels::index_t* in_keys = keys[0];
#pragma omp parallel num_threads(parts)
    {
      const int part = omp_get_thread_num();
      const std::size_t first = buckets * part / parts, last = buckets * (part + 1) / parts;
      std::fill(offsets_.begin() + first, offsets_.begin() + last, 0);
      for (kernels::index_t i = 0; i < count; ++i) {
        const kernels::index_t key = in_keys[i];
        if (key >= first && key < last) ++offsets_[key];
      }
      kernels::index_t total = 0;
      for (std::size_t b = first; b < last; ++b) {
        const kernels::index_t n = offsets_[b];
        offsets_[b] = total;
        total += n;
      }
      range_totals_[part + 1] = total;
#pragma omp barrier
      kernels::index_t base = 0;
      for (int p = 0; p <= part; ++p) base += range_totals_[p];
      for (std::size_t b = first; b < last; ++b) bucket_start_[b] = base + offsets_[b];
      for (kernels::index_t i = 0; i < count; ++i) {
        const kernels::index_t key = in_keys[i];
        if (key < first || key >= last) continue;
        const kernels::index_t to = base + offsets_[key]++;
        keys[1][to] = key;
        values[1][to] = values[0][i];
      }
    }
    sorted_keys_ = keys[1];
    sorted_count_ = count;
    return {1, 1};
  }

  // The first sorted index of every cell. The counting sort has just computed them as its
  // bucket starts; copying them avoids a pass whose branches mispredict on every other boid.
  void find_cell_starts(const kernels::index_t* sorted_keys, kernels::index_t* cell_start,
                        kernels::index_t count, kernels::index_t cells) {
    if (sorted_keys == sorted_keys_ && count == sorted_count_ && cells < bucket_start_.size()) {
      std::copy(bucket_start_.begin(), bucket_start_.begin() + cells + 1, cell_start);
    } else {
      for_each(count, kernels::FindCellStarts{sorted_keys, cell_start, count, cells});
    }
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
    for (std::int64_t i = 0; i < static_cast<std::int64_t>(count); ++i)
      best = std::max(best, values[i]);
    return best;
  }

  static int threads() {
    return omp_get_max_threads();
  }

 private:
  // Every sorting thread reads all keys, so only a few pay off, and only on many keys.
  static constexpr int kMaxSortThreads = 4;
  static constexpr kernels::index_t kMinKeysPerSortThread = 65536;

  std::vector<kernels::index_t> offsets_;
  std::vector<kernels::index_t> bucket_start_;  // of the last sort: bucket b starts there
  std::vector<kernels::index_t> range_totals_;
  const kernels::index_t* sorted_keys_ = nullptr;  // where the last sort put its keys
  kernels::index_t sorted_count_ = 0;
};

}  // namespace boids
