// Seed 002's lab: Reynolds' steering form of the rules. Each rule gives a desired velocity at
// the cruise speed v_max and steers by (desired - velocity) times its weight; the summed
// steering is truncated to a maximum force of 2.4 v_max; velocity += steering * dt, then the
// speed is kept in [0.35 v_max, v_max]; position += velocity * dt.
//
// The listing's formulas are kept as they are, quirks included, since they shape its gas,
// swarm and vortex regimes: neighbours are within r inclusive; separation sums -d / |d|^2 over
// neighbours closer than the separation radius (0.45 r) but not closer than 1e-3; the
// alignment's desired velocity is the summed velocity scaled to v_max and then divided by the
// neighbour count; cohesion steers to (x + mean offset) - x; separation steers 1.5 times its
// weight and brakes (desired velocity 0) when neighbours exist but none is close; a rule whose
// vector is zero divides by 1 instead of its length; positions wrap as (x + v dt + W) mod W.
// Lengths are sqrt(x^2 + y^2), as everywhere in the engine (the listing's Math.hypot may differ
// in the last bit).
#pragma once

#include "kernels/rules.h"

namespace boids::kernels {

template <typename Real>
BOIDS_HD inline Real length_or_one(Real x, Real y) {
  const Real length = square_root(x * x + y * y);
  return length > Real(0) ? length : Real(1);
}

struct Steering : GathersNeighbors {
  template <typename Real, int Lanes>
  BOIDS_HD static void add(Sums<Real, Lanes>& sums, int lane, Real dx, Real dy, Real d2,
                           const Boid<Real>& other, const StepParams<Real>& p, bool seen) {
    const bool near = seen & (d2 <= p.radius_sq);
    const bool pushes = near & (d2 < p.separation_sq) & (d2 > Real(kSteeringTiny));
    sums.template add<false>(lane, dx, dy, d2, other.vx, other.vy, near, pushes);
  }

  // The new velocity, with selects rather than branches so that a block's lanes vectorise.
  // Returns whether a length was too large for the seed's arithmetic (see length_of).
  template <typename E, bool Large, typename Real, int Lanes>
  BOIDS_HD BOIDS_INLINE static bool steer(Real x, Real y, Real& vx, Real& vy,
                                          const Sums<Real, Lanes>& sums,
                                          const LaneTerms<Real, Lanes>& terms, int lane,
                                          const StepParams<Real>& p) {
    Real ax = 0, ay = 0;
    steer_by_rules(x, y, vx, vy, sums, lane, p, ax, ay);
    if constexpr (E::kWorldTerms) {
      // Walls and obstacles push with up to the maximum force; the goal steers at the cruise
      // speed. Without a goal its weight is 0, which adds a zero: ax is never -0, as it
      // starts at +0, so the sum keeps its bits.
      ax += p.max_force * terms.avoid_x[lane];
      ay += p.max_force * terms.avoid_y[lane];
      ax += p.goal_weight * (p.max_speed * terms.goal_x[lane] - vx);
      ay += p.goal_weight * (p.max_speed * terms.goal_y[lane] - vy);
    }
    // Lengths whose square would overflow are taken at a smaller scale (see
    // scale_for_length): the force is compared with its limit at the same scale, and such a
    // velocity is fast whatever its scaled speed.
    Real fx = ax, fy = ay, force_scale, scale;
    bool large = false;
    const Real magnitude = length_of<Large>(fx, fy, force_scale, large);
    const bool truncated = magnitude > p.max_force * force_scale;
    ax = truncated ? fx / magnitude * p.max_force : ax;
    ay = truncated ? fy / magnitude * p.max_force : ay;
    vx = vx + ax * p.dt;
    vy = vy + ay * p.dt;
    if constexpr (E::kWind) {
      vx += p.wind_x * p.dt;
      vy += p.wind_y * p.dt;
    }
    Real ux = vx, uy = vy;
    const Real speed = length_of<Large>(ux, uy, scale, large);
    const bool fast = (scale < Real(1)) | (speed > p.max_speed);
    const bool slow = !fast & (speed < p.min_speed) & (speed > Real(kSteeringTiny));
    const Real boost = p.min_speed / speed;
    vx = fast ? ux / speed * p.max_speed : (slow ? vx * boost : vx);
    vy = fast ? uy / speed * p.max_speed : (slow ? vy * boost : vy);
    if constexpr (E::kNoise) rotate(vx, vy, terms.turn_cos[lane], terms.turn_sin[lane]);
    return large;
  }

  template <typename E, typename Real>
  BOIDS_HD BOIDS_INLINE static void displacement(Real vx, Real vy, const StepParams<Real>& p,
                                                 Real& dx, Real& dy) {
    dx = vx * p.dt;
    dy = vy * p.dt;
  }

  // The lab's wrap, (x + d + W) mod W; the seed's then catches a step longer than the world.
  template <typename Real>
  BOIDS_HD BOIDS_INLINE static Real onto_torus(Real x, Real d, Real side) {
    return wrap_position(remainder_of(x + d + side, side), side);
  }

 private:
  // The three rules' steering; none for a boid without neighbours.
  template <typename Real, int Lanes>
  BOIDS_HD BOIDS_INLINE static void steer_by_rules(Real x, Real y, Real vx, Real vy,
                                                   const Sums<Real, Lanes>& sums, int lane,
                                                   const StepParams<Real>& p, Real& ax, Real& ay) {
    const bool seen_any = sums.count[lane] > 0;
    Real rx = 0, ry = 0;
    const Real inv_n = Real(1) / static_cast<Real>(seen_any ? sums.count[lane] : 1);
    if (p.alignment_gain > Real(0)) {
      const Real sx = sums.velocity_x[lane], sy = sums.velocity_y[lane];
      const Real scale = p.max_speed / length_or_one(sx, sy);
      rx += p.alignment_gain * (sx * scale * inv_n - vx);
      ry += p.alignment_gain * (sy * scale * inv_n - vy);
    }
    if (p.cohesion_gain > Real(0)) {
      const Real cx = x + sums.offset_x[lane] * inv_n;
      const Real cy = y + sums.offset_y[lane] * inv_n;
      const Real to_x = cx - x, to_y = cy - y;
      const Real scale = p.max_speed / length_or_one(to_x, to_y);
      rx += p.cohesion_gain * (to_x * scale - vx);
      ry += p.cohesion_gain * (to_y * scale - vy);
    }
    if (p.separation_gain > Real(0)) {
      const Real sx = sums.push_x[lane], sy = sums.push_y[lane];
      const Real scale = p.max_speed / length_or_one(sx, sy);
      rx += p.separation_gain * (sx * scale - vx) * Real(kSteeringSeparationFactor);
      ry += p.separation_gain * (sy * scale - vy) * Real(kSteeringSeparationFactor);
    }
    ax = seen_any ? rx : ax;
    ay = seen_any ? ry : ay;
  }
};

}  // namespace boids::kernels
