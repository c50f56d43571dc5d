#include "host/mpi/slabs.h"

#include <algorithm>
#include <cmath>

namespace boids::mpi {

int Slabs::owner(double s) const {
  const auto above = std::upper_bound(bounds.begin() + 1, bounds.end() - 1, s);
  return static_cast<int>(above - bounds.begin()) - 1;
}

void Slabs::ranks_within(double s, double reach, int rank, std::vector<int>& out) const {
  // The distance from s to slab k along the axis: 0 inside it, else to its nearer edge (the
  // shorter way round on the torus).
  const auto distance = [&](int k) {
    const double below = bounds[k] - s, above = s - bounds[k + 1];
    double d = std::max({below, above, 0.0});
    if (torus)
      d = std::min(
          {d, std::max(0.0, bounds[k] - (s - side)), std::max(0.0, (s + side) - bounds[k + 1])});
    return d;
  };
  for (int k = 0; k < ranks(); ++k) {
    if (k != rank && distance(k) <= reach) out.push_back(k);
  }
}

Slabs equal_slabs(double side, bool torus, int ranks) {
  Slabs slabs;
  slabs.side = side;
  slabs.torus = torus;
  for (int k = 0; k <= ranks; ++k) slabs.bounds.push_back(side * k / ranks);
  slabs.bounds.back() = side;
  return slabs;
}

}  // namespace boids::mpi
