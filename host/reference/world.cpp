// Compiled without floating-point contraction, like the rest of the reference.
#include "host/reference/detail/world.h"

#include <algorithm>
#include <cmath>

namespace boids::reference {

namespace {

std::uint64_t splitmix_finalizer(std::uint64_t z) {
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
  return z ^ (z >> 31);
}

double just_below(double side) {
  return side - side * 0x1.0p-52;
}

}  // namespace

double identify_side_with_zero(double x, double side) {
  return x == side ? 0.0 : x;
}

double wrap(double d, double side) {
  if (d > side / 2) {
    d -= side;
  } else if (d < -(side / 2)) {
    d += side;
  }
  return d;
}

double wrap_position(double x, double side) {
  if (x < 0)
    x += side;
  else if (x >= side)
    x -= side;
  return identify_side_with_zero(x, side);
}

bool shrink_if_huge(double* v, int n) {
  bool huge = false;
  for (int k = 0; k < n; ++k) huge = huge || std::fabs(v[k]) > 0x1.0p510;
  if (!huge) return false;
  for (int k = 0; k < n; ++k) v[k] *= 0x1.0p-600;
  return true;
}

void reflect_off_walls(double& x, double& v, double side) {
  if (x < 0) {
    x = -x;
    v = -v;
  } else if (x >= side) {
    x = side + side - x;
    v = -v;
  }
  if (x < 0) x = 0;
  if (x >= side) x = just_below(side);
}

bool normalise(double* v, int n) {
  bool huge = false;
  for (int k = 0; k < n; ++k) huge = huge || std::fabs(v[k]) > 0x1.0p510;
  double u[3] = {};
  for (int k = 0; k < n; ++k) u[k] = huge ? v[k] * 0x1.0p-600 : v[k];
  double square = u[0] * u[0];
  for (int k = 1; k < n; ++k) square += u[k] * u[k];
  const double length = std::sqrt(square);
  if (!(length > 0)) return false;
  for (int k = 0; k < n; ++k) v[k] = u[k] / length;
  return true;
}

std::uint64_t noise_key(std::uint64_t seed) {
  return splitmix_finalizer(seed ^ 0x6e6f697365000000ULL);
}

void polynomial_cos_sin(double angle, double& c, double& s) {
  // Taylor coefficients of sin(a) / a and cos(a) in a^2, highest first.
  static const double kSin[] = {1.0 / 355687428096000.0,
                                -1.0 / 1307674368000.0,
                                1.0 / 6227020800.0,
                                -1.0 / 39916800.0,
                                1.0 / 362880.0,
                                -1.0 / 5040.0,
                                1.0 / 120.0,
                                -1.0 / 6.0,
                                1.0};
  static const double kCos[] = {1.0 / 20922789888000.0,
                                -1.0 / 87178291200.0,
                                1.0 / 479001600.0,
                                -1.0 / 3628800.0,
                                1.0 / 40320.0,
                                -1.0 / 720.0,
                                1.0 / 24.0,
                                -1.0 / 2.0,
                                1.0};
  const double a = angle * 0.25;
  const double a2 = a * a;
  double sin_a = kSin[0], cos_a = kCos[0];
  for (int k = 1; k < 9; ++k) {
    sin_a = sin_a * a2 + kSin[k];
    cos_a = cos_a * a2 + kCos[k];
  }
  sin_a = sin_a * a;
  for (int doubling = 0; doubling < 2; ++doubling) {  // angle / 4 -> angle / 2 -> angle
    const double sin_2a = 2.0 * sin_a * cos_a;
    cos_a = cos_a * cos_a - sin_a * sin_a;
    sin_a = sin_2a;
  }
  c = cos_a;
  s = sin_a;
}

double polynomial_log(double y) {
  int e = 0;
  double m = std::frexp(y, &e);  // y = m 2^e, m in [1/2, 1)
  if (m < 0.7071067811865476) {  // into [sqrt(1/2), sqrt(2)), where the series converges fastest
    m = m * 2;
    e = e - 1;
  }
  const double t = (m - 1) / (m + 1);
  const double t2 = t * t;
  // 1 + t^2 / 3 + t^4 / 5 + ... + t^24 / 25, so that atanh(t) = t times it.
  double q = 1.0 / 25;
  for (int k = 23; k >= 1; k -= 2) q = q * t2 + 1.0 / k;
  return static_cast<double>(e) * 0.6931471805599453 + (2 * t) * q;
}

double noise_draw(std::uint64_t key, std::uint64_t step, std::uint64_t id) {
  const std::uint64_t mixed = splitmix_finalizer(step + 0x9e3779b97f4a7c15ULL * (id + 1));
  const std::uint64_t bits = splitmix_finalizer(mixed ^ key);
  return static_cast<double>(bits >> 11) * 0x1.0p-53;
}

std::uint64_t salted_key(std::uint64_t key, std::uint64_t salt) {
  return splitmix_finalizer(key ^ salt);
}

void noise_rotation(const FlockParams& p, const StepContext& context, std::uint64_t id, double& c,
                    double& s) {
  const double u = noise_draw(context.noise_key, context.step, id);
  polynomial_cos_sin((u - 0.5) * p.noise, c, s);
}

void wander_direction(const StepContext& context, std::uint64_t id, const double* v, int n,
                      double* w) {
  const std::uint64_t wander_key = salted_key(context.noise_key, 0x77616e6465720000ULL);
  const std::uint64_t knot = context.step / 32;
  const double f = static_cast<double>(context.step % 32) / 32;
  const double eased = f * f * (3 - 2 * f);
  double s[3] = {}, u[3] = {};
  for (int k = 0; k < n; ++k) {
    const std::uint64_t key = salted_key(wander_key, static_cast<std::uint64_t>(k + 1));
    const double here = 2 * noise_draw(key, knot, id) - 1;
    const double next = 2 * noise_draw(key, knot + 1, id) - 1;
    s[k] = here + (next - here) * eased;
    u[k] = v[k];
  }
  if (!normalise(u, n)) {
    for (double& c : u) c = 0;  // at rest: no heading, all of the drift
  }
  double along = 0;
  for (int k = 0; k < n; ++k) along += s[k] * u[k];
  for (int k = 0; k < n; ++k) w[k] = s[k] - along * u[k];
}

double cos_half_view(const FlockParams& p) {
  double c = 1, s = 0;
  polynomial_cos_sin(p.fov / 2 * kPi / 180, c, s);
  return c;
}

}  // namespace boids::reference
