// One simulation over any executor: the kernels' steps, metrics and viewer hooks, on the
// executor's memory (host arrays for CpuExecutor, device arrays for CudaExecutor). A new rule,
// method or executor changes one place. The reference stays apart (reference_simulation.cpp).
//
// An executor provides, besides what the kernels ask of it (for_each, sort_cells, sum,
// maximum; see kernels/cell_index.h and kernels/flock_metrics.h):
//   Buffer<T>                      an owned array in its memory
//   kHostMemory                    whether that memory is the host's
//   naive_step<Model>(in, out, n, p)  the all-pairs step
//   upload / download              host <-> its memory, complete on return
//   synchronize()                  waits for the work it has queued
//   mark() / seconds_since_mark()  times the work queued in between
//   device(), memory_name(), memory_holder(), available_memory(), scratch_bytes()
#pragma once

#include <algorithm>
#include <cstdint>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "host/backends/flock_layout.h"
#include "host/backends/flock_part.h"
#include "host/backends/flock_transfer.h"
#include "host/backends/measure_part.h"
#include "host/backends/model_types.h"
#include "host/backends/open_space.h"
#include "host/backends/predator_group.h"
#include "host/backends/world_tables.h"
#include "host/base/errors.h"
#include "host/base/memory.h"
#include "host/core/simulation.h"
#include "host/core/value_limits.h"
#include "host/core/viewer_access.h"
#include "host/parts/part_access.h"
#include "kernels/flock_metrics.h"
#include "kernels/hashed_step.h"
#include "kernels/models.h"
#include "kernels/nearest_step.h"
#include "kernels/part_split.h"
#include "kernels/predator.h"
#include "kernels/render_data.h"

namespace boids {

// A flock of D = 2 or 3 dimensions in `Real` on `Executor`. The viewer's hooks draw 2D flocks.
template <typename Real, int D, typename Executor>
class KernelSimulation final : public Simulation, public ViewerAccess, public PartAccess {
 public:
  using Boid = kernels::Boid<Real, D>;
  using index_t = kernels::index_t;
  static constexpr Precision kPrecision =
      sizeof(Real) == 4 ? Precision::kFloat : Precision::kDouble;
  template <typename T>
  using Buffer = typename Executor::template Buffer<T>;

  // Bytes the flock takes in the executor's memory: its arrays and the executor's scratch.
  // The naive method builds its cell index for the metrics; it is counted, since every run
  // measures its flock at least once.
  static std::uint64_t bytes_needed(Method method, std::uint64_t count,
                                    const kernels::CellGrid<Real, D>& grid) {
    const std::uint64_t table = grid.open && method == Method::kHashed
                                    ? OpenTableArrays<Executor>::bytes_for(grid.open_slots())
                                    : 0;
    return bytes_needed(method, count, grid.cells()) + table;
  }
  // The same for `cells` cells in all (a batch's).
  static std::uint64_t bytes_needed(Method method, std::uint64_t count, index_t cells) {
    const std::uint64_t arrays = method == Method::kHashed ? 3 : 2;  // (ids,) keys, order
    return 2 * count * sizeof(Boid) + arrays * count * sizeof(index_t) +
           (std::uint64_t{cells} + 1) * sizeof(index_t) +
           Executor::scratch_needed(static_cast<index_t>(count), cells, count * sizeof(Boid));
  }

  static kernels::CellGrid<Real, D> grid_for(const FlockParams& params, std::uint64_t count) {
    const World& w = params.world;
    if (w.open()) {
      return kernels::make_open_grid<Real, D>(params.radius, open_reach(kPrecision, params.radius),
                                              static_cast<index_t>(count));
    }
    double sides[D];
    for (int a = 0; a < D; ++a) sides[a] = a == 0 ? w.width : (a == 1 ? w.height : w.depth);
    return kernels::make_cell_grid<Real, D>(params.radius, sides, static_cast<index_t>(count),
                                            w.torus());
  }

  // The grid a flock starts on: its own; for a part, the whole flock's, or on the hashed
  // method a single cell until the part's bounds cut it a window of the whole flock's (so
  // that no rank ever holds the cell starts of the whole world).
  static kernels::CellGrid<Real, D> first_grid(const SimulationConfig& config,
                                               std::uint64_t count) {
    if (config.whole_count == 0) return grid_for(config.params, count);
    return grid_for(config.params, config.method == Method::kHashed ? 1 : config.whole_count);
  }

