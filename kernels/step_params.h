// The constants of one step, as the kernels see them. Built once on the host per run.
#pragma once

#include "kernels/host_device.h"

namespace boids::kernels {

// The seed's fixed gains: they put the three rules on comparable scales.
inline constexpr double kSeparationGain = 0.05;
inline constexpr double kAlignmentGain = 0.05;
inline constexpr double kCohesionGain = 0.005;

template <typename Real>
struct StepParams {
  Real world;            // side L of the square torus
  Real half_world;       // L / 2: the largest wrapped offset
  Real radius_sq;        // r^2: neighbours are closer than r
  Real separation_sq;    // (r / 2)^2: separation acts closer than r / 2
  Real max_speed;        // v_max
  Real min_speed;        // v_max / 2
  Real separation_gain;  // weight * kSeparationGain
  Real alignment_gain;   // weight * kAlignmentGain
  Real cohesion_gain;    // weight * kCohesionGain
};

// Every derived constant is computed in double exactly as the seed computes it
// (r2 = r * r, s2 = r2 / 4, vmin = vmax / 2, gain = weight * K), then rounded once to Real.
template <typename Real>
StepParams<Real> make_step_params(double radius, double separation, double alignment,
                                  double cohesion, double max_speed, double world) {
  const double radius_sq = radius * radius;
  StepParams<Real> p;
  p.world = static_cast<Real>(world);
  p.half_world = static_cast<Real>(world / 2);
  p.radius_sq = static_cast<Real>(radius_sq);
  p.separation_sq = static_cast<Real>(radius_sq / 4);
  p.max_speed = static_cast<Real>(max_speed);
  p.min_speed = static_cast<Real>(max_speed / 2);
  p.separation_gain = static_cast<Real>(separation * kSeparationGain);
  p.alignment_gain = static_cast<Real>(alignment * kAlignmentGain);
  p.cohesion_gain = static_cast<Real>(cohesion * kCohesionGain);
  return p;
}

}  // namespace boids::kernels
