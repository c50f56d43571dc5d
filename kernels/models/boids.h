// The boids model, the normative one: its three rules in the framework of kernels/rules.h.
#pragma once

#include "kernels/rules.h"

namespace boids::kernels {

// Separation pushes from neighbours whose d2 exceeds this: 0 in double, as the published step has
// it (d / d2 is at most about 1e162 there); in float, which takes 1 / d2, the largest subnormal,
// so that 1 / d2 stays finite: a pair closer than about 1e-19 is then coincident to float.
template <typename Real>
BOIDS_HD BOIDS_INLINE constexpr Real closest_push() {
  return sizeof(Real) == sizeof(double) ? Real(0) : Real(0x1.fffffcp-127);
}

// The boids model's three rules: separation from boids closer than the separation radius weighted
// by 1 / distance, alignment with the neighbours' mean velocity, cohesion towards their centre;
// the speed clamped into [v_max / 2, v_max].
struct Boids : GathersNeighbors {
  static constexpr const char* kName = "boids";
  // Its terms change the velocity by gains per v_max (kernels/world_terms.h), not forces.
  static constexpr bool kSteersByForce = false;

  // The model's constants of a step, from the flock's parameters (`f`, FlockParams): the
  // clamp's floor and the rules' gains, weight * K, each rounded once to Real.
  template <typename Real, typename Flock>
  static void set_constants(StepParams<Real>& p, const Flock& f) {
    p.min_speed = static_cast<Real>(f.effective_min_speed());
    p.separation_gain = static_cast<Real>(f.separation * kSeparationGain);
    p.alignment_gain = static_cast<Real>(f.alignment * kAlignmentGain);
    p.cohesion_gain = static_cast<Real>(f.cohesion * kCohesionGain);
  }

  // A coincident boid counts as a neighbour but exerts no separation (its direction is
  // undefined). Double divides as the published step does; float takes one division, not two
  // (within 1 ulp).
  template <typename S, typename V, typename M, typename Real, int D>
  BOIDS_HD BOIDS_INLINE static void add(S& sums, const V (&d)[D], V d2, const Boid<Real, D>& other,
                                        const StepParams<Real>& p, M seen) {
    const M near = seen & (d2 < p.radius_sq);
    const M pushes = both(near, M((d2 < p.separation_sq) & (d2 > closest_push<Real>())));
    sums.template add<sizeof(Real) == sizeof(double)>(d, d2, other.velocity, near, pushes);
  }

  // The new velocity: the three rules, the world's terms and wind (if compiled in); the speed
  // clamped into [v_max / 2, v_max]; the noise's turn. Selects, not
  // branches, so that a block's lanes vectorise: a boid without neighbours keeps its velocity
  // exactly. Returns whether a length was too large for the published step's arithmetic, to be
  // taken again under `Large` (length_of).
  template <typename E, bool Large, typename Real, int Lanes, int D>
  BOIDS_HD BOIDS_INLINE static bool steer(const Real (&)[D], Real (&v)[D],
                                          const Sums<Real, Lanes, D>& sums,
                                          const LaneTerms<Real, Lanes, D>& terms, int lane,
                                          const StepParams<Real>& p) {
    const bool seen_any = sums.count[lane] > 0;
    const Real n = static_cast<Real>(seen_any ? sums.count[lane] : 1);
    for (int a = 0; a < D; ++a) {
      const Real steer = p.separation_gain * sums.push[a][lane] +
                         p.alignment_gain * (sums.velocity[a][lane] / n - v[a]) +
                         p.cohesion_gain * (sums.offset[a][lane] / n);
      v[a] = seen_any ? v[a] + steer : v[a];
    }
    if constexpr (E::kWorldTerms) add_velocity_terms(v, terms, lane, p);
    if constexpr (E::kWind) {
      for (int a = 0; a < D; ++a) v[a] += p.wind[a] * p.dt;
    }
    // The speed of a velocity whose square would overflow is taken at a smaller scale (an
    // infinite speed would zero it): such a boid is fast whatever the scaled speed says.
    Real u[D], scale;
    for (int a = 0; a < D; ++a) u[a] = v[a];
    bool large = false;
    const Real speed = length_of<Large>(u, scale, large);
    const bool fast = (scale < Real(1)) | (speed > p.max_speed);
    const bool slow = (speed < p.min_speed) & (speed > Real(0));
    const Real target = fast ? p.max_speed : p.min_speed;
    for (int a = 0; a < D; ++a) v[a] = fast | slow ? u[a] / speed * target : v[a];
    if constexpr (E::kNoise) apply_turn(v, terms, lane);
    return large;
  }

  // A step moves a boid by its new velocity.
  template <typename E, typename Real, int D>
  BOIDS_HD BOIDS_INLINE static void displacement(const Real (&v)[D], const StepParams<Real>&,
                                                 Real (&d)[D]) {
    for (int a = 0; a < D; ++a) d[a] = v[a];
  }

  // Where a coordinate moved by d lands on a torus of the given side.
  template <typename Real>
  BOIDS_HD BOIDS_INLINE static Real onto_torus(Real x, Real d, Real side) {
    return wrap_position(x + d, side);
  }
};

}  // namespace boids::kernels
