// The steering model: Reynolds' steering form of the rules. Each rule gives a desired velocity at
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
// Lengths are sqrt(x^2 + y^2 (+ z^2)), as everywhere in the engine (the listing's Math.hypot
// may differ in the last bit).
#pragma once

#include "kernels/rules.h"

namespace boids::kernels {

template <typename Real, int D>
BOIDS_HD inline Real length_or_one(const Real (&v)[D]) {
  const Real length = square_root(length_sq(v));
  return length > Real(0) ? length : Real(1);
}

struct Steering : GathersNeighbors {
  static constexpr const char* kName = "steering";
  // Its terms are forces, up to the maximum force, integrated over dt (kernels/world_terms.h).
  static constexpr bool kSteersByForce = true;

  // The model's constants of a step, from the flock's parameters (`f`, FlockParams): the
  // clamp's floor, the maximum force, the weights themselves, the time step.
  template <typename Real, typename Flock>
  static void set_constants(StepParams<Real>& p, const Flock& f) {
    p.min_speed = static_cast<Real>(f.effective_min_speed());
    p.max_force = static_cast<Real>(f.max_speed * kMaxForceFactor);
    p.separation_gain = static_cast<Real>(f.separation);
    p.alignment_gain = static_cast<Real>(f.alignment);
    p.cohesion_gain = static_cast<Real>(f.cohesion);
    p.dt = static_cast<Real>(f.dt);
  }

  template <typename S, typename V, typename M, typename Real, int D>
  BOIDS_HD BOIDS_INLINE static void add(S& sums, const V (&d)[D], V d2, const Boid<Real, D>& other,
                                        const StepParams<Real>& p, M seen) {
    const M near = seen & (d2 <= p.radius_sq);
    const M pushes = both(near, M((d2 < p.separation_sq) & (d2 > Real(kSteeringTiny))));
    sums.template add<false>(d, d2, other.velocity, near, pushes);
  }

  // The new velocity, with selects rather than branches so that a block's lanes vectorise.
  // Returns whether a length was too large for the published step's arithmetic (see length_of).
  template <typename E, bool Large, typename Real, int Lanes, int D>
  BOIDS_HD BOIDS_INLINE static bool steer(const Real (&x)[D], Real (&v)[D],
                                          const Sums<Real, Lanes, D>& sums,
                                          const LaneTerms<Real, Lanes, D>& terms, int lane,
                                          const StepParams<Real>& p) {
    Real force[D];
    for (int a = 0; a < D; ++a) force[a] = 0;
    steer_by_rules(x, v, sums, lane, p, force);
    Real least = p.min_speed;
    if constexpr (E::kWorldTerms) add_force_terms(force, least, v, terms, lane, p);
    // Lengths whose square would overflow are taken at a smaller scale (see
    // scale_for_length): the force is compared with its limit at the same scale, and such a
    // velocity is fast whatever its scaled speed.
    Real f[D], force_scale, scale;
    for (int a = 0; a < D; ++a) f[a] = force[a];
    bool large = false;
    const Real magnitude = length_of<Large>(f, force_scale, large);
    const bool truncated = magnitude > p.max_force * force_scale;
    for (int a = 0; a < D; ++a) {
      force[a] = truncated ? f[a] / magnitude * p.max_force : force[a];
      v[a] = v[a] + force[a] * p.dt;
    }
    if constexpr (E::kWind) {
      for (int a = 0; a < D; ++a) v[a] += p.wind[a] * p.dt;
    }
    Real u[D];
    for (int a = 0; a < D; ++a) u[a] = v[a];
    const Real speed = length_of<Large>(u, scale, large);
    const bool fast = (scale < Real(1)) | (speed > p.max_speed);
    const bool slow = !fast & (speed < least) & (speed > Real(kSteeringTiny));
    const Real boost = least / speed;
    for (int a = 0; a < D; ++a)
      v[a] = fast ? u[a] / speed * p.max_speed : (slow ? v[a] * boost : v[a]);
    if constexpr (E::kNoise) apply_turn(v, terms, lane);
    return large;
  }

  template <typename E, typename Real, int D>
  BOIDS_HD BOIDS_INLINE static void displacement(const Real (&v)[D], const StepParams<Real>& p,
                                                 Real (&d)[D]) {
    for (int a = 0; a < D; ++a) d[a] = v[a] * p.dt;
  }

  // The lab's wrap, (x + d + W) mod W; the published step's then catches a step longer than the
  // world.
  template <typename Real>
  BOIDS_HD BOIDS_INLINE static Real onto_torus(Real x, Real d, Real side) {
    return wrap_position(remainder_of(x + d + side, side), side);
  }

 private:
  // The three rules' steering; none for a boid without neighbours.
  template <typename Real, int Lanes, int D>
  BOIDS_HD BOIDS_INLINE static void steer_by_rules(const Real (&x)[D], const Real (&v)[D],
                                                   const Sums<Real, Lanes, D>& sums, int lane,
                                                   const StepParams<Real>& p, Real (&force)[D]) {
    const bool seen_any = sums.count[lane] > 0;
    Real rule[D];
    for (int a = 0; a < D; ++a) rule[a] = 0;
    const Real inv_n = Real(1) / static_cast<Real>(seen_any ? sums.count[lane] : 1);
    if (p.alignment_gain > Real(0)) {
      Real sum[D];
      for (int a = 0; a < D; ++a) sum[a] = sums.velocity[a][lane];
      const Real scale = p.max_speed / length_or_one(sum);
      for (int a = 0; a < D; ++a) rule[a] += p.alignment_gain * (sum[a] * scale * inv_n - v[a]);
    }
    if (p.cohesion_gain > Real(0)) {
      Real to[D];
      for (int a = 0; a < D; ++a) to[a] = (x[a] + sums.offset[a][lane] * inv_n) - x[a];
      const Real scale = p.max_speed / length_or_one(to);
      for (int a = 0; a < D; ++a) rule[a] += p.cohesion_gain * (to[a] * scale - v[a]);
    }
    if (p.separation_gain > Real(0)) {
      Real sum[D];
      for (int a = 0; a < D; ++a) sum[a] = sums.push[a][lane];
      const Real scale = p.max_speed / length_or_one(sum);
      for (int a = 0; a < D; ++a) {
        rule[a] += p.separation_gain * (sum[a] * scale - v[a]) * Real(kSteeringSeparationFactor);
      }
    }
    for (int a = 0; a < D; ++a) force[a] = seen_any ? rule[a] : force[a];
  }
};

}  // namespace boids::kernels
