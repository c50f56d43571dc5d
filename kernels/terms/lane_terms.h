// The helpers the world's terms (kernels/terms/*.h) share: a lane's position, and the box that
// holds a block, which lets a term skip what lies out of its reach.
#pragma once

#include <vector>

#include "kernels/noise.h"
#include "kernels/param_values.h"
#include "kernels/world.h"

namespace boids::kernels {

// The position of a lane's boid.
template <typename Real, int Lanes, int D>
BOIDS_HD BOIDS_INLINE void lane_position(const LaneBoids<Real, Lanes, D>& self, int lane,
                                         Real (&x)[D]) {
  for (int a = 0; a < D; ++a) x[a] = self.position[a][lane];
}

// The box [low, high] that holds a block's boids.
template <typename Real, int Lanes, int D>
BOIDS_HD BOIDS_INLINE void block_bounds(const LaneBoids<Real, Lanes, D>& self, Real (&low)[D],
                                        Real (&high)[D]) {
  for (int a = 0; a < D; ++a) {
    low[a] = high[a] = self.position[a][0];
    for (int lane = 1; lane < Lanes; ++lane) {
      low[a] = min_of(low[a], self.position[a][lane]);
      high[a] = max_of(high[a], self.position[a][lane]);
    }
  }
}

// The squared distance from `point` to the box `centre` +- `half`, the shortest way on a torus
// (the offset to the centre, less the half extent, axis by axis): no point of the box is nearer.
template <typename Real, int D>
BOIDS_HD BOIDS_INLINE Real gap_sq_to_box(const Real (&centre)[D], const Real (&half)[D],
                                         const Real (&point)[D], const StepParams<Real>& p) {
  Real d[D];
  offset_between(centre, point, p, d);
  for (int a = 0; a < D; ++a) d[a] = max_of(absolute(d[a]) - half[a], Real(0));
  return length_sq(d);
}

// About a hundred rounding errors of the world's coordinates: what keeps a choice made with a
// block's box on the safe side of every test made with the boids themselves.
template <int D, typename Real>
BOIDS_HD BOIDS_INLINE Real coordinate_slack(const StepParams<Real>& p) {
  Real sides = p.side[0];
  for (int a = 1; a < D; ++a) sides += p.side[a];
  return sides * (sizeof(Real) == 4 ? Real(1e-5) : Real(1e-13));
}

}  // namespace boids::kernels
