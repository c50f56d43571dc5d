// An executor that takes on CPU threads every path the CUDA executor takes, so that a test
// without a GPU runs every functor the GPU runs and compares the result with the cpu
// backend's:
//   - the hashed step with one lane per boid (each boid gathers exactly its 3x3 block);
//   - the naive step tile by tile, through gather_naive_tile, as the tiled kernel does;
//   - the sort as CUB's radix sort leaves it with an odd number of passes: sorted keys and
//     permutation in the alternate buffers inside the lent scratch, the permutation copied
//     back; then the cell starts by find_cell_starts' three stages;
//   - sums in one pass in index order, maxima, union-find with threads racing on the links;
//   - a batch's flocks, each block finding its flock as a GPU thread does;
//   - the flock's arrays as device memory (kHostMemory false: every transfer made as to a
//     GPU, through upload and download), and a part's split, edges and merge where it lies,
//     by select(), whose sink is called out of order as a GPU's threads call it.
#pragma once

#include <omp.h>

#include <algorithm>
#include <cstdint>
#include <numeric>
#include <stdexcept>
#include <string>
#include <vector>

#include "host/backends/cpu/host_buffer.h"
#include "kernels/cell_index.h"
#include "kernels/naive_step.h"

namespace boids::test_support {

class GpuPathExecutor : public HostMemory {
 public:
  static constexpr bool kHostMemory = false;  // as a GPU's: reached by upload and download
  template <typename Real, int D>
  static constexpr int hashed_lanes = 1;

  std::string device() const { return "CPU threads on the GPU's path"; }
  std::uint64_t available_memory() const { return UINT64_MAX; }
  std::uint64_t scratch_bytes() const { return 0; }
  static std::uint64_t scratch_needed(kernels::index_t, kernels::index_t, std::uint64_t) {
    return 0;
  }

  // Dynamic scheduling in small chunks, so that threads interleave as a GPU's would.
  template <typename Functor>
  void for_each(kernels::index_t count, const Functor& functor) const {
    const auto n = static_cast<std::int64_t>(count);
#pragma omp parallel for schedule(dynamic, 64)
    for (std::int64_t i = 0; i < n; ++i) functor(static_cast<kernels::index_t>(i));
  }

  // The viewer's hooks on a GPU: no stream, no device.
  template <typename Functor>
  void for_each_on(void* /*stream*/, kernels::index_t count, const Functor& functor) const {
    for_each(count, functor);
  }
  void* stream_handle() const {
    return nullptr;
  }
  int device_ordinal() const {
    return -1;
  }

  // As CudaExecutor::select: the ranks of the kept indices in ascending order, the sink
  // called from the last to the first (a GPU's threads call it in any order).
  template <typename Keep, typename Sink>
  kernels::index_t select(kernels::index_t count, const Keep& keep, const Sink& sink) const {
    std::vector<kernels::index_t> kept;
    for (kernels::index_t i = 0; i < count; ++i) {
      if (keep(i)) kept.push_back(i);
    }
    for (std::size_t rank = kept.size(); rank-- > 0;) {
      sink(static_cast<kernels::index_t>(rank), kept[rank]);
    }
    return static_cast<kernels::index_t>(kept.size());
  }

  template <typename Model, typename Real, int D>
  void naive_step(const kernels::Boid<Real, D>* in, kernels::Boid<Real, D>* out,
                  kernels::index_t count, const kernels::StepParams<Real>& params) const {
    kernels::with_pair_flags(params.torus, params.limited_view, [&](auto flags) {
      using F = decltype(flags);
      for_each(count, [=](kernels::index_t i) {
        const kernels::Boid<Real, D> me = in[i];
        kernels::LaneBoids<Real, 1, D> self;
        self.set(0, me);
        typename Model::template Sums<Real, 1, D> sums;
        Model::start(sums, 0, me);
        for (kernels::index_t base = 0; base < count; base += kernels::kNaiveTile) {
          kernels::gather_naive_tile<Model, F::kWraps, F::kLimitedView>(sums, self, i, in + base,
                                                                        base, count, params);
        }
        out[i] = kernels::advance_one<Model>(me, sums, i, params);
      });
    });
  }

  void sort_cells(kernels::index_t* keys, kernels::index_t* order, kernels::index_t* cell_start,
                  kernels::index_t count, kernels::index_t cells, kernels::Scratch lent) {
    const std::size_t alternates = 2ull * count * sizeof(kernels::index_t);
    if (alternates > lent.bytes) throw std::logic_error("sort_cells: less scratch than two arrays");
    auto* sorted_keys = static_cast<kernels::index_t*>(lent.data);
    kernels::index_t* sorted_order = sorted_keys + count;
    // A stable sort of (key, order) pairs, as a radix sort of the pairs leaves them.
    std::iota(sorted_order, sorted_order + count, 0u);
    std::stable_sort(sorted_order, sorted_order + count,
                     [keys](kernels::index_t a, kernels::index_t b) { return keys[a] < keys[b]; });
    for (kernels::index_t i = 0; i < count; ++i) {
      const kernels::index_t from = sorted_order[i];
      sorted_keys[i] = keys[from];
      sorted_order[i] = order[from];
    }
    std::fill(keys, keys + count, 0xdeadbeefu);  // the sort's input is spent
    std::memcpy(order, sorted_order, count * sizeof(kernels::index_t));
    const std::size_t used = (alternates + 255) / 256 * 256;
    const kernels::Scratch rest =
        used < lent.bytes
            ? kernels::Scratch{static_cast<char*>(lent.data) + used, lent.bytes - used}
            : kernels::Scratch{nullptr, 0};
    kernels::find_cell_starts(*this, sorted_keys, cell_start, count, cells, rest);
  }

  void inclusive_max_scan(kernels::index_t* values, kernels::index_t count,
                          kernels::Scratch /*unused*/) const {
    for (kernels::index_t i = 1; i < count; ++i) values[i] = std::max(values[i], values[i - 1]);
  }

  template <typename ValueOf>
  double sum(kernels::index_t count, const ValueOf& value_of) const {
    double total = 0;
    for (kernels::index_t i = 0; i < count; ++i) total += value_of(i);
    return total;
  }

  kernels::index_t maximum(const kernels::index_t* values, kernels::index_t count) const {
    return count == 0 ? 0 : *std::max_element(values, values + count);
  }

  // A batch's sums, each segment in index order as sum() adds it.
  template <typename ValueOf>
  void segmented_sum(const kernels::index_t* starts, kernels::index_t segments,
                     const ValueOf& value_of, double* out) const {
    for (kernels::index_t s = 0; s < segments; ++s) {
      out[s] = sum(starts[s + 1] - starts[s],
                   [&](kernels::index_t i) { return value_of(starts[s] + i); });
    }
  }

  void segmented_maximum(const kernels::index_t* values, const kernels::index_t* starts,
                         kernels::index_t segments, kernels::index_t* out) const {
    for (kernels::index_t s = 0; s < segments; ++s) {
      out[s] = maximum(values + starts[s], starts[s + 1] - starts[s]);
    }
  }
};

}  // namespace boids::test_support
