// Which neighbours a boid heeds: every boid it sees within the model's radius, or, under
// topological neighbours (--nearest K), the K boids nearest to it that it sees, however far.
// The reference's own selection (nearest.cpp): all distances in double, sorted by (d^2, index).
// Internal to the reference.
#pragma once

#include <cstddef>
#include <vector>

#include "host/model/flock.h"

namespace boids::reference {

class Heeding {
 public:
  // Boid i of `s` in D dimensions (nearest.cpp, for 2 and 3).
  template <int D>
  static Heeding of(const FlockParams& p, double cos_half_view, const FlockState& s, std::size_t i);

  // Whether the boid heeds boid j, which it sees; `within`: whether j lies within the model's
  // radius, which decides without --nearest.
  bool heeds(std::size_t j, bool within) const {
    return chosen_.empty() ? within : chosen_[j] != 0;
  }

 private:
  std::vector<char> chosen_;  // empty: the radius decides
};

}  // namespace boids::reference
