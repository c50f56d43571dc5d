// Noise without state and without trigonometry. A boid's draw at a step depends only on
// (seed, step, the boid's input index): every backend, thread count and order of boids gives
// the same flight. In 2D the turn it makes is a rotation by an angle uniform in
// [-eta/2, eta/2]; in 3D, a turn to a direction uniform on the cap of half-angle eta/2 around
// the heading (docs/3d.md). Cosines and sines come from a polynomial in +, -, * and / only (no
// library cos or sin): the same bits on every machine and, in double with fused multiply-add
// off, on GPUs too.
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

// The key of the 3D turn's second draw (its azimuth), salted from the run's ("conecone").
BOIDS_HD BOIDS_INLINE std::uint64_t azimuth_key_of(std::uint64_t key) {
  return mix64(key ^ 0x636f6e65636f6e65ULL);
}

// The 3D turn of boid `id` at `step` within the cone of half-angle noise / 2: cos and sin of
// its polar angle theta (cos theta uniform in [cos(noise / 2), 1], so uniform over the cap's
// area) and of its azimuth phi (uniform in [-pi, pi), from the second draw).
BOIDS_HD BOIDS_INLINE void noise_cone(double noise, std::uint64_t key, std::uint64_t azimuth_key,
                                      std::uint64_t step, index_t id, double (&turn)[4]) {
  double cos_half, sin_half;
  cos_sin(noise / 2, cos_half, sin_half);
  const double cos_t = 1 - noise_unit(key, step, id) * (1 - cos_half);
  const double across = (1 - cos_t) * (1 + cos_t);
  turn[0] = cos_t;
  turn[1] = sqrt(across > 0 ? across : 0.0);
  cos_sin((noise_unit(azimuth_key, step, id) - 0.5) * (2 * 3.14159265358979323846), turn[2],
          turn[3]);
}

// The key of a Gaussian draw's second uniform, salted from the run's ("gauss").
BOIDS_HD BOIDS_INLINE std::uint64_t gauss_key_of(std::uint64_t key) {
  return mix64(key ^ 0x6761757373000000ULL);
}

// ln(y) for y in (0, 1], to about 1e-16, in +, -, * and / only (frexp is exact): y = m 2^e
// with m in [sqrt(1/2), sqrt(2)), then ln m = 2 atanh(t), t = (m - 1) / (m + 1), |t| < 0.172,
// by its series to t^25.
BOIDS_HD BOIDS_INLINE double log_unit(double y) {
  int e = 0;
  double m = frexp(y, &e);
  if (m < 0.7071067811865476) {
    m = m * 2;
    e = e - 1;
  }
  const double t = (m - 1) / (m + 1), t2 = t * t;
  double q = 1.0 / 25;
  for (int k = 23; k >= 3; k -= 2) q = q * t2 + 1.0 / k;
  q = q * t2 + 1.0;
  return static_cast<double>(e) * 0.6931471805599453 + (2 * t) * q;
}

// A Gaussian angle of s.d. `sigma` for boid `id` at `step` (Box-Muller's first of two, from
// the draws of `key` and gauss_key_of(key)), reduced to [-pi, pi].
BOIDS_HD BOIDS_INLINE double noise_gaussian_angle(double sigma, std::uint64_t key,
                                                  std::uint64_t step, index_t id) {
  constexpr double kTurn = 6.283185307179586;  // 2 pi
  const double radius = sqrt(-2.0 * log_unit(1.0 - noise_unit(key, step, id)));
  double c, s;
  cos_sin((noise_unit(gauss_key_of(key), step, id) - 0.5) * kTurn, c, s);
  double g = sigma * (radius * c);
  if (g > 3.141592653589793 || g < -3.141592653589793) g = g - kTurn * floor(g / kTurn + 0.5);
  return g;
}

// The couzin model's noise (kernels/models/couzin.h): in 2D the rotation by a Gaussian angle,
// as cos and sin; in 3D a turn by that angle towards an azimuth uniform in [-pi, pi), as
// noise_cone gives its turn.
BOIDS_HD BOIDS_INLINE void noise_gaussian_turn(double sigma, std::uint64_t key, std::uint64_t step,
                                               index_t id, double& c, double& s) {
  cos_sin(noise_gaussian_angle(sigma, key, step, id), c, s);
}
BOIDS_HD BOIDS_INLINE void noise_gaussian_cone(double sigma, std::uint64_t key,
                                               std::uint64_t azimuth_key, std::uint64_t step,
                                               index_t id, double (&turn)[4]) {
  cos_sin(noise_gaussian_angle(sigma, key, step, id), turn[0], turn[1]);
  cos_sin((noise_unit(azimuth_key, step, id) - 0.5) * (2 * 3.14159265358979323846), turn[2],
          turn[3]);
}

