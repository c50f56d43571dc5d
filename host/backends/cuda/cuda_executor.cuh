// Runs the kernels' functors on a GPU, over device memory: the cuda backend's launch layer.
// Everything goes on the executor's own non-blocking stream; only transfers, reductions and
// synchronize() wait for it. CUB sorts, scans and reduces. Temporary storage comes from the
// scratch the cell index lends (the reordered state's buffer, free while the sort runs) or
// from one buffer the executor keeps, grown when needed and never freed per step.
#pragma once

#include <nvtx3/nvToolsExt.h>
#include <thrust/iterator/counting_iterator.h>
#include <thrust/iterator/tabulate_output_iterator.h>
#include <thrust/iterator/transform_iterator.h>

#include <cub/device/device_reduce.cuh>
#include <cub/device/device_segmented_reduce.cuh>
#include <cub/device/device_select.cuh>
#include <cuda/std/functional>
#include <string>

#include "host/backends/cuda/cuda_buffer.h"
#include "host/backends/stage_clock.h"
#include "kernels/cell_index.h"
#include "kernels/cuda/for_each.cuh"
#include "kernels/cuda/naive_tiled.cuh"

namespace boids {

// CudaExecutor::select()'s output: the tabulating iterator's (rank, index) as the sink takes
// them. (At namespace scope: a kernel's template arguments are named outside the class.)
template <typename Sink>
struct SelectedSink {
  Sink sink;
  template <typename Rank>
  __device__ void operator()(Rank rank, kernels::index_t i) const {
    sink(static_cast<kernels::index_t>(rank), i);
  }
};

class CudaExecutor {
 public:
  template <typename T>
  using Buffer = CudaBuffer<T>;
  static constexpr bool kHostMemory = false;
  static constexpr int kThreadsPerBlock = kernels::cuda::kForEachThreads;

  // One boid per thread in the hashed step.
  template <typename Real, int D>
  static constexpr int hashed_lanes = 1;

  explicit CudaExecutor(std::string device_name);
  CudaExecutor(const CudaExecutor&) = delete;
  CudaExecutor& operator=(const CudaExecutor&) = delete;

  std::string device() const { return device_; }
  std::string memory_name() const { return "GPU memory"; }
  std::string memory_holder() const { return device(); }
  std::uint64_t available_memory() const;
  std::uint64_t scratch_bytes() const {
    return temp_.bytes() + result_.bytes() + segment_results_.bytes();
  }

  // Temporary storage CUB needs beyond `lent` bytes of lent scratch, for a flock of `count`
  // boids on `cells` cells: sized before anything is allocated.
  static std::uint64_t scratch_needed(kernels::index_t count, kernels::index_t cells,
                                      std::uint64_t lent);

  template <typename T>
  void upload(T* to, const T* from, std::size_t count) const {
    copy(to, from, count * sizeof(T), cudaMemcpyHostToDevice);
  }
  template <typename T>
  void download(T* to, const T* from, std::size_t count) const {
    copy(to, from, count * sizeof(T), cudaMemcpyDeviceToHost);
  }
  void synchronize() const;

  // The executor's stream (a cudaStream_t) and the device it runs on, for callers that work
  // on the flock's memory themselves.
  void* stream_handle() const { return stream_.get(); }
  int device_ordinal() const;

  // Times the work queued between the two calls, with CUDA events on the stream.
  void mark();
  double seconds_since_mark();

  // The time each stage of its launches takes, while on (host/backends/stage_clock.h): each
  // launch waited for, so a stage's time is its own. Every launch is also an NVTX range named
  // by its stage, for Nsight Systems.
  struct Wait {
    const CudaExecutor* executor;
    void operator()() const { executor->synchronize(); }
  };
  StageClock& stage_clock() const { return clock_; }
  StageClock::Timer<Wait> stage_timer(const char* stage) const { return {clock_, stage, {this}}; }

  template <typename Functor>
  void for_each(kernels::index_t count, const Functor& functor) const {
    const auto timer = stage_timer(kernels::stage_of<Functor>());
    launch(stream_.get(), count, functor);
  }

  // Runs `functor` on another stream (a viewer's), after the work queued here and before the
  // work queued here next.
  template <typename Functor>
  void for_each_on(void* stream, kernels::index_t count, const Functor& functor) {
    const auto other = static_cast<cudaStream_t>(stream);
    hand_over(stream_.get(), other);
    launch(other, count, functor);
    hand_over(other, stream_.get());
  }

  template <typename Model, typename Real, int D>
  void naive_step(const kernels::Boid<Real, D>* in, kernels::Boid<Real, D>* out,
                  kernels::index_t count, const kernels::StepParams<Real>& params) const {
    const auto timer = stage_timer(kernels::stage::kStep);
    const NvtxRange range(kernels::stage::kStep);
    const unsigned blocks = (count + kernels::kNaiveTile - 1) / kernels::kNaiveTile;
    kernels::with_pair_flags(params.torus, params.limited_view, [&](auto flags) {
      using F = decltype(flags);
      kernels::cuda::naive_tiled_step<Model, F::kWraps, F::kLimitedView, Real, D>
          <<<blocks, kernels::kNaiveTile, 0, stream_.get()>>>(in, out, count, params);
    });
    BOIDS_CUDA_CHECK_LAUNCH("naive_tiled_step");
  }

