// The three steering rules, written once for every backend, pipeline and precision.
//
// A boid gathers its neighbours one at a time (accumulate_neighbor), then moves
// (advance_boid). Gathering in ascending index order adds the same terms in the same order
// as the seed's pair loop, which scatters each pair to both boids: -(x_i - x_j) is exactly
// x_j - x_i in IEEE arithmetic, and wrapping is symmetric, so the sums agree bit for bit.
#pragma once

#include "kernels/host_device.h"
#include "kernels/step_params.h"

namespace boids::kernels {

// One boid, packed so that a candidate is a single 16-byte (float) or 32-byte (double) load.
template <typename Real>
struct alignas(4 * sizeof(Real)) Boid {
  Real x, y, vx, vy;
};

// Shortest offset along one axis of the torus, as the seed wraps it. Written as a subtraction
// of 0 or +-L (exact in IEEE arithmetic) so that CPU compilers can vectorise it across boids.
template <typename Real>
BOIDS_HD inline Real wrap_delta(Real d, const StepParams<Real>& p) {
  const Real shift =
      (d > p.half_world ? p.world : Real(0)) - (d < -p.half_world ? p.world : Real(0));
  return d - shift;
}

// Brings a coordinate that left [0, L) by less than L back into the world.
template <typename Real>
BOIDS_HD inline Real wrap_position(Real x, const StepParams<Real>& p) {
  if (x < Real(0)) return x + p.world;
  if (x >= p.world) return x - p.world;
  return x;
}

// What a group of `Lanes` boids has seen of their neighbours so far, one array entry per boid.
// Scalar code uses one lane; the naive CPU step uses several and vectorises across them.
template <typename Real, int Lanes = 1>
struct NeighborSums {
  int count[Lanes];
  Real velocity_x[Lanes], velocity_y[Lanes];  // sum of neighbour velocities (alignment)
  Real offset_x[Lanes], offset_y[Lanes];      // sum of offsets to neighbours (cohesion)
  Real push_x[Lanes], push_y[Lanes];          // sum of -d / |d|^2, close neighbours (separation)

  BOIDS_HD void clear(int lane) {
    count[lane] = 0;
    velocity_x[lane] = velocity_y[lane] = Real(0);
    offset_x[lane] = offset_y[lane] = Real(0);
    push_x[lane] = push_y[lane] = Real(0);
  }
};

// Starts a block of lanes: the positions of boids [first, first + Lanes), with the boid at
// `last` repeated in lanes past it (their results are never stored), and empty sums.
template <typename Real, int Lanes>
BOIDS_HD inline void start_lanes(const Boid<Real>* boids, index_t first, index_t last, Real* x,
                                 Real* y, NeighborSums<Real, Lanes>& sums) {
  for (int lane = 0; lane < Lanes; ++lane) {
    const Boid<Real>& self = boids[min_of<index_t>(first + lane, last)];
    x[lane] = self.x;
    y[lane] = self.y;
    sums.clear(lane);
  }
}

// Adds `other` to the sums of the boid at (x, y) if it is within the perception radius.
// The caller excludes the boid itself; a coincident other boid counts as a neighbour but
// exerts no separation (its direction is undefined).
//
// The updates are selects rather than branches so that the lane loop of the naive CPU step
// vectorises. They are exact: a sum that starts at +0 never becomes -0, so adding a selected
// +0 leaves it unchanged, bit for bit, just as skipping the addition would.
//
// `counted` = false makes the call a no-op without a branch: vectorised loops use it to mask
// lanes past the end of a range or holding the boid itself.
//
// `Wraps` = false skips the torus wrap, for callers that know every offset is already within
// half the world (then wrapping would return it unchanged).
template <bool Wraps = true, typename Real, int Lanes>
BOIDS_HD inline void accumulate_neighbor(NeighborSums<Real, Lanes>& sums, int lane, Real x, Real y,
                                         const Boid<Real>& other, const StepParams<Real>& p,
                                         bool counted = true) {
  const Real dx = Wraps ? wrap_delta(other.x - x, p) : other.x - x;
  const Real dy = Wraps ? wrap_delta(other.y - y, p) : other.y - y;
  const Real d2 = dx * dx + dy * dy;
  const bool near = counted & (d2 < p.radius_sq);
  const bool pushes = near & (d2 < p.separation_sq) & (d2 > Real(0));
  sums.count[lane] += near ? 1 : 0;
  sums.velocity_x[lane] += near ? other.vx : Real(0);
  sums.velocity_y[lane] += near ? other.vy : Real(0);
  sums.offset_x[lane] += near ? dx : Real(0);
  sums.offset_y[lane] += near ? dy : Real(0);
  if constexpr (sizeof(Real) == sizeof(double)) {
    sums.push_x[lane] -= pushes ? dx / d2 : Real(0);  // exactly as the seed divides
    sums.push_y[lane] -= pushes ? dy / d2 : Real(0);
  } else {
    const Real inverse = Real(1) / d2;  // float: one division, not two (within 1 ulp)
    sums.push_x[lane] -= pushes ? dx * inverse : Real(0);
    sums.push_y[lane] -= pushes ? dy * inverse : Real(0);
  }
}

// Steers by the three rules, clamps the speed into [v_max / 2, v_max] and moves on the torus.
template <typename Real, int Lanes>
BOIDS_HD inline Boid<Real> advance_boid(Boid<Real> b, const NeighborSums<Real, Lanes>& sums,
                                        int lane, const StepParams<Real>& p) {
  if (sums.count[lane] > 0) {
    const Real n = static_cast<Real>(sums.count[lane]);
    b.vx += p.separation_gain * sums.push_x[lane] +
            p.alignment_gain * (sums.velocity_x[lane] / n - b.vx) +
            p.cohesion_gain * (sums.offset_x[lane] / n);
    b.vy += p.separation_gain * sums.push_y[lane] +
            p.alignment_gain * (sums.velocity_y[lane] / n - b.vy) +
            p.cohesion_gain * (sums.offset_y[lane] / n);
  }
  const Real speed = square_root(b.vx * b.vx + b.vy * b.vy);
  if (speed > p.max_speed) {
    b.vx = b.vx / speed * p.max_speed;
    b.vy = b.vy / speed * p.max_speed;
  } else if (speed < p.min_speed && speed > Real(0)) {
    b.vx = b.vx / speed * p.min_speed;
    b.vy = b.vy / speed * p.min_speed;
  }
  b.x = wrap_position(b.x + b.vx, p);
  b.y = wrap_position(b.y + b.vy, p);
  return b;
}

}  // namespace boids::kernels
