// Reynolds' wander: each boid's drift across its heading, and what it adds to its steering.
#pragma once

#include "kernels/terms/lane_terms.h"

namespace boids::kernels {

// Wander, a world's term: its parameter (a field of FlockParams), its slice of the step's
// constants, made from the flock's parameters (`f`, FlockParams), and each boid's drift. Its gain
// is kWanderGain weight v_max where a model changes velocities, weight v_max where it steers by
// forces.
struct WanderTerm {
  static constexpr const char* kName = "wander";
  struct Params {
    /// Reynolds' wander, its weight (boids and steering models): each boid steers across its
    /// heading along a drift of components wandering in [-1, 1], smooth in the step and keyed
    /// by (seed, step, boid) as the noise is; 0 is off (docs/models.md).
    double wander = 0.0;
  };
  // Each boid steers across its heading along a drift that wanders at random, keyed by
  // (noise_key, step, the boid's input index) as the noise is (wander_lanes).
  template <typename Real>
  struct Constants {
    bool has_wander;
    Real wander_gain;
  };
  template <typename Real, int Lanes, int D>
  struct LaneValues {
    Real wander[D][Lanes];  // wander's steering direction
  };
  template <typename Flock>
  static bool on(const Flock& f) {
    return f.wander > 0;
  }
  template <typename Model, typename Real, typename Flock>
  static void set_constants(StepParams<Real>& p, const Flock& f) {
    p.has_wander = on(f);
    const double gain = Model::kSteersByForce ? f.wander : kWanderGain * f.wander;
    p.wander_gain = static_cast<Real>(gain * f.max_speed);
  }
};

// Each boid's wander: the part across its heading of its drift, a vector whose components
// each wander in [-1, 1] (wander_drift, keyed by the boid's input index `ids[lane]`). Taken in
// double, as the noise is, and rounded to Real.
template <typename Real, int Lanes, int D>
BOIDS_HD inline void wander_lanes(LaneTerms<Real, Lanes, D>& t,
                                  const LaneBoids<Real, Lanes, D>& self, const index_t* ids,
                                  const StepParams<Real>& p) {
  std::uint64_t keys[D];
  for (int a = 0; a < D; ++a) keys[a] = wander_axis_key(p.noise_key, a);
#if !defined(__CUDA_ARCH__)
#pragma omp simd
#endif
  for (int lane = 0; lane < Lanes; ++lane) {
    double s[D], w[D];
    Real v[D];
    for (int a = 0; a < D; ++a) {
      s[a] = wander_drift(keys[a], p.step, ids[lane]);
      v[a] = self.velocity[a][lane];
    }
    across_heading(s, v, w);
    for (int a = 0; a < D; ++a) t.wander[a][lane] = static_cast<Real>(w[a]);
  }
}

// Wander's steering, added to a boids-model velocity or a steering force alike: its gain
// (kWanderGain weight v_max under boids, weight v_max under steering) along the unit drift.
template <typename Real, int Lanes, int D>
BOIDS_HD BOIDS_INLINE void add_wander(Real (&to)[D], const LaneTerms<Real, Lanes, D>& t, int lane,
                                      const StepParams<Real>& p) {
  for (int a = 0; a < D; ++a) to[a] += p.wander_gain * t.wander[a][lane];
}

}  // namespace boids::kernels
