// The reference: the seed's published step, transcribed operation for operation in double
// precision. It is the oracle that every backend is validated against, and it shares no
// rule code with the kernels, so that a mistake cannot hide in both.
#pragma once

#include <vector>

#include "host/flock.h"

namespace boids {

class ReferenceStepper {
 public:
  // One synchronous step of every boid from the same snapshot.
  void step(FlockState& state, const FlockParams& params);

 private:
  std::vector<int> count_;
  std::vector<double> ax_, ay_, cx_, cy_, sx_, sy_;  // the seed's scratch arrays
};

// The pointer as a predator (seed 002's lab), written apart from the kernels' version: each
// boid closer than `radius` to (px, py) on the torus, and not on it, is pushed away by
// strength * v_max * (1 - d^2 / radius^2) / d times its offset d, then slowed to v_max.
void reference_predator(FlockState& state, const FlockParams& params, double px, double py,
                        double radius, double strength);

}  // namespace boids
