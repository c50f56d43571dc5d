// The cpu backend: the kernels' own code (kernels/) on OpenMP threads. Naive vectorises across
// boids; hashed runs the same sorted-cell pipeline as the GPU, with a counting sort.
#include <memory>
#include <vector>

#include "host/backends/cpu_executor.h"
#include "host/backends/flock_layout.h"
#include "host/simulation.h"
#include "kernels/flock_metrics.h"
#include "kernels/hashed_step.h"
#include "kernels/naive_step.h"
#include "kernels/predator.h"

namespace boids {
namespace {

using kernels::Boid;
using kernels::index_t;

// Boids per vectorised block of the naive step: a few vector registers' worth.
template <typename Real>
constexpr int kNaiveLanes = sizeof(Real) == 4 ? 16 : 8;

template <typename Real>
class CpuSimulation final : public Simulation {
 public:
  CpuSimulation(const SimulationConfig& config, const FlockState& initial)
      : Simulation(config, initial.size()),
        params_(make_params(config.params)),
        grid_(kernels::make_cell_grid<Real>(config.params.radius, config.params.world,
                                            static_cast<index_t>(initial.size()))),
        boids_(pack_boids<Real>(initial)),
        scratch_(initial.size()) {
    if (config.method == Method::kHashed) allocate_index();
  }

  void step(std::uint64_t steps) override {
    for (std::uint64_t s = 0; s < steps; ++s) {
      if (config().method == Method::kNaive) {
        step_naive();
      } else {
        kernels::hashed_step(executor_, index_, grid_, params_);
      }
    }
  }

  FlockState state() const override {
    const bool hashed = config().method == Method::kHashed;
    return unpack_boids(boids_.data(), hashed ? index_.ids : nullptr, boids_.size());
  }

  void set_params(const FlockParams& params) override {
    change_params(params);
    params_ = make_params(params);
    grid_ = kernels::make_cell_grid<Real>(params.radius, params.world,
                                          static_cast<index_t>(boids_.size()));
    if (index_.count != 0) {
      cell_start_.resize(std::size_t{grid_.cells()} + 1);
      index_.cell_start = cell_start_.data();
      index_.keys_ready = false;  // keyed on the old grid
    }
  }

  void apply_predator(double x, double y, double radius, double strength) override {
    const kernels::Predator<Real> predator{static_cast<Real>(x), static_cast<Real>(y),
                                           static_cast<Real>(radius * radius),
                                           static_cast<Real>(strength)};
    executor_.for_each(static_cast<index_t>(boids_.size()),
                       kernels::FleePredator<Real>{boids_.data(), predator, params_});
  }

  void copy_render_data(float* out) const override {
    const auto n = static_cast<std::int64_t>(boids_.size());
#pragma omp parallel for schedule(static)
    for (std::int64_t i = 0; i < n; ++i) {
      const Boid<Real>& b = boids_[static_cast<std::size_t>(i)];
      out[4 * i + 0] = static_cast<float>(b.x);
      out[4 * i + 1] = static_cast<float>(b.y);
      out[4 * i + 2] = static_cast<float>(b.vx);
      out[4 * i + 3] = static_cast<float>(b.vy);
    }
  }

  FlockMetrics metrics() const override {
    if (index_.count == 0) allocate_index();  // the naive method builds its cell index on demand
    index_.boids = const_cast<Boid<Real>*>(boids_.data());
    index_.sorted = scratch_.data();
    const std::size_t n = boids_.size();
    values_.resize(2 * n);
    parents_.resize(2 * n);
    kernels::MetricsBuffers buffers{
        {values_.data(), values_.data() + n}, parents_.data(), parents_.data() + n};
    const kernels::MetricsResult r =
        kernels::measure_flock(executor_, index_, buffers, grid_, params_);
    return {r.polarization, static_cast<std::uint64_t>(r.flocks), r.largest_flock,
            r.mean_nn_distance};
  }

  std::string device() const override {
    return "CPU, " + std::to_string(CpuExecutor::threads()) + " OpenMP threads";
  }

  std::uint64_t bytes_allocated() const override {
    return (boids_.size() + scratch_.size()) * sizeof(Boid<Real>) +
           (ids_.size() + keys_.size() + order_.size() + cell_start_.size() + parents_.size()) *
               sizeof(index_t) +
           values_.size() * sizeof(double);
  }

 private:
  static kernels::StepParams<Real> make_params(const FlockParams& p) {
    return kernels::make_step_params<Real>(p.radius, p.separation, p.alignment, p.cohesion,
                                           p.max_speed, p.world);
  }

  void step_naive() {
    const kernels::NaiveStepBlock<Real, kNaiveLanes<Real>> block{
        boids_.data(), scratch_.data(), static_cast<index_t>(boids_.size()), params_};
    const auto blocks = static_cast<std::int64_t>(block.blocks_for(block.count));
#pragma omp parallel for schedule(dynamic, 1)
    for (std::int64_t b = 0; b < blocks; ++b) block(static_cast<index_t>(b));
    boids_.swap(scratch_);
  }

  // The sorted-cell index: the hashed step's buffers, and the metrics' on either method.
  void allocate_index() const {
    const std::size_t n = boids_.size();
    ids_.resize(n);
    for (std::size_t i = 0; i < n; ++i) ids_[i] = static_cast<index_t>(i);
    keys_.resize(2 * n);
    order_.resize(2 * n);
    cell_start_.resize(std::size_t{grid_.cells()} + 1);
    index_ = {const_cast<Boid<Real>*>(boids_.data()),
              scratch_.data(),
              ids_.data(),
              {keys_.data(), keys_.data() + n},
              {order_.data(), order_.data() + n},
              cell_start_.data(),
              static_cast<index_t>(n)};
  }

  kernels::StepParams<Real> params_;
  kernels::CellGrid<Real> grid_;
  std::vector<Boid<Real>> boids_;
  // Scratch, also used by metrics() (hence mutable): the step's second buffer, the index.
  mutable std::vector<Boid<Real>> scratch_;
  mutable std::vector<index_t> ids_, keys_, order_, cell_start_, parents_;
  mutable std::vector<double> values_;
  mutable kernels::HashedBuffers<Real> index_{};
  mutable CpuExecutor executor_;
};

}  // namespace

std::unique_ptr<Simulation> make_cpu_simulation(const SimulationConfig& config,
                                                const FlockState& initial) {
  if (config.precision == Precision::kFloat)
    return std::make_unique<CpuSimulation<float>>(config, initial);
  return std::make_unique<CpuSimulation<double>>(config, initial);
}

}  // namespace boids
