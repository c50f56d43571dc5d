// Runs the kernels' functors on OpenMP threads, over host memory: the cpu backend's launch
// layer. KernelSimulation (kernel_simulation.h) asks the same of every executor.
#pragma once

#include <omp.h>

#include <algorithm>
#include <cstdint>
#include <string>
#include <vector>

#include "host/backends/cpu/counting_sort.h"
#include "host/backends/cpu/host_buffer.h"
#include "host/base/memory.h"
#include "kernels/cell_index.h"
#include "kernels/naive_step.h"

namespace boids {

class CpuExecutor : public HostMemory {
 public:
  static constexpr bool kSortsMoving = true;  // sort_cells_moving (kernels/cell_index.h)

#if defined(__AVX512F__)
  static constexpr int kVectorBytes = 64;
#else
  static constexpr int kVectorBytes = 32;
#endif

  // Boids per block of the hashed step. A block gathers every candidate around its span of
  // cells for each of its lanes, so a narrower block tests fewer pairs in all, until what a
  // block costs whatever its width (its runs, its move) takes over: 8 floats, and 8 doubles
  // with AVX-512 (where a 512-bit operation may run as two halves, a lane costing the same at
  // any width), else one register's worth. The widths measured: bench/results/README.md.
  template <typename Real, int D>
  static constexpr int hashed_lanes = sizeof(Real) == 4 ? 8 : (kVectorBytes == 64 ? 8 : 4);

  // Boids per block of the naive step: a few vector registers' worth.
  template <typename Real>
  static constexpr int naive_lanes = sizeof(Real) == 4 ? 16 : 8;

  std::string device() const {
    return "CPU, " + std::to_string(omp_get_max_threads()) + " OpenMP threads";
  }
  std::uint64_t available_memory() const {
    return available_host_memory();
  }
  std::uint64_t scratch_bytes() const {
    return partial_sums_.capacity() * sizeof(double) +
           (sort_counts_.capacity() + listed_.capacity()) * sizeof(kernels::index_t);
  }

  // Bytes of its own scratch a flock of `count` boids needs (the sums' partial results, the
  // sort's counts and the lists of sort_cells_moving; sort_cells lists in the lent scratch).
  static std::uint64_t scratch_needed(kernels::index_t count, kernels::index_t /*cells*/,
                                      std::uint64_t /*lent*/) {
    return (count / kSumChunk + 1) * sizeof(double) +
           (4 * kMaxSortThreads + 2 + count / 32) * sizeof(kernels::index_t);
  }

  template <typename Functor>
  void for_each(kernels::index_t count, const Functor& functor) const {
    const auto timer = stage_timer(kernels::stage_of<Functor>());
    const auto n = static_cast<std::int64_t>(count);
#pragma omp parallel for schedule(static)
    for (std::int64_t i = 0; i < n; ++i) functor(static_cast<kernels::index_t>(i));
  }

  // The naive step in blocks of naive_lanes boids, vectorised across the block's boids.
  template <typename Model, typename Real, int D>
  void naive_step(const kernels::Boid<Real, D>* in, kernels::Boid<Real, D>* out,
                  kernels::index_t count, const kernels::StepParams<Real>& params) const {
    const auto timer = stage_timer(kernels::stage::kStep);
    const kernels::NaiveStepBlock<Model, Real, naive_lanes<Real>, D> block{in, out, count, params};
    const auto blocks = static_cast<std::int64_t>(block.blocks_for(count));
#pragma omp parallel for schedule(dynamic, 1)
    for (std::int64_t b = 0; b < blocks; ++b) block(static_cast<kernels::index_t>(b));
  }

  // A stable counting sort by cell (host/backends/cpu/counting_sort.h). Its lists of keys
  // that lie in another thread's cells go in the lent scratch (the reordered state's buffer,
  // not yet written) when it is large enough. `order` comes in as the identity, which the sort
  // need not read.
  void sort_cells(const kernels::index_t* keys, kernels::index_t* order,
                  kernels::index_t* cell_start, kernels::index_t count, kernels::index_t cells,
                  kernels::Scratch lent) {
    const auto timer = stage_timer(kernels::stage::kSort);
    const int parts = sort_parts(count);
    kernels::index_t* listed = static_cast<kernels::index_t*>(lent.data);
    if (lent.bytes < sizeof(kernels::index_t) * count) {
      listed_.resize(count);
      listed = listed_.data();
    }
    cpu::counting_sort(keys, order, cell_start, count, cells, sort_work(parts, listed, 0));
  }