  // `executor_args` construct the executor in place (it may own a stream or a device).
  template <typename... ExecutorArgs>
  KernelSimulation(const SimulationConfig& config, const FlockState& initial,
                   ExecutorArgs&&... executor_args)
      : Simulation(config, initial.size()),
        exec_(std::forward<ExecutorArgs>(executor_args)...),
        params_(step_params_of<Real>(config.params, config.seed)),
        grid_(first_grid(config, initial.size())) {
    attach_open_table();
    check_memory_fits(bytes_needed(config.method, count(), grid_), exec_.available_memory(),
                      "a flock of " + std::to_string(count()) + " boids (" +
                          to_string(config.method) + ", " + to_string(config.precision) + ")",
                      exec_.memory_name(), exec_.memory_holder());
    boids_ = Buffer<Boid>(count());
    scratch_ = Buffer<Boid>(count());
    upload_state(initial);
    tables_.upload(exec_, config.params, params_);
    predators_.upload(exec_, initial.predators, config.params.world, params_);
    if (hashed()) cell_index();  // allocates the index and the ids
  }

  void step(std::uint64_t steps) override {
    enqueue_steps(steps);
    exec_.synchronize();
  }

  double timed_step(std::uint64_t steps) override {
    exec_.mark();
    enqueue_steps(steps);
    return exec_.seconds_since_mark();
  }
  double timed_step(std::uint64_t steps, std::vector<StageSeconds>& stages) override {
    exec_.stage_clock().start();
    const double seconds = timed_step(steps);
    stages = exec_.stage_clock().stop();
    return seconds;
  }

  void state_into(const StateView& out) const override {
    download_flock(exec_, boids_.data(), hashed() ? index_.ids : nullptr, count(), out);
  }

  void quantised_into(const QuantisedView& out) const override {
    quantise_flock(exec_, boids_.data(), hashed() ? index_.ids : nullptr, count(),
                   config().params.world, out, quantised_staging_);
  }

  DeviceState device_state() override {
    if constexpr (Executor::kHostMemory || D != 2) {  // a view of (x, y, vx, vy) rows
      return {};
    } else {
      exec_.synchronize();  // the caller's work follows the steps queued so far
      DeviceState d;
      d.boids = boids_.data();
      d.ids = hashed() ? index_.ids : nullptr;
      d.count = count();
      d.precision = config().precision;
      d.stream = exec_.stream_handle();
      d.device = exec_.device_ordinal();
      return d;
    }
  }

  FlockMetrics metrics() override {
    FlockMetrics m = flock_metrics_of(kernels::measure_flock(exec_, cell_index(), grid_, params_));
    m.within_reach = predators_.within_reach(exec_, boids_.data(), count32(), params_);
    return m;
  }

  Particles predators() const override { return predators_.download(exec_); }

  void set_params(const FlockParams& params) override {
    change_params(params);
    params_ = step_params_of<Real>(params, config().seed);
    params_.noise_ids = noise_ids_.size() > 0 ? noise_ids_.data() : nullptr;
    tables_.upload(exec_, params, params_);
    predators_.bind(params_);
    grid_ = grid_for(params, config().whole_count > 0 ? config().whole_count : count());
    attach_open_table();
    if (window_bounds_.reach > 0) cut_window(window_bounds_);
    if (cell_start_.size() > 0 && cell_start_.size() < std::size_t{grid_.cells()} + 1) {
      exec_.synchronize();  // the old array may still be in use
      cell_start_ = Buffer<index_t>(std::size_t{grid_.cells()} + 1);
      index_.cell_start = cell_start_.data();
    }
    index_.keys_ready = false;  // keyed on the old grid
  }

  std::uint64_t steps_taken() const override { return steps_taken_; }

  std::vector<std::uint64_t> backend_order() const override {
    if (!hashed()) return input_order(count());
    std::vector<index_t> ids(count());
    if constexpr (Executor::kHostMemory) {
      std::copy(index_.ids, index_.ids + count(), ids.begin());
    } else {
      exec_.download(ids.data(), index_.ids, count());
    }
    return std::vector<std::uint64_t>(ids.begin(), ids.end());
  }

