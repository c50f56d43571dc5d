// A batch of flocks over any executor (host/core/flock_batch.h, kernels/batch_step.h): the arrays
// of a KernelSimulation sized for every boid of the batch, and the flocks' places in a small table
// in the executor's memory. Built once; the flocks keep their slots for the whole flight.
#pragma once

#include <algorithm>
#include <cstdint>
#include <string>
#include <vector>

#include "host/backends/flock_layout.h"
#include "host/backends/kernel_simulation.h"
#include "host/base/errors.h"
#include "host/base/memory.h"
#include "host/core/flock_batch.h"
#include "kernels/batch_step.h"

namespace boids {

template <typename Real, typename Executor>
class KernelBatch final : public FlockBatch {
 public:
  static constexpr int D = 2;  // batches hold 2D flocks; a 3D flock flies alone
  using Boid = kernels::Boid<Real, D>;
  using index_t = kernels::index_t;
  using Place = kernels::FlockPlace<Real, D>;
  template <typename T>
  using Buffer = typename Executor::template Buffer<T>;
  // The step's blocks, for counting them (they do not depend on the model).
  using Step =
      kernels::HashedStepBlock<kernels::Boids, Real, Executor::template hashed_lanes<Real, D>, D>;

  template <typename... ExecutorArgs>
  KernelBatch(const std::vector<SimulationConfig>& configs, const std::vector<FlockState>& initial,
              ExecutorArgs&&... executor_args)
      : FlockBatch(counts_of(initial)),
        exec_(std::forward<ExecutorArgs>(executor_args)...),
        model_(configs.front().params.model) {
    std::vector<kernels::Obstacle<Real>> obstacles;
    std::vector<kernels::PathPoint<Real>> paths;
    std::vector<std::size_t> first_obstacle, first_point;
    std::uint64_t boids = 0, cells = 0, blocks = 0;
    for (std::size_t f = 0; f < configs.size(); ++f) {
      const std::uint64_t n = initial[f].size();
      Place place{};
      place.first = static_cast<index_t>(boids);
      place.count = static_cast<index_t>(n);
      place.key_base = static_cast<index_t>(cells);
      place.first_block = static_cast<index_t>(blocks);
      place.grid = KernelSimulation<Real, D, Executor>::grid_for(configs[f].params, n);
      place.params = step_params_of<Real>(configs[f].params, configs[f].seed);
      places_.push_back(place);
      first_obstacle.push_back(obstacles.size());
      for (const auto& o : obstacles_of<Real>(configs[f].params)) obstacles.push_back(o);
      first_point.push_back(paths.size());
      for (const auto& point : path_points_of<Real>(configs[f].params)) paths.push_back(point);
      boids += n;
      cells += place.grid.cells();
      blocks += Step::blocks_for(place.count);
      if (boids > kMaxBoids || cells >= kMaxBoids) {
        throw InputError("a batch holds at most " + std::to_string(kMaxBoids) +
                         " boids and as many cells");
      }
    }
    boids_count_ = static_cast<index_t>(boids);
    cells_ = static_cast<index_t>(cells);
    blocks_ = static_cast<index_t>(blocks);
    check_memory_fits(bytes_needed(obstacles.size(), paths.size()), exec_.available_memory(),
                      "a batch of " + std::to_string(size()) + " flocks of " +
                          std::to_string(boids) + " boids in all",
                      exec_.memory_name(), exec_.memory_holder());
    allocate();
    obstacles_ = upload_vector(obstacles);
    paths_ = upload_vector(paths);
    const auto count_from = [&](const std::vector<std::size_t>& first, std::size_t f,
                                std::size_t all) {
      return static_cast<index_t>((f + 1 < places_.size() ? first[f + 1] : all) - first[f]);
    };
    for (std::size_t f = 0; f < places_.size(); ++f) {
      places_[f].params.obstacles = obstacles_.data() + first_obstacle[f];
      places_[f].params.obstacle_count = count_from(first_obstacle, f, obstacles.size());
      places_[f].params.path = paths_.data() + first_point[f];
      places_[f].params.path_count = count_from(first_point, f, paths.size());
    }
    upload_tables();
    for (std::size_t f = 0; f < places_.size(); ++f) upload_state(f, initial[f], configs[f]);
    exec_.for_each(boids_count_, kernels::BatchInputIds<Real, D>{flocks(), index_.ids});
    exec_.synchronize();
  }

  void step(std::uint64_t steps) override {
    with_model(model_, [&](auto model) {
      for (std::uint64_t s = 0; s < steps; ++s) {
        kernels::hashed_batch_step<decltype(model)>(exec_, index(), flocks(), cells_, blocks_,
                                                    steps_taken_++);
      }
    });
    exec_.synchronize();
  }