  // The sort and the reorder in one pass (kernels/cell_index.h), where the keys are nearly
  // sorted, as every hashed step but the first leaves them: the sort moves each boid straight
  // to its place in cell order, move(from, to), so no permutation is written and read back.
  // The lists of keys in another thread's cells are then few; they go in a buffer of the
  // executor's own, at most a 32nd of a chunk each (list_room), as the reordered state's buffer
  // is being written.
  // Returns false, having moved nothing, where the keys are not nearly sorted or a list
  // outgrows its room.
  template <typename Move>
  bool sort_cells_moving(const kernels::index_t* keys, kernels::index_t* cell_start,
                         kernels::index_t count, kernels::index_t cells, const Move& move) {
    const auto timer = stage_timer(kernels::stage::kSort);
    if (!cpu::nearly_sorted(keys, count)) return false;
    const int parts = sort_parts(count);
    const kernels::index_t room = list_room(count, cells, parts);
    listed_.resize(static_cast<std::size_t>(parts) * room);
    return cpu::counting_sort(keys, move, cell_start, count, cells,
                              sort_work(parts, listed_.data(), room));
  }
  // Sum of value_of(i) over [0, count) in fixed chunks added in order: the same result on any
  // number of threads.
  template <typename ValueOf>
  double sum(kernels::index_t count, const ValueOf& value_of) {
    const std::int64_t n = count, chunks = (n + kSumChunk - 1) / kSumChunk;
    partial_sums_.assign(static_cast<std::size_t>(chunks), 0.0);
    double* partial = partial_sums_.data();
#pragma omp parallel for schedule(static)
    for (std::int64_t c = 0; c < chunks; ++c) {
      partial[c] = chunk_sum(c * kSumChunk, std::min(n, (c + 1) * kSumChunk), value_of);
    }
    double total = 0;
    for (std::int64_t c = 0; c < chunks; ++c) total += partial[c];
    return total;
  }

  // out[s] = the sum of value_of(i) over [starts[s], starts[s + 1]), added exactly as sum()
  // adds a flock of its own (a batch's flocks, kernels/batch_step.h), a segment per thread.
  template <typename ValueOf>
  void segmented_sum(const kernels::index_t* starts, kernels::index_t segments,
                     const ValueOf& value_of, double* out) const {
#pragma omp parallel for schedule(dynamic, 1)
    for (std::int64_t s = 0; s < static_cast<std::int64_t>(segments); ++s) {
      const std::int64_t first = starts[s], end = starts[s + 1];
      double total = 0;
      for (std::int64_t c = first; c < end; c += kSumChunk) {
        total += chunk_sum(c, std::min(end, c + kSumChunk), value_of);
      }
      out[s] = total;
    }
  }

  kernels::index_t maximum(const kernels::index_t* values, kernels::index_t count) const {
    kernels::index_t best = 0;
#pragma omp parallel for reduction(max : best) schedule(static)
    for (std::int64_t i = 0; i < static_cast<std::int64_t>(count); ++i)
      best = std::max(best, values[i]);
    return best;
  }

  void segmented_maximum(const kernels::index_t* values, const kernels::index_t* starts,
                         kernels::index_t segments, kernels::index_t* out) const {
#pragma omp parallel for schedule(dynamic, 1)
    for (std::int64_t s = 0; s < static_cast<std::int64_t>(segments); ++s) {
      kernels::index_t best = 0;
      for (kernels::index_t i = starts[s]; i < starts[s + 1]; ++i) best = std::max(best, values[i]);
      out[s] = best;
    }
  }

 private:
  // Each sorting thread reads its chunk of the keys and the lists of the others' chunks:
  // all the keys where they are far from sorted, so only a few threads pay off.
  static constexpr int kMaxSortThreads = 8;
  static constexpr kernels::index_t kMinKeysPerSortThread = 65536;
  static constexpr std::int64_t kSumChunk = 1 << 14;  // boids per partial sum

  // The threads a sort of `count` keys takes.
  static int sort_parts(kernels::index_t count) {
    return std::max(1, std::min({omp_get_max_threads(), kMaxSortThreads,
                                 static_cast<int>(count / kMinKeysPerSortThread)}));
  }
  // Entries of each chunk's list in sort_cells_moving: a 32nd of the chunk (one thread lists
  // nothing), within the room the cell starts leave, so that the index stays within 4 bytes a
  // boid beside the state, ids, keys and permutation (at most 48 bytes a float boid in 2D);
  // but never fewer than kFewListed. In 3D at the published example's density the grid has a cell a
  // boid and leaves none, and nearly sorted keys list only the few boids that crossed a thread's
  // first cell: a few kilobytes more let the sort move the boids there too. A grid of more cells
  // than boids (open space's table, two cells a boid) is past that budget already: its lists
  // take their 32nd, an eighth of a byte a boid, as a tile given another slot moves thousands
  // of boids across a thread's first cell at once.
  static constexpr kernels::index_t kFewListed = 1024;
  static kernels::index_t list_room(kernels::index_t count, kernels::index_t cells, int parts) {
    if (parts == 1) return 1;
    kernels::index_t left = count > cells + 1 ? count - cells - 1 : 0;
    if (cells > count) left = count;  // open space's table
    const auto n = static_cast<kernels::index_t>(parts);
    return std::max<kernels::index_t>(1,
                                      std::min(count / (32 * n), std::max(left / n, kFewListed)));
  }
  cpu::SortWork sort_work(int parts, kernels::index_t* listed, kernels::index_t room) {
    sort_counts_.assign(3 * static_cast<std::size_t>(parts) + 2, 0);
    kernels::index_t* counts = sort_counts_.data();
    return {parts, listed, counts, counts + parts, counts + 2 * parts + 1, room};
  }

  template <typename ValueOf>
  static double chunk_sum(std::int64_t first, std::int64_t end, const ValueOf& value_of) {
    double s = 0;
    for (std::int64_t i = first; i < end; ++i) s += value_of(static_cast<kernels::index_t>(i));
    return s;
  }

  std::vector<kernels::index_t> sort_counts_;  // the sort's listed counts, bounds and totals
  std::vector<kernels::index_t> listed_;       // the sort's lists, where none were lent
  std::vector<double> partial_sums_;
};

}  // namespace boids
