// Reynolds' evasion: each boid steers away from where the predators near it will be, and what
// that adds to its steering. The predators' own pursuit is kernels/pursuit.h.
#pragma once

#include "kernels/terms/lane_terms.h"

namespace boids::kernels {

// Evading predators, a world's term: its parameters (fields of FlockParams), its slice of the
// step's constants, made from the flock's parameters (`f`, FlockParams). The predators are the
// simulation's to upload (predator_count is set with them). A boid evades with up to kEvadeGain
// v_max where its model changes velocities, with the maximum force where it steers by forces; its
// predators are as agile.
struct EvadeTerm {
  static constexpr const char* kName = "predators";
  struct Params {
    /// Predators as agents (Reynolds' pursuit and evasion, docs/models.md): this many predators
    /// fly in the world, each steering for where the boid nearest to it will be, at most
    /// predator_speed fast (0: 1.5 v_max); boids closer than flee_radius (0: 2 r) to one steer
    /// away from where it will be. 0 is off. Their state is the FlockState's `predators`.
    int predators = 0;
    double predator_speed = 0.0;
    double flee_radius = 0.0;
  };
  // `predators` holds predator_count of them as boids of the step's dimension (Boid<Real, D>,
  // read through predators_of, kernels/pursuit.h). Boids within flee_radius of one steer away
  // from where it will be (evade_predators).
  template <typename Real>
  struct Constants {
    const void* predators;
    index_t predator_count;  // 0: none
    Real flee_radius;
    Real evade_gain;      // kEvadeGain v_max (boids), the maximum force (steering)
    Real predator_speed;  // a predator's top speed
    Real predator_force;  // the most its steering changes its velocity, per unit of time
  };
  template <typename Real, int Lanes, int D>
  struct LaneValues {
    Real evade[D][Lanes];  // away from the predators near it
  };
  template <typename Flock>
  static bool on(const Flock& f) {
    return f.predators > 0;
  }
  template <typename Model, typename Real, typename Flock>
  static void set_constants(StepParams<Real>& p, const Flock& f) {
    p.predators = nullptr;
    p.predator_count = 0;
    const double speed = f.effective_predator_speed();
    p.flee_radius = static_cast<Real>(f.effective_flee_radius());
    p.evade_gain = static_cast<Real>(Model::kSteersByForce ? f.max_speed * kMaxForceFactor
                                                           : kEvadeGain * f.max_speed);
    p.predator_speed = static_cast<Real>(speed);
    p.predator_force =
        static_cast<Real>(speed * (Model::kSteersByForce ? kMaxForceFactor : kPredatorAgility));
  }
};

// Reynolds' evasion: for each predator closer than the flee radius R (its image nearest the
// boid, at offset d), the unit direction away from where it will be when it has covered the
// distance at its top speed s, x - (q + u |d| / s), times (1 - |d| / R); summed over the
// predators in order. A predator's speed is at most s (checked where states enter), so the
// prediction stays within 2 R of the boid. A predator out of reach of the block's box adds +0
// to each lane, which changes no sum: it is skipped. Most blocks are far from every predator.
template <typename Real, int Lanes, int D>
BOIDS_HD inline void evade_predators(LaneTerms<Real, Lanes, D>& t,
                                     const LaneBoids<Real, Lanes, D>& self,
                                     const StepParams<Real>& p) {
  for (int a = 0; a < D; ++a) {
    for (int lane = 0; lane < Lanes; ++lane) t.evade[a][lane] = Real(0);
  }
  Real low[D], high[D], centre[D], half[D];
  block_bounds(self, low, high);
  for (int a = 0; a < D; ++a) {
    centre[a] = (low[a] + high[a]) / Real(2);
    half[a] = (high[a] - low[a]) / Real(2);
  }
  const Real reach = p.flee_radius * Real(1.01) + coordinate_slack<D>(p);
  const Boid<Real, D>* predators = predators_of<D>(p);
  for (index_t k = 0; k < p.predator_count; ++k) {
    const Boid<Real, D> q = predators[k];
    if (!(gap_sq_to_box(centre, half, q.position, p) < reach * reach)) continue;
#if !defined(__CUDA_ARCH__)
#pragma omp simd
#endif
    for (int lane = 0; lane < Lanes; ++lane) {
      Real x[D], d[D], away[D];
      lane_position(self, lane, x);
      offset_between(x, q.position, p, d);
      const Real distance = square_root(length_sq(d));
      const Real ahead = distance / p.predator_speed;
      for (int a = 0; a < D; ++a) away[a] = -d[a] - q.velocity[a] * ahead;
      const Real length = square_root(length_sq(away));
      const bool flees = (distance < p.flee_radius) & (length > Real(0));
      const Real urgency = Real(1) - distance / p.flee_radius;
      for (int a = 0; a < D; ++a) {
        t.evade[a][lane] += flees ? urgency * (away[a] / length) : Real(0);
      }
    }
  }
}

// Evasion's steering, added to a boids-model velocity or a steering force alike: its gain
// (kEvadeGain v_max under boids, the maximum force under steering) a predator, as walls push.
template <typename Real, int Lanes, int D>
BOIDS_HD BOIDS_INLINE void add_evasion(Real (&to)[D], const LaneTerms<Real, Lanes, D>& t, int lane,
                                       const StepParams<Real>& p) {
  for (int a = 0; a < D; ++a) to[a] += p.evade_gain * t.evade[a][lane];
}

}  // namespace boids::kernels
