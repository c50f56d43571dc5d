// Many independent flocks stepped as one: one cell index, one launch per stage and one
// metrics pass for all of them (kernels/batch_step.h). A sweep's replicas and points are
// small flocks; alone, each would leave most of a GPU idle. Every flock of a batch flies
// exactly the flight it flies alone (tests/host/core/test_batch.cpp).
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "host/core/simulation.h"
#include "host/model/flock.h"

namespace boids {

class FlockBatch {
 public:
  virtual ~FlockBatch() = default;

  std::size_t size() const { return counts_.size(); }
  std::uint64_t count(std::size_t flock) const { return counts_[flock]; }

  /// Advances every flock; returns once the steps are done.
  virtual void step(std::uint64_t steps) = 0;

  /// Each flock's metrics, as Simulation::metrics() measures it alone (to rounding in the sums
  /// on a GPU, whose segmented sums add in another order).
  virtual std::vector<FlockMetrics> metrics() = 0;

  /// Flock f's state, in its input order and double precision.
  virtual FlockState state(std::size_t flock) const = 0;

  virtual std::string device() const = 0;
  virtual std::uint64_t bytes_allocated() const = 0;

 protected:
  explicit FlockBatch(std::vector<std::uint64_t> counts) : counts_(std::move(counts)) {}

 private:
  std::vector<std::uint64_t> counts_;
};

/// Why `configs` cannot fly as one batch, or "" where they can: the hashed method on the cpu or
/// cuda backend, one model and one precision, in two dimensions, metric neighbours (a boid's
/// topological ones are searched ring by ring, a thread a boid, which the batch's blocks do
/// not do), no predators, and a torus or walls (a batch keeps no table of open space's tiles,
/// so a flock there would not fly its flight alone bit for bit).
std::string why_not_batched(const std::vector<SimulationConfig>& configs);
/// Whether `configs` can fly as one batch (why_not_batched says why not).
bool batchable(const std::vector<SimulationConfig>& configs);

/// A batch of the flocks `initial[f]` under `configs[f]`. Throws InputError for configurations
/// that cannot share a batch or a flock without boids, and RuntimeError when the backend cannot
/// run here or the batch does not fit in its memory.
std::unique_ptr<FlockBatch> make_batch(const std::vector<SimulationConfig>& configs,
                                       const std::vector<FlockState>& initial);

/// The backends' batches (host/backends/kernel_batch.h).
std::unique_ptr<FlockBatch> make_cpu_batch(const std::vector<SimulationConfig>& configs,
                                           const std::vector<FlockState>& initial);
std::unique_ptr<FlockBatch> make_cuda_batch(const std::vector<SimulationConfig>& configs,
                                            const std::vector<FlockState>& initial);

}  // namespace boids