// Wander's draws (kernels/terms/wander.h): the key of axis `axis` (0, 1, 2), salted from the
// run's noise key ("wander").
BOIDS_HD BOIDS_INLINE std::uint64_t wander_axis_key(std::uint64_t noise_key, int axis) {
  return mix64(mix64(noise_key ^ 0x77616e6465720000ULL) ^ static_cast<std::uint64_t>(axis + 1));
}

// Steps between wander's random knots: a power of two, so that the fraction of the way from
// one knot to the next is exact.
inline constexpr std::uint64_t kWanderPeriod = 32;

// One axis of boid `id`'s wander drift at `step`: a value noise in [-1, 1], uniform draws at
// every kWanderPeriod-th step (keyed by (axis key, knot, id)) eased into one another by
// smoothstep, f^2 (3 - 2 f). It drifts a little each step, never jumps, and needs no state: a
// run resumed or split over ranks draws the same.
BOIDS_HD BOIDS_INLINE double wander_drift(std::uint64_t axis_key, std::uint64_t step, index_t id) {
  const std::uint64_t knot = step / kWanderPeriod;
  const double f = static_cast<double>(step % kWanderPeriod) / static_cast<double>(kWanderPeriod);
  const double ease = f * f * (3 - 2 * f);
  const double from = 2 * noise_unit(axis_key, knot, id) - 1;
  const double to = 2 * noise_unit(axis_key, knot + 1, id) - 1;
  return from + (to - from) * ease;
}

// Wander's steering direction for a boid moving at v: the part of its drift s across the
// heading, s - (s.u) u with u = v / |v| (all of s for a boid at rest), in double. A velocity
// with a component beyond 2^510 is scaled by 2^-600 (exactly) before its square is taken.
template <typename Real, int D>
BOIDS_HD BOIDS_INLINE void across_heading(const double (&s)[D], const Real (&v)[D],
                                          double (&w)[D]) {
  double u[D];
  for (int a = 0; a < D; ++a) u[a] = static_cast<double>(v[a]);
  scale_for_length(u);
  const double length = sqrt(length_sq(u));
  const bool moving = length > 0;
  double along = 0;
  for (int a = 0; a < D; ++a) {
    u[a] = moving ? u[a] / length : 0.0;
    along += s[a] * u[a];
  }
  for (int a = 0; a < D; ++a) w[a] = s[a] - along * u[a];
}

// Turns v by the 3D turn (cos theta, sin theta, cos phi, sin phi) about its own direction u, in
// double, and rounds it to Real; its length is kept. The cap is built on u's orthonormal
// basis e1, e2, taken without trigonometry (Duff et al., "Building an orthonormal basis,
// revisited", 2017). A boid at rest stays at rest. Selects, so that lanes vectorise.
template <typename Real>
BOIDS_HD BOIDS_INLINE void turn_within_cone(Real (&v)[3], const double (&turn)[4]) {
  const double x = static_cast<double>(v[0]), y = static_cast<double>(v[1]),
               z = static_cast<double>(v[2]);
  const double length = sqrt(x * x + y * y + z * z);
  const bool moving = length > 0;
  const double divisor = moving ? length : 1.0;
  const double ux = x / divisor, uy = y / divisor, uz = z / divisor;
  const double sign = uz >= 0 ? 1.0 : -1.0;
  const double k = -1 / (sign + uz);
  const double m = ux * uy * k;
  const double e1x = 1 + sign * ux * ux * k, e1y = sign * m, e1z = -sign * ux;
  const double e2x = m, e2y = sign + uy * uy * k, e2z = -uy;
  const double ct = turn[0], st = turn[1], cp = turn[2], sp = turn[3];
  const double nx = (ct * ux + st * (cp * e1x + sp * e2x)) * length;
  const double ny = (ct * uy + st * (cp * e1y + sp * e2y)) * length;
  const double nz = (ct * uz + st * (cp * e1z + sp * e2z)) * length;
  v[0] = moving ? static_cast<Real>(nx) : v[0];
  v[1] = moving ? static_cast<Real>(ny) : v[1];
  v[2] = moving ? static_cast<Real>(nz) : v[2];
}

}  // namespace boids::kernels
