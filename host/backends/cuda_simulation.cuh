// The cuda backend: the kernels' code on a GPU. Naive runs the shared-memory tiled kernel;
// hashed runs the sorted-cell pipeline with CUB's radix sort. Instantiated once per precision
// (cuda_simulation_float.cu, cuda_simulation_double.cu), each with its own code generation.
#pragma once

#include <memory>
#include <vector>

#include "host/backends/cuda_buffer.h"
#include "host/backends/cuda_executor.cuh"
#include "host/backends/flock_layout.h"
#include "host/simulation.h"
#include "kernels/cuda/naive_tiled.cuh"
#include "kernels/flock_metrics.h"
#include "kernels/hashed_step.h"
#include "kernels/predator.h"

namespace boids {

// Device memory a flock of `count` boids needs, in bytes.
template <typename Real>
std::uint64_t cuda_flock_bytes(const SimulationConfig& config, kernels::index_t count,
                               const kernels::CellGrid<Real>& grid) {
  std::uint64_t bytes = 2ull * count * sizeof(kernels::Boid<Real>);
  if (config.method == Method::kHashed) {
    bytes += 5ull * count * sizeof(kernels::index_t);  // ids, two key and two order arrays
    bytes += (std::uint64_t{grid.cells()} + 1) * sizeof(kernels::index_t);
    bytes += CudaPairSorter::scratch_bytes(count);
  }
  return bytes;
}

namespace cuda_detail {

template <typename Real>
struct ToRenderData {
  const kernels::Boid<Real>* boids;
  float4* out;
  __device__ void operator()(kernels::index_t i) const {
    const kernels::Boid<Real> b = boids[i];
    out[i] = make_float4(static_cast<float>(b.x), static_cast<float>(b.y), static_cast<float>(b.vx),
                         static_cast<float>(b.vy));
  }
};

struct InitializeIds {
  kernels::index_t* ids;
  __device__ void operator()(kernels::index_t i) const { ids[i] = i; }
};

}  // namespace cuda_detail

template <typename Real>
class CudaSimulation final : public Simulation {
 public:
  CudaSimulation(const SimulationConfig& config, const FlockState& initial, std::string device)
      : Simulation(config, initial.size()),
        device_(std::move(device)),
        params_(kernels::make_step_params<Real>(config.params.radius, config.params.separation,
                                                config.params.alignment, config.params.cohesion,
                                                config.params.max_speed, config.params.world)),
        grid_(kernels::make_cell_grid<Real>(config.params.radius, config.params.world, count32())),
        executor_(stream_.get()) {
    check_memory();
    boids_ = CudaBuffer<kernels::Boid<Real>>(count());
    scratch_ = CudaBuffer<kernels::Boid<Real>>(count());
    const auto packed = pack_boids<Real>(initial);
    // On the simulation's stream: a plain cudaMemcpy runs on the legacy default stream, which
    // a non-blocking stream does not wait for, and may return before the copy has landed.
    BOIDS_CUDA_CHECK(cudaMemcpyAsync(boids_.data(), packed.data(), boids_.bytes(),
                                     cudaMemcpyHostToDevice, stream_.get()));
    if (config.method == Method::kHashed) allocate_index();
    BOIDS_CUDA_CHECK(cudaStreamSynchronize(stream_.get()));  // state() reads on the default stream
  }

  void step(std::uint64_t steps) override {
    for (std::uint64_t s = 0; s < steps; ++s) {
      if (config().method == Method::kNaive) {
        step_naive();
      } else {
        kernels::hashed_step(executor_, hashed_, grid_, params_);
      }
    }
    BOIDS_CUDA_CHECK(cudaStreamSynchronize(stream_.get()));
  }

  FlockState state() const override {
    std::vector<kernels::Boid<Real>> boids(count());
    BOIDS_CUDA_CHECK(
        cudaMemcpy(boids.data(), boids_.data(), boids_.bytes(), cudaMemcpyDeviceToHost));
    if (config().method == Method::kNaive) return unpack_boids(boids.data(), nullptr, boids.size());
    std::vector<kernels::index_t> ids(count());
    BOIDS_CUDA_CHECK(cudaMemcpy(ids.data(), hashed_.ids, ids.size() * sizeof(kernels::index_t),
                                cudaMemcpyDeviceToHost));
    return unpack_boids(boids.data(), ids.data(), boids.size());
  }

  double timed_step(std::uint64_t steps) override {
    const CudaEvent start, stop;
    BOIDS_CUDA_CHECK(cudaEventRecord(start.get(), stream_.get()));
    step(steps);
    BOIDS_CUDA_CHECK(cudaEventRecord(stop.get(), stream_.get()));
    BOIDS_CUDA_CHECK(cudaEventSynchronize(stop.get()));
    float milliseconds = 0;
    BOIDS_CUDA_CHECK(cudaEventElapsedTime(&milliseconds, start.get(), stop.get()));
    return milliseconds * 1e-3;
  }

  void set_params(const FlockParams& params) override {
    change_params(params);
    params_ = kernels::make_step_params<Real>(params.radius, params.separation, params.alignment,
                                              params.cohesion, params.max_speed, params.world);
    const kernels::CellGrid<Real> grid =
        kernels::make_cell_grid<Real>(params.radius, params.world, count32());
    if (index_buffers_.data() && grid.cells() != grid_.cells()) {
      cell_start_ = CudaBuffer<kernels::index_t>(std::size_t{grid.cells()} + 1);
      hashed_.cell_start = cell_start_.data();
    }
    grid_ = grid;
    hashed_.keys_ready = false;  // keyed on the old grid
  }