  void resume(const FlockState& state, const std::vector<std::uint64_t>& order,
              std::uint64_t steps_taken) override {
    check_resumable(state, order, !hashed());
    FlockState in_order;  // the backend's order
    in_order.dimensions = D;
    in_order.resize(count());
    for (std::size_t k = 0; k < count(); ++k) {
      in_order.x[k] = state.x[order[k]];
      in_order.y[k] = state.y[order[k]];
      in_order.vx[k] = state.vx[order[k]];
      in_order.vy[k] = state.vy[order[k]];
      if constexpr (D == 3) {
        in_order.z[k] = state.z[order[k]];
        in_order.vz[k] = state.vz[order[k]];
      }
    }
    exec_.synchronize();
    upload_state(in_order);
    predators_.upload(exec_, state.predators, config().params.world, params_);
    params_.noise_ids = nullptr;  // a whole flock again, after any part
    part_ = flock_part::Passes<Real, D, Executor>();
    if (hashed()) {
      const std::vector<index_t> ids(order.begin(), order.end());
      exec_.upload(index_.ids, ids.data(), ids.size());
      index_.keys_ready = false;  // the next step keys the cells from the positions
    }
    steps_taken_ = steps_taken;
  }

  void open_part(std::uint64_t count, std::uint64_t steps_taken) override {
    exec_.synchronize();  // the arrays may still be in use
    set_count(0);
    part_.start();
    reserve_part(count, 0);
    if (hashed()) cell_index();
    set_count(part_.open(exec_, part_arrays(false), static_cast<index_t>(count)));
    part_made(/*keys=*/false);  // the first step keys every boid
    steps_taken_ = steps_taken;
  }
  void fill_part(std::uint64_t at, IndexedBoids boids) override {
    check_part();
    if (at > count() || boids.size() > count() - at) {
      throw std::logic_error("a part's places filled beyond its length");
    }
    part_.fill(exec_, part_arrays(false), static_cast<index_t>(at), boids, config().params.world);
  }

  // On the hashed method the part's grid is cut from the whole flock's around `bounds`.
  void split_part(const PartBounds& bounds, std::vector<IndexedBoid>& edge) override {
    check_part();
    exec_.synchronize();  // the last step's work
    const bool same_window =
        window_bounds_.reach > 0 && flock_part::same_bounds(bounds, window_bounds_);
    // In host memory the keys the step wrote for the next sort follow the kept boids.
    const bool keys = Executor::kHostMemory && hashed() && index_.keys_ready && same_window;
    set_count(part_.split(exec_, part_arrays(keys), bounds, edge));
    index_.count = count32();
    index_.keys_ready = keys;
    if (hashed() && !same_window) cut_window(bounds);
  }

  void extend_part(IndexedBoids arrived, IndexedBoids ghosts) override {
    check_part();
    const index_t kept = count32();
    const bool grew = reserve_part(kept + arrived.size() + ghosts.size(), kept);
    // Kept where split kept them (in host memory); else the next step keys every boid.
    const bool keys = Executor::kHostMemory && index_.keys_ready && !grew;
    if (hashed()) cell_index();  // made again where the arrays grew: the ids as part slots
    flock_part::Unwrap unwrap;   // ghosts across the torus's edge, next to a window
    if (grid_.window && grid_.wraps) {
      const World& w = config().params.world;
      unwrap = {D - 1, (window_bounds_.low + window_bounds_.high) / 2, D == 3 ? w.depth : w.height};
    }
    set_count(part_.extend(exec_, part_arrays(keys), kept, !hashed(), arrived, ghosts,
                           config().params.world, unwrap, grid_));
    part_made(keys);
  }

  using PartAccess::own_boids;
  void own_boids(std::vector<IndexedBoid>& out, std::uint64_t first,
                 std::uint64_t count) const override {
    check_part();
    first = std::min<std::uint64_t>(first, count32());
    count = std::min<std::uint64_t>(count, count32() - first);
    part_.own_boids(exec_, boids_.data(), hashed() ? index_.ids : nullptr, noise_ids_.data(),
                    static_cast<index_t>(first), static_cast<index_t>(count), out);
  }
  std::uint64_t held() const override { return count(); }

  PartMetrics measure_part(const PartBounds& bounds) override {
    check_part();
    part_.check_whole();
    const kernels::PartSlab slab =
        flock_part::slab_of(bounds, config().params.world, config().params.radius);
    return measure_.measure(exec_, cell_index(), grid_, params_, hashed() ? index_.ids : nullptr,
                            noise_ids_.data(), part_.own_flags(), slab);
  }
  void part_turning(const double (&centre)[3], double (&out)[3]) override {
    check_part();
    measure_.turning(exec_, cell_index(), grid_, params_, centre, out);
  }

  std::string device() const override { return exec_.device(); }

