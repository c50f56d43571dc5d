// A running flock on one backend. Every backend takes the same initial FlockState, steps it
// with the same rules and reports state and metrics in input order. What some callers need
// beyond it has its own interface: a viewer's (host/core/viewer_access.h), a part's of a larger
// flock (host/parts/part_access.h).
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "host/core/config.h"
#include "host/core/device_state.h"
#include "host/core/quantised_view.h"
#include "host/core/state_view.h"
#include "host/metrics/metrics.h"
#include "host/model/flock.h"

namespace boids {

/// The seconds spent in one stage of the steps (Simulation::timed_step).
struct StageSeconds {
  std::string stage;
  double seconds = 0;
};

class Simulation {
 public:
  virtual ~Simulation() = default;

  /// Advances the flock; returns once the steps are done (a GPU backend synchronises).
  virtual void step(std::uint64_t steps) = 0;

  /// The current state, in input order and double precision, with the predators.
  FlockState state() const;

  /// The predators (--predators), in double precision; none without them.
  virtual Particles predators() const { return {}; }

  /// The same into the caller's memory: boid i's values at x[i * stride], y[i * stride], ...
  /// (stride 1 for separate arrays, 4 for rows x, y, vx, vy). One pass over the flock, for
  /// callers that keep their own arrays (the Python module's NumPy state).
  virtual void state_into(const StateView& out) const = 0;

  /// The flock quantised for a screen (host/core/quantised_view.h), in input order, made where
  /// it lives: on a GPU, only the quantised bytes are copied to the host. The predators are
  /// predators()'s.
  virtual void quantised_into(const QuantisedView& out) const;

  /// Where the flock lives on a GPU, for callers that read it there without a copy (CuPy and
  /// PyTorch through the Python module). Empty (`boids` null) for a flock in host memory.
  virtual DeviceState device_state() { return {}; }

  /// The boids model's metrics, computed where the flock lives (with the flock's own scratch).
  virtual FlockMetrics metrics() = 0;

  /// Where it runs, for people: "CPU reference", "CPU, 2 OpenMP threads", a GPU's name.
  virtual std::string device() const = 0;

  /// Memory the backend holds for the flock, in bytes (on the GPU for the cuda backend).
  virtual std::uint64_t bytes_allocated() const = 0;

  /// Steps and returns the seconds the steps took on the device (CUDA events around the
  /// steps' work on a GPU, a steady clock on CPUs), not counting the wait for them. For
  /// benchmarks.
  virtual double timed_step(std::uint64_t steps);
  /// The same, and the seconds each stage of the steps took (kernels/stages.h: hash, sort,
  /// cell starts, reorder, step, other), each launch waited for; empty where a backend does not
  /// time its stages (the reference). For boids-bench's time per stage.
  virtual double timed_step(std::uint64_t steps, std::vector<StageSeconds>& stages);

  /// Changes the weights, radius and maximum speed in place; the world's side must stay.
  virtual void set_params(const FlockParams& params) = 0;

  /// Steps taken since the flight began (a resumed flight counts the checkpoint's too); the
  /// noise of a step is keyed by it.
  virtual std::uint64_t steps_taken() const = 0;

  /// The order the backend keeps its boids in: slot k holds boid order[k] (its input index).
  /// The hashed method keeps them in cell order between steps, and its sums add in that
  /// order, so a checkpoint records it.
  virtual std::vector<std::uint64_t> backend_order() const = 0;

  /// Continues a checkpoint's flight: `state` in input order, the backend's `order` and the
  /// steps taken. The steps that follow are those the checkpointed run would have taken.
  virtual void resume(const FlockState& state, const std::vector<std::uint64_t>& order,
                      std::uint64_t steps_taken) = 0;

  const SimulationConfig& config() const { return config_; }
  std::uint64_t count() const { return count_; }

 protected:
  Simulation(const SimulationConfig& config, std::uint64_t count)
      : config_(config), count_(count) {}

  /// For a part: the flock now holds `count` boids.
  void set_count(std::uint64_t count) { count_ = count; }

  /// Records new parameters after checking that the world is unchanged; for set_params.
  void change_params(const FlockParams& params);

  /// For resume: throws InputError unless `state` holds count() boids and `order` is a
  /// permutation of them (the identity, for a backend that keeps input order).
  void check_resumable(const FlockState& state, const std::vector<std::uint64_t>& order,
                       bool keeps_input_order) const;

 private:
  SimulationConfig config_;
  std::uint64_t count_;
};

/// 0, 1, ..., count - 1: the order of a backend that keeps input order.
std::vector<std::uint64_t> input_order(std::uint64_t count);

/// Whether `order` holds each of 0, ..., order.size() - 1 once.
bool is_permutation(const std::vector<std::uint64_t>& order);

/// Creates a simulation of `initial` on the configured backend. Throws InputError for a
/// combination the backend does not offer (the reference is naive double only) and
/// RuntimeError when the backend cannot run here (no CUDA device, not enough memory).
std::unique_ptr<Simulation> make_simulation(const SimulationConfig& config,
                                            const FlockState& initial);

/// Throws InputError unless `initial` and `config` agree on the flock's dimensions (2 or 3),
/// and its backend flies them.
void check_dimensions(const SimulationConfig& config, const FlockState& initial);

/// Throws RuntimeError, before anything is allocated, when a flock of `count` boids under
/// `config` does not fit in this machine's memory (and the GPU's, for the cuda backend).
void check_memory(const SimulationConfig& config, std::uint64_t count);

}  // namespace boids
