// Noise without state and without trigonometry. A boid's draw at a step depends only on
// (seed, step, the boid's input index): every backend, thread count and order of boids gives
// the same flight. The turn it makes is a rotation by an angle uniform in [-eta/2, eta/2],
// whose cosine and sine come from a polynomial in +, -, * and / only (no library cos or sin):
// the same bits on every machine and, in double with fused multiply-add off, on GPUs too.
#pragma once

#include "kernels/host_device.h"

namespace boids::kernels {

// SplitMix64's finaliser.
BOIDS_HD BOIDS_INLINE std::uint64_t mix64(std::uint64_t z) {
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
  return z ^ (z >> 31);
}

// The key of a run's noise, from its seed.
BOIDS_HD inline std::uint64_t noise_key_of(std::uint64_t seed) {
  return mix64(seed ^ 0x6e6f697365000000ULL);
}

// Uniform in [0, 1) with 53 random bits, for boid `id` at step `step`.
BOIDS_HD BOIDS_INLINE double noise_unit(std::uint64_t key, std::uint64_t step, index_t id) {
  const std::uint64_t h = mix64(step + 0x9e3779b97f4a7c15ULL * (std::uint64_t{id} + 1));
  return static_cast<double>(mix64(h ^ key) >> 11) * 0x1.0p-53;
}

// cos and sin of `angle`, |angle| <= pi, to about 1e-16: Taylor series of a = angle / 4
// (|a| <= pi / 4, where the terms below a^17 / 17! suffice), then the double-angle formulas
// twice.
BOIDS_HD BOIDS_INLINE void cos_sin(double angle, double& c, double& s) {
  const double a = angle * 0.25;
  const double a2 = a * a;
  double sa = 1.0 / 355687428096000.0;  // 1 / 17!
  sa = sa * a2 - 1.0 / 1307674368000.0;
  sa = sa * a2 + 1.0 / 6227020800.0;
  sa = sa * a2 - 1.0 / 39916800.0;
  sa = sa * a2 + 1.0 / 362880.0;
  sa = sa * a2 - 1.0 / 5040.0;
  sa = sa * a2 + 1.0 / 120.0;
  sa = sa * a2 - 1.0 / 6.0;
  sa = sa * a2 + 1.0;
  sa = sa * a;
  double ca = 1.0 / 20922789888000.0;  // 1 / 16!
  ca = ca * a2 - 1.0 / 87178291200.0;
  ca = ca * a2 + 1.0 / 479001600.0;
  ca = ca * a2 - 1.0 / 3628800.0;
  ca = ca * a2 + 1.0 / 40320.0;
  ca = ca * a2 - 1.0 / 720.0;
  ca = ca * a2 + 1.0 / 24.0;
  ca = ca * a2 - 1.0 / 2.0;
  ca = ca * a2 + 1.0;
  for (int twice = 0; twice < 2; ++twice) {
    const double s2 = 2.0 * sa * ca;
    ca = ca * ca - sa * sa;
    sa = s2;
  }
  c = ca;
  s = sa;
}

// The rotation of boid `id` at `step` by its noise angle (eta = `noise`), as cos and sin.
BOIDS_HD BOIDS_INLINE void noise_turn(double noise, std::uint64_t key, std::uint64_t step,
                                      index_t id, double& c, double& s) {
  cos_sin((noise_unit(key, step, id) - 0.5) * noise, c, s);
}

// Turns (vx, vy) by the rotation (c, s), computed in double and rounded to Real.
template <typename Real>
BOIDS_HD BOIDS_INLINE void rotate(Real& vx, Real& vy, double c, double s) {
  const double x = static_cast<double>(vx), y = static_cast<double>(vy);
  vx = static_cast<Real>(c * x - s * y);
  vy = static_cast<Real>(s * x + c * y);
}

}  // namespace boids::kernels