  std::uint64_t bytes_allocated() const override {
    return boids_.bytes() + scratch_.bytes() + ids_.bytes() + keys_.bytes() + order_.bytes() +
           cell_start_.bytes() + render_staging_.bytes() + quantised_staging_.bytes() +
           tables_.bytes() + noise_ids_.bytes() + measure_.bytes() + part_.bytes() +
           predators_.bytes() + open_.bytes() + exec_.scratch_bytes();
  }

  void apply_predator(const PredatorPush& push) override {
    if constexpr (D == 2) {
      const kernels::Predator<Real> predator{static_cast<Real>(push.x), static_cast<Real>(push.y),
                                             static_cast<Real>(push.radius * push.radius),
                                             static_cast<Real>(push.strength)};
      exec_.for_each(count32(), kernels::FleePredator<Real>{boids_.data(), predator, params_});
    } else {
      throw InputError("the pointer is a predator in 2D flocks only");
    }
  }

  void copy_render_data(float* out) override {
    if constexpr (Executor::kHostMemory) {
      exec_.for_each(count32(), kernels::ToRenderData<Real, D>{boids_.data(), out});
    } else {
      if (render_staging_.size() == 0) render_staging_ = Buffer<float>(2 * D * count());
      exec_.for_each(count32(),
                     kernels::ToRenderData<Real, D>{boids_.data(), render_staging_.data()});
      exec_.download(out, render_staging_.data(), render_staging_.size());
    }
  }

  bool copy_render_data_to_device(void* device_out, void* cuda_stream) override {
    if constexpr (Executor::kHostMemory) {
      return false;
    } else {
      exec_.for_each_on(
          cuda_stream, count32(),
          kernels::ToRenderData<Real, D>{boids_.data(), static_cast<float*>(device_out)});
      return true;
    }
  }

 private:
  bool hashed() const { return config().method == Method::kHashed; }

  // The part's grid, cut from the whole flock's around `b` (flock_part::window_of): a rank's
  // cell starts shrink as ranks are added.
  void cut_window(const PartBounds& b) {
    window_bounds_ = b;
    const World& w = config().params.world;
    grid_ = flock_part::window_of(grid_for(config().params, config().whole_count),
                                  D == 3 ? w.depth : w.height, b);
    if (cell_start_.size() < std::size_t{grid_.cells()} + 1) {
      cell_start_ = Buffer<index_t>(std::size_t{grid_.cells()} + 1);
      index_.cell_start = cell_start_.data();
    }
    index_.keys_ready = false;  // keyed on the old grid
  }

  void check_part() const {
    if (!part_.holds(count()))
      throw std::logic_error("a part's calls need a flock started as a part (start_part)");
  }
  typename flock_part::Passes<Real, D, Executor>::Arrays part_arrays(bool keys) {
    return {boids_,
            scratch_,
            noise_ids_,
            hashed() ? index_.ids : nullptr,
            count32(),
            keys ? index_.keys : nullptr,
            keys ? index_.order : nullptr};
  }

  // What follows a part's new length: its staging, its noise's indices and its cell index
  // (`keys`: the next sort's keys are written).
  void part_made(bool keys) {
    if (render_staging_.size() != 2 * D * count()) render_staging_ = Buffer<float>();
    params_.noise_ids = noise_ids_.data();
    if (keys_.size() > 0 || hashed()) {
      cell_index();
      index_.count = count32();
      if (hashed() && !Executor::kHostMemory)
        exec_.for_each(count32(), kernels::Identity{index_.ids});  // part slots
      index_.keys_ready = keys;
    }
  }

  // Room for a part of n boids, the first `kept` of which stay where split left them (copied
  // where the part lives). The arrays grow by a quarter more, so that a rank's share may grow
  // a while; the cell index is made again, as large. Returns whether they grew.
  bool reserve_part(std::size_t n, index_t kept) {
    if (n <= boids_.size() && n <= noise_ids_.size()) return false;
    const std::size_t room = n + n / 4 + 64;
    Buffer<Boid> boids(room);
    Buffer<index_t> whole(room);
    exec_.for_each(kept, kernels::CopyEach<Boid>{boids_.data(), boids.data()});
    exec_.for_each(kept, kernels::CopyEach<index_t>{noise_ids_.data(), whole.data()});
    exec_.synchronize();  // before the old arrays go
    boids_ = std::move(boids);
    noise_ids_ = std::move(whole);
    scratch_ = Buffer<Boid>(room);
    keys_ = Buffer<index_t>();
    order_ = Buffer<index_t>();
    ids_ = Buffer<index_t>();
    return true;
  }

  index_t count32() const { return static_cast<index_t>(count()); }

  // A hashed flock in open space plans a table of tiles before each step's sort.
  void attach_open_table() { open_.attach(exec_, grid_, hashed()); }