  std::vector<FlockMetrics> metrics() override {
    std::vector<kernels::MetricsResult> results(size());
    kernels::measure_batch(exec_, index(), flocks(), cells_, places_.data(), results.data());
    std::vector<FlockMetrics> out;
    for (const kernels::MetricsResult& r : results) out.push_back(flock_metrics_of(r));
    return out;
  }

  FlockState state(std::size_t flock) const override {
    const Place& place = places_[flock];
    std::vector<Boid> boids(place.count);
    std::vector<index_t> ids(place.count);
    exec_.download(boids.data(), boids_.data() + place.first, place.count);
    exec_.download(ids.data(), index_.ids + place.first, place.count);
    FlockState out;
    out.resize(place.count);
    unpack_boids(boids.data(), ids.data(), 0, place.count, StateView::of(out));
    return out;
  }

  std::string device() const override { return exec_.device(); }

  std::uint64_t bytes_allocated() const override {
    return boids_.bytes() + scratch_.bytes() + ids_.bytes() + keys_.bytes() + order_.bytes() +
           cell_start_.bytes() + obstacles_.bytes() + paths_.bytes() + places_buffer_.bytes() +
           slot_start_.bytes() + block_start_.bytes() + exec_.scratch_bytes();
  }

 private:
  static std::vector<std::uint64_t> counts_of(const std::vector<FlockState>& initial) {
    std::vector<std::uint64_t> counts;
    for (const FlockState& s : initial) counts.push_back(s.size());
    return counts;
  }

  // A flock's arrays (KernelSimulation's) for every boid and cell of the batch, and its tables
  // (the places, their starts, the segmented sums' results).
  std::uint64_t bytes_needed(std::size_t obstacles, std::size_t path_points) const {
    const std::uint64_t tables = 2 * (places_.size() + 1) * sizeof(index_t) +
                                 places_.size() * (sizeof(Place) + sizeof(double));
    return KernelSimulation<Real, D, Executor>::bytes_needed(Method::kHashed, boids_count_,
                                                             cells_) +
           tables + obstacles * sizeof(kernels::Obstacle<Real>) +
           path_points * sizeof(kernels::PathPoint<Real>);
  }

  void allocate() {
    const std::size_t n = boids_count_;
    boids_ = Buffer<Boid>(n);
    scratch_ = Buffer<Boid>(n);
    ids_ = Buffer<index_t>(n);
    keys_ = Buffer<index_t>(n);
    order_ = Buffer<index_t>(n);
    cell_start_ = Buffer<index_t>(std::size_t{cells_} + 1);
    index_.ids = ids_.data();
    index_.keys = keys_.data();
    index_.order = order_.data();
    index_.cell_start = cell_start_.data();
    index_.count = boids_count_;
  }

  template <typename T>
  Buffer<T> upload_vector(const std::vector<T>& values) const {
    Buffer<T> buffer(values.size());
    exec_.upload(buffer.data(), values.data(), values.size());
    return buffer;
  }

  // The places and the starts of their slots and blocks, each closed by the batch's total.
  void upload_tables() {
    std::vector<index_t> slots, blocks;
    for (const Place& p : places_) {
      slots.push_back(p.first);
      blocks.push_back(p.first_block);
    }
    slots.push_back(boids_count_);
    blocks.push_back(blocks_);
    places_buffer_ = upload_vector(places_);
    slot_start_ = upload_vector(slots);
    block_start_ = upload_vector(blocks);
  }

  void upload_state(std::size_t f, const FlockState& initial, const SimulationConfig& config) {
    std::vector<Boid> packed(initial.size());
    pack_boids(initial, 0, initial.size(), config.params.world, packed.data());
    exec_.upload(boids_.data() + places_[f].first, packed.data(), packed.size());
  }

  kernels::BatchFlocks<Real, D> flocks() const {
    return {places_buffer_.data(), slot_start_.data(), block_start_.data(),
            static_cast<index_t>(places_.size())};
  }

  kernels::CellIndex<Real, D>& index() {
    index_.boids = boids_.data();
    index_.sorted = scratch_.data();
    return index_;
  }

  Executor exec_;
  Model model_;
  std::vector<Place> places_;  // the host's copy, its tables pointing into the executor's memory
  index_t boids_count_ = 0, cells_ = 0, blocks_ = 0;
  Buffer<Boid> boids_, scratch_;
  Buffer<index_t> ids_, keys_, order_, cell_start_;
  Buffer<kernels::Obstacle<Real>> obstacles_;
  Buffer<kernels::PathPoint<Real>> paths_;
  Buffer<Place> places_buffer_;
  Buffer<index_t> slot_start_, block_start_;
  kernels::CellIndex<Real, D> index_{};
  std::uint64_t steps_taken_ = 0;
};

}  // namespace boids
