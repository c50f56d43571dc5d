// The noise's turn: each boid's draw, keyed by its input index, and the turn of its new
// velocity (a Vicsek heading) by it.
#pragma once

#include "kernels/terms/lane_terms.h"

namespace boids::kernels {

// A turn of the noise: (cos, sin) of the 2D rotation; in 3D (cos, sin) of the polar angle
// and of the azimuth (noise_cone).
template <int D>
inline constexpr int kTurnValues = D == 2 ? 2 : 4;

// The noise: its slice of the step's constants, from the flock's parameters (`f`, FlockParams).
// Its key comes from the run's seed, not the parameters (step_params_of); whether it is
// Gaussian is the model's (Couzin::set_constants).
struct NoiseTerm {
  static constexpr const char* kName = "noise";
  // Each heading turns by an angle uniform in [-noise / 2, noise / 2] (in 3D, to a direction
  // uniform within the cone of half-angle noise / 2), drawn from (noise_key, step, the boid's
  // input index); the couzin model's by a Gaussian angle of s.d. `noise` (noise_gaussian_turn).
  template <typename Real>
  struct Constants {
    bool has_noise;
    Real noise;
    bool gaussian_noise;
  };
  template <typename Real, int Lanes, int D>
  struct LaneValues {
    double turn[kTurnValues<D>][Lanes];  // the noise's turn
  };
  template <typename Flock>
  static bool on(const Flock& f) {
    return f.noise > 0;
  }
  template <typename Model, typename Real, typename Flock>
  static void set_constants(StepParams<Real>& p, const Flock& f) {
    p.has_noise = on(f);
    p.noise = static_cast<Real>(f.noise);
  }
};

// The couzin model's turns: by Gaussian angles.
template <typename Real, int Lanes, int D>
BOIDS_HD inline void draw_gaussian_turns(LaneTerms<Real, Lanes, D>& t, const index_t* ids,
                                         const StepParams<Real>& p) {
  const double sigma = p.noise;
  if constexpr (D == 2) {
    for (int lane = 0; lane < Lanes; ++lane) {
      noise_gaussian_turn(sigma, p.noise_key, p.step, ids[lane], t.turn[0][lane], t.turn[1][lane]);
    }
  } else {
    const std::uint64_t azimuth_key = azimuth_key_of(p.noise_key);
    for (int lane = 0; lane < Lanes; ++lane) {
      double turn[4];
      noise_gaussian_cone(sigma, p.noise_key, azimuth_key, p.step, ids[lane], turn);
      for (int k = 0; k < 4; ++k) t.turn[k][lane] = turn[k];
    }
  }
}

// Each boid's noise turn, from its input index `ids[lane]`.
template <typename Real, int Lanes, int D>
BOIDS_HD inline void draw_turns(LaneTerms<Real, Lanes, D>& t, const index_t* ids,
                                const StepParams<Real>& p) {
  if (p.gaussian_noise) {
    draw_gaussian_turns(t, ids, p);
  } else if constexpr (D == 2) {
#if !defined(__CUDA_ARCH__)
#pragma omp simd
#endif
    for (int lane = 0; lane < Lanes; ++lane) {
      noise_turn(p.noise, p.noise_key, p.step, ids[lane], t.turn[0][lane], t.turn[1][lane]);
    }
  } else {
    const std::uint64_t azimuth_key = azimuth_key_of(p.noise_key);
    for (int lane = 0; lane < Lanes; ++lane) {
      double turn[4];
      noise_cone(p.noise, p.noise_key, azimuth_key, p.step, ids[lane], turn);
      for (int k = 0; k < 4; ++k) t.turn[k][lane] = turn[k];
    }
  }
}

// Turns a lane's new velocity (or Vicsek heading) by its noise.
template <typename Real, int Lanes, int D>
BOIDS_HD BOIDS_INLINE void apply_turn(Real (&v)[D], const LaneTerms<Real, Lanes, D>& t, int lane) {
  if constexpr (D == 2) {
    rotate(v[0], v[1], t.turn[0][lane], t.turn[1][lane]);
  } else {
    const double turn[4] = {t.turn[0][lane], t.turn[1][lane], t.turn[2][lane], t.turn[3][lane]};
    turn_within_cone(v, turn);
  }
}

}  // namespace boids::kernels