  // CUB's radix sort of (key, identity) pairs over the key bits in use, its alternate buffers
  // and temporary storage in the lent scratch; then the cell starts from the sorted keys
  // (kernels::find_cell_starts). `order` is copied back when the sort ends in the alternate,
  // because the reorder writes the scratch.
  void sort_cells(kernels::index_t* keys, kernels::index_t* order, kernels::index_t* cell_start,
                  kernels::index_t count, kernels::index_t cells, kernels::Scratch lent);

  void inclusive_max_scan(kernels::index_t* values, kernels::index_t count, kernels::Scratch lent);

  // The sum of value_of(i) over [0, count): CUB's reduction, the same on every run.
  template <typename ValueOf>
  double sum(kernels::index_t count, const ValueOf& value_of) {
    const thrust::counting_iterator<kernels::index_t> indices(0);
    std::size_t bytes = 0;
    BOIDS_CUDA_CHECK(cub::DeviceReduce::TransformReduce(nullptr, bytes, indices, result_.data(),
                                                        count, cuda::std::plus<double>{}, value_of,
                                                        0.0, stream_.get()));
    BOIDS_CUDA_CHECK(cub::DeviceReduce::TransformReduce(
        temp(bytes, {}), bytes, indices, result_.data(), count, cuda::std::plus<double>{}, value_of,
        0.0, stream_.get()));
    double total = 0;
    download(&total, result_.data(), 1);
    return total;
  }

  kernels::index_t maximum(const kernels::index_t* values, kernels::index_t count);

  // Calls sink(rank, i) for each i in [0, count) that keep(i) holds, `rank` its place among
  // them in ascending i, and returns how many: CUB's stable selection of the indices, written
  // through `sink` (a part's split, kernels/part_split.h), so nothing is listed first.
  template <typename Keep, typename Sink>
  kernels::index_t select(kernels::index_t count, const Keep& keep, const Sink& sink) {
    if (count == 0) return 0;
    const NvtxRange range("select");
    const thrust::counting_iterator<kernels::index_t> indices(0);
    const auto out = thrust::make_tabulate_output_iterator(SelectedSink<Sink>{sink});
    auto* selected = reinterpret_cast<kernels::index_t*>(result_.data());
    std::size_t bytes = 0;
    BOIDS_CUDA_CHECK(
        cub::DeviceSelect::If(nullptr, bytes, indices, out, selected, count, keep, stream_.get()));
    BOIDS_CUDA_CHECK(cub::DeviceSelect::If(temp(bytes, {}), bytes, indices, out, selected, count,
                                           keep, stream_.get()));
    kernels::index_t total = 0;
    download(&total, selected, 1);
    return total;
  }

  // out[s] = the sum of value_of(i) over [starts[s], starts[s + 1]) (starts in device
  // memory, out in the host's): CUB's segmented reduction, a thread block per segment, the
  // same on every run. Its order of addition differs from sum()'s, so a batch's metrics agree
  // with a lone flock's to rounding, not bit for bit.
  template <typename ValueOf>
  void segmented_sum(const kernels::index_t* starts, kernels::index_t segments,
                     const ValueOf& value_of, double* out) {
    if (segments == 0) return;
    const auto values =
        thrust::make_transform_iterator(thrust::counting_iterator<kernels::index_t>(0), value_of);
    double* results = segment_results(segments);
    std::size_t bytes = 0;
    BOIDS_CUDA_CHECK(cub::DeviceSegmentedReduce::Reduce(
        nullptr, bytes, values, results, segments, starts, starts + 1, cuda::std::plus<double>{},
        0.0, stream_.get()));
    BOIDS_CUDA_CHECK(cub::DeviceSegmentedReduce::Reduce(
        temp(bytes, {}), bytes, values, results, segments, starts, starts + 1,
        cuda::std::plus<double>{}, 0.0, stream_.get()));
    download(out, results, segments);
  }

  void segmented_maximum(const kernels::index_t* values, const kernels::index_t* starts,
                         kernels::index_t segments, kernels::index_t* out);

 private:
  template <typename Functor>
  static void launch(cudaStream_t stream, kernels::index_t count, const Functor& functor) {
    if (count == 0) return;
    const NvtxRange range(kernels::stage_of<Functor>());
    const unsigned blocks = (count + kThreadsPerBlock - 1) / kThreadsPerBlock;
    kernels::cuda::for_each_index<<<blocks, kThreadsPerBlock, 0, stream>>>(count, functor);
    BOIDS_CUDA_CHECK_LAUNCH("for_each_index");
  }

  void copy(void* to, const void* from, std::size_t bytes, cudaMemcpyKind kind) const;
  // Makes `later` wait for the work queued so far on `earlier`.
  void hand_over(cudaStream_t earlier, cudaStream_t later);
  // `bytes` of temporary storage: in `lent` when it fits, else in the executor's own buffer.
  void* temp(std::size_t bytes, kernels::Scratch lent);
  // Room for `segments` results of a segmented reduction (doubles, or indices in their bytes).
  double* segment_results(kernels::index_t segments);

  // An NVTX range for its life (the launches made in it, in a profiler's timeline).
  struct NvtxRange {
    explicit NvtxRange(const char* name) { nvtxRangePushA(name); }
    ~NvtxRange() { nvtxRangePop(); }
  };

  std::string device_;
  mutable StageClock clock_;
  CudaStream stream_;
  CudaEvent start_, stop_;  // timing
  CudaEvent handoff_;       // ordering with other streams
  CudaBuffer<unsigned char> temp_;
  CudaBuffer<double> result_;  // one reduction's result (a double, or an index in its bytes)
  CudaBuffer<double> segment_results_;
};

}  // namespace boids
