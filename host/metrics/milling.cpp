// Couzin et al.'s m_group (2002), the reference for the backends' kernels/milling.h, written
// apart from it: the group's centre (the mean position between walls, each axis's circular
// mean on a torus), then |(1/n) sum of r_i x u_i|, r_i the unit vector from the centre to boid
// i (wrapped on a torus) and u_i its unit heading. A boid at rest or at the centre adds nothing.
#include <cmath>
#include <vector>

#include "host/metrics/metrics.h"
#include "host/metrics/metrics_support.h"

namespace boids {
namespace {

constexpr double kTwoPi = 2 * 3.14159265358979323846;

// The centre along the axis whose coordinates are `x` and whose side is `side`.
double centre_along(const std::vector<double>& x, double side, bool torus) {
  double a = 0, b = 0;
  for (const double v : x) {
    if (torus) {
      a += std::cos(kTwoPi * v / side);
      b += std::sin(kTwoPi * v / side);
    } else {
      a += v;
    }
  }
  if (!torus) return a / static_cast<double>(x.size());
  const double at = std::atan2(b, a) / kTwoPi * side;
  return at < 0 ? at + side : at;
}

}  // namespace

double milling(const FlockState& s, const World& world) {
  const std::size_t n = s.size();
  if (n == 0) return 0;
  const int d = s.dimensions;
  const std::vector<double>* position[3] = {&s.x, &s.y, &s.z};
  const std::vector<double>* velocity[3] = {&s.vx, &s.vy, &s.vz};
  const double side[3] = {world.width, world.height, world.depth};
  double centre[3] = {0, 0, 0};
  for (int a = 0; a < d; ++a) centre[a] = centre_along(*position[a], side[a], world.torus());
  double turning[3] = {0, 0, 0};  // the sum of r x u: (x, y, z), only z in 2D
  for (std::size_t i = 0; i < n; ++i) {
    double r[3] = {0, 0, 0}, u[3] = {0, 0, 0}, r_sq = 0, u_sq = 0;
    for (int a = 0; a < d; ++a) {
      r[a] = (*position[a])[i] - centre[a];
      if (world.torus()) r[a] = wrap(r[a], side[a]);
      u[a] = (*velocity[a])[i];
      r_sq += r[a] * r[a];
      u_sq += u[a] * u[a];
    }
    if (!(r_sq > 0) || !(u_sq > 0)) continue;
    const double r_len = std::sqrt(r_sq), u_len = std::sqrt(u_sq);
    for (int a = 0; a < d; ++a) {
      r[a] /= r_len;
      u[a] /= u_len;
    }
    turning[0] += r[1] * u[2] - r[2] * u[1];
    turning[1] += r[2] * u[0] - r[0] * u[2];
    turning[2] += r[0] * u[1] - r[1] * u[0];
  }
  const double count = static_cast<double>(n);
  double sq = 0;
  for (const double t : turning) sq += (t / count) * (t / count);
  return std::sqrt(sq);
}

}  // namespace boids