  void apply_predator(double x, double y, double radius, double strength) override {
    const kernels::Predator<Real> predator{static_cast<Real>(x), static_cast<Real>(y),
                                           static_cast<Real>(radius * radius),
                                           static_cast<Real>(strength)};
    executor_.for_each(count32(), kernels::FleePredator<Real>{boids_.data(), predator, params_});
    BOIDS_CUDA_CHECK(cudaStreamSynchronize(stream_.get()));
  }

  void copy_render_data(float* out) const override {
    CudaBuffer<float> staging(4 * count());
    copy_render_data_to_device(staging.data());
    BOIDS_CUDA_CHECK(cudaMemcpy(out, staging.data(), staging.bytes(), cudaMemcpyDeviceToHost));
  }

  bool copy_render_data_to_device(void* device_out) const override {
    CudaExecutor executor(stream_.get());
    executor.for_each(count32(), cuda_detail::ToRenderData<Real>{boids_.data(),
                                                                 static_cast<float4*>(device_out)});
    BOIDS_CUDA_CHECK(cudaStreamSynchronize(stream_.get()));
    return true;
  }

  FlockMetrics metrics() const override {
    if (!index_buffers_.data()) allocate_index();  // the naive method builds its index on demand
    hashed_.boids = boids_.data();
    hashed_.sorted = scratch_.data();
    if (!metric_values_.data()) {
      metric_values_ = CudaBuffer<double>(2 * count());
      metric_indices_ = CudaBuffer<kernels::index_t>(2 * count());
    }
    kernels::MetricsBuffers buffers{{metric_values_.data(), metric_values_.data() + count()},
                                    metric_indices_.data(),
                                    metric_indices_.data() + count()};
    const kernels::MetricsResult r =
        kernels::measure_flock(executor_, hashed_, buffers, grid_, params_);
    return {r.polarization, static_cast<std::uint64_t>(r.flocks), r.largest_flock,
            r.mean_nn_distance};
  }

  std::string device() const override { return device_; }

  std::uint64_t bytes_allocated() const override {
    return cuda_flock_bytes<Real>(config(), count32(), grid_);
  }

 private:
  kernels::index_t count32() const { return static_cast<kernels::index_t>(count()); }

  void check_memory() const {
    std::size_t free_bytes = 0, total_bytes = 0;
    BOIDS_CUDA_CHECK(cudaMemGetInfo(&free_bytes, &total_bytes));
    const std::uint64_t needed = cuda_flock_bytes<Real>(config(), count32(), grid_);
    if (needed > free_bytes) {
      throw RuntimeError("a flock of " + std::to_string(count()) + " boids (" +
                         to_string(config().method) + ", " + to_string(config().precision) +
                         ") needs " + std::to_string(needed >> 20) + " MiB of GPU memory; " +
                         device_ + " has " + std::to_string(free_bytes >> 20) + " MiB free");
    }
  }

  void step_naive() {
    const unsigned blocks = (count32() + kernels::cuda::kNaiveTile - 1) / kernels::cuda::kNaiveTile;
    kernels::cuda::naive_tiled_step<Real><<<blocks, kernels::cuda::kNaiveTile, 0, stream_.get()>>>(
        boids_.data(), scratch_.data(), count32(), params_);
    BOIDS_CUDA_CHECK_LAUNCH("naive_tiled_step");
    std::swap(boids_, scratch_);
  }

  // The sorted-cell index: the hashed step's buffers, and the metrics' on either method.
  void allocate_index() const {
    const std::size_t n = count();
    index_buffers_ = CudaBuffer<kernels::index_t>(5 * n);
    cell_start_ = CudaBuffer<kernels::index_t>(std::size_t{grid_.cells()} + 1);
    kernels::index_t* base = index_buffers_.data();
    hashed_ = {boids_.data(),
               scratch_.data(),
               base,
               {base + n, base + 2 * n},
               {base + 3 * n, base + 4 * n},
               cell_start_.data(),
               count32()};
    executor_.for_each(count32(), cuda_detail::InitializeIds{base});
  }

  std::string device_;
  kernels::StepParams<Real> params_;
  kernels::CellGrid<Real> grid_;
  CudaStream stream_;
  mutable CudaExecutor executor_;
  CudaBuffer<kernels::Boid<Real>> boids_, scratch_;
  // The index and the metrics' scratch, built on demand by metrics() (hence mutable).
  mutable CudaBuffer<kernels::index_t> index_buffers_, cell_start_, metric_indices_;
  mutable CudaBuffer<double> metric_values_;
  mutable kernels::HashedBuffers<Real> hashed_{};
};

// Defined in the per-precision files.
std::unique_ptr<Simulation> make_cuda_simulation_float(const SimulationConfig& config,
                                                       const FlockState& initial,
                                                       const std::string& device);
std::unique_ptr<Simulation> make_cuda_simulation_double(const SimulationConfig& config,
                                                        const FlockState& initial,
                                                        const std::string& device);

}  // namespace boids
