// The reference: the published step, transcribed operation for operation in double
// precision, and every model and variant beside it (host/reference/), written to the same
// specification as the kernels. It is the oracle that every backend is validated against, and
// it shares no rule code with the kernels, so that a mistake cannot hide in both.
#pragma once

#include <cstdint>
#include <vector>

#include "host/model/flock.h"

namespace boids {

class ReferenceStepper {
 public:
  /// `seed` keys the noise: the draw of boid i at step t depends on (seed, t, i) alone.
  explicit ReferenceStepper(std::uint64_t seed = 42);

  /// One step of every boid: from the same snapshot, or in the steering lab's own order when
  /// params.update says so. With every variant off it is the published step itself, bit for bit.
  void step(FlockState& state, const FlockParams& params);

  std::uint64_t steps_taken() const { return steps_; }

  /// Continues a flight at step `steps` (a checkpoint's): the noise of the next step is keyed
  /// by it.
  void resume_at(std::uint64_t steps) { steps_ = steps; }

 private:
  void boids_step(FlockState& state, const FlockParams& params);
  void seed_step(FlockState& state, const FlockParams& params);

  std::uint64_t noise_key_;
  std::uint64_t steps_ = 0;
  std::vector<int> count_;
  std::vector<double> ax_, ay_, cx_, cy_, sx_, sy_;  ///< the published step's scratch arrays
};

/// The pointer as a predator, as in the steering model's lab listing, written apart from the
/// kernels' version: each boid closer than `radius` to (px, py) (across the torus's edges), and not
/// on it, is pushed away by strength * v_max * (1 - d^2 / radius^2) / d times its offset d, then
/// slowed to v_max.
void reference_predator(FlockState& state, const FlockParams& params, double px, double py,
                        double radius, double strength);

}  // namespace boids