  void upload_state(const FlockState& initial) {
    upload_flock(exec_, initial, config().params.world, boids_.data(), count());
  }

  void enqueue_steps(std::uint64_t steps) {
    part_.check_whole();  // a part is stepped whole: extended after its split
    if (count() == 0) {   // a part may hold no boids for a while
      steps_taken_ += steps;
      return;
    }
    const bool open = config().params.world.open();
    const double radius = config().params.radius;
    with_model(config().params.model, [&](auto model) {
      using M = decltype(model);
      bool watched = false;  // whether the last step watched open space's reach
      for (std::uint64_t s = 0; s < steps; ++s) {
        if (open) {
          open_.check_reach(exec_, boids_.data(), count32(), radius, watched,
                            [this] { return state(); });
        }
        watched = false;
        params_.step = steps_taken_++;  // keys the noise of this step
        const bool hunted = predators_.size() > 0;
        if (hunted && !hashed()) {  // from the boids before the step
          predators_.template pursue_naive<M>(exec_, boids_.data(), count32(), params_);
        }
        if (params_.nearest > 0) {
          step_nearest<M>();
        } else if (hashed() && open) {
          open_.template hashed_step<M>(exec_, index_, grid_, params_, radius);
          watched = true;
        } else if (hashed()) {
          kernels::hashed_step<M>(exec_, index_, grid_, params_);
        } else {
          exec_.template naive_step<M>(boids_.data(), scratch_.data(), count32(), params_);
          std::swap(boids_, scratch_);
        }
        if (hunted) {  // the hashed step leaves the index of the boids before it
          if (hashed()) predators_.template pursue_hashed<M>(exec_, index_, grid_, params_);
          predators_.advance(params_);
        }
      }
    });
  }

  // One step of topological neighbours (kernels/nearest_step.h), by either method.
  template <typename M>
  void step_nearest() {
    static_assert(kernels::kMostNearest == kMaxNearest, "--nearest's limit is the kernels'");
    if (hashed()) {
      kernels::nearest_hashed_step<M>(exec_, index_, grid_, params_);
    } else {
      kernels::nearest_naive_step<M>(exec_, boids_.data(), scratch_.data(), count32(), params_);
      std::swap(boids_, scratch_);
    }
  }

  // The cell index, allocated on first use: at the start on the hashed method (with the ids),
  // at the first metrics on the naive one. Its state arrays follow the naive step's swaps.
  kernels::CellIndex<Real, D>& cell_index() {
    if (keys_.size() == 0) {
      const std::size_t n = boids_.size();  // count(), or the room reserve_part made
      keys_ = Buffer<index_t>(n);
      order_ = Buffer<index_t>(n);
      cell_start_ = Buffer<index_t>(std::size_t{grid_.cells()} + 1);
      index_.keys = keys_.data();
      index_.order = order_.data();
      index_.cell_start = cell_start_.data();
      index_.count = count32();
      if (hashed()) {
        ids_ = Buffer<index_t>(n);
        index_.ids = ids_.data();
        exec_.for_each(count32(), kernels::Identity{index_.ids});  // the start is in input order
        exec_.synchronize();
      }
    }
    index_.boids = boids_.data();
    index_.sorted = scratch_.data();
    return index_;
  }

  Executor exec_;
  kernels::StepParams<Real> params_;
  kernels::CellGrid<Real, D> grid_;
  Buffer<Boid> boids_, scratch_;                     // the state and the step's second buffer
  mutable Buffer<std::uint8_t> quantised_staging_;   // a GPU's quantised flock (quantised_into)
  Buffer<index_t> ids_, keys_, order_, cell_start_;  // the cell index; `index_` rotates them
  Buffer<float> render_staging_;                     // the viewer's host copies from device memory
  WorldTables<Real, Executor> tables_;               // the obstacles and the path
  OpenSpace<Real, D, Executor> open_;                // open space's tiles and reach (hashed)
  PredatorGroup<Real, D, Executor> predators_;       // --predators
  Buffer<index_t> noise_ids_;  // a part's indices in the whole flock, in the executor's memory
  flock_part::Passes<Real, D, Executor> part_;  // a part's split and extend (flock_part.h)
  flock_part::PartMeasure<Real, D, Executor> measure_;
  PartBounds window_bounds_;  // the bounds the part's grid was cut for (reach 0: none yet)
  kernels::CellIndex<Real, D> index_{};
  std::uint64_t steps_taken_ = 0;
};

}  // namespace boids
