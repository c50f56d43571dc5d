#include "host/reference/detail/space.h"

#include <algorithm>
#include <cmath>

namespace boids::reference {
namespace {

// The key of the noise's second draw in 3D (the turn's azimuth), from the run's.
constexpr std::uint64_t kAzimuthKey = 0x636f6e65636f6e65ULL;  // "conecone"

template <int D>
Vector<D> centre_of(const Obstacle& o) {
  return vector_of<D>(o.x, o.y, o.z);
}

template <int D>
bool inside_an_obstacle(const FlockParams& p, const Vector<D>& x) {
  for (const Obstacle& o : p.obstacles) {
    if (length_sq<D>(offset_between<D>(p, centre_of<D>(o), x)) < o.radius * o.radius) return true;
  }
  return false;
}

// (x, y, z) turned within the cone of half-angle noise / 2: cos(theta) uniform in
// [cos(noise / 2), 1], uniform on the cap's area, and the azimuth from a second draw.
void turn_within_cone(const FlockParams& p, const StepContext& context, std::uint64_t id, double& x,
                      double& y, double& z) {
  double cos_half = 1, sin_half = 0;
  polynomial_cos_sin(p.noise / 2, cos_half, sin_half);
  const double a = noise_draw(context.noise_key, context.step, id);
  const double cos_t = 1 - a * (1 - cos_half);
  const double sin_t = std::sqrt(std::fmax(0.0, (1 - cos_t) * (1 + cos_t)));
  double cos_p = 1, sin_p = 0;
  noise_azimuth(context, id, cos_p, sin_p);
  turn_in_cone(cos_t, sin_t, cos_p, sin_p, x, y, z);
}

}  // namespace

template <int D>
Vector<D> offset_between(const FlockParams& p, const Vector<D>& a, const Vector<D>& b) {
  const Vector<D> side = sides_of<D>(p);
  Vector<D> d;
  for (int k = 0; k < D; ++k) d[k] = p.world.torus() ? wrap(b[k] - a[k], side[k]) : b[k] - a[k];
  return d;
}

template <int D>
bool sees_at(const FlockParams& p, double cos_half, const Vector<D>& d, double d2,
             const Vector<D>& v) {
  if (p.fov >= 360) return true;
  const double v2 = length_sq<D>(v);
  if (v2 == 0) return true;  // a boid at rest sees all around
  const double along = dot<D>(d, v);
  return along * std::fabs(along) >= cos_half * std::fabs(cos_half) * v2 * d2;
}

template <int D>
bool look_at(const FlockParams& p, double cos_half, const FlockState& s, std::size_t i,
             std::size_t j, Vector<D>& d, double& d2) {
  if (j == i) return false;
  d = offset_between<D>(p, position_of<D>(s, i), position_of<D>(s, j));
  d2 = length_sq<D>(d);
  return sees_at<D>(p, cos_half, d, d2, velocity_of<D>(s, i));
}

template <int D>
Vector<D> avoidance_at(const FlockParams& p, const Vector<D>& x) {
  Vector<D> u{};
  if (p.world.walled()) {
    const double reach = p.effective_wall_distance();
    const Vector<D> side = sides_of<D>(p);
    for (int a = 0; a < D; ++a) {
      if (x[a] < reach) u[a] += 1 - x[a] / reach;
      if (side[a] - x[a] < reach) u[a] -= 1 - (side[a] - x[a]) / reach;
    }
  }
  const double reach = std::sqrt(p.radius * p.radius);
  for (const Obstacle& o : p.obstacles) {
    const Vector<D> d = offset_between<D>(p, centre_of<D>(o), x);
    const double distance = std::sqrt(length_sq<D>(d));
    const double gap = distance - o.radius;
    if (!(distance > 0) || gap >= reach) continue;
    const double urgency = gap > 0 ? 1 - gap / reach : 1;
    for (int a = 0; a < D; ++a) u[a] += urgency * d[a] / distance;
  }
  return u;
}

template <int D>
Vector<D> goal_at(const FlockParams& p, const Vector<D>& x) {
  Vector<D> g{};
  if (!goal_acts(p)) return g;
  const Vector<D> d = offset_between<D>(p, x, vector_of<D>(p.goal.x, p.goal.y, p.goal.z));
  const double distance = std::sqrt(length_sq<D>(d));
  if (distance > 0) {
    const double over = std::max(distance, p.arrival_radius);  // arrival: shorter within it
    for (int a = 0; a < D; ++a) g[a] = d[a] / over;
  }
  return g;
}

template <int D>
void turn_by_noise_at(const FlockParams& p, const StepContext& context, std::uint64_t id,
                      Vector<D>& v) {
  if (!noise_acts(p)) return;
  if constexpr (D == 3) {
    turn_within_cone(p, context, id, v[0], v[1], v[2]);
  } else {
    double c, sn;
    noise_rotation(p, context, id, c, sn);
    const double x = v[0], y = v[1];
    v[0] = c * x - sn * y;
    v[1] = sn * x + c * y;
  }
}

template <int D>
void keep_inside_at(const FlockParams& p, Vector<D>& x, Vector<D>& v, const Vector<D>& before) {
  const Vector<D> side = sides_of<D>(p);
  if (p.world.walled()) {
    for (int a = 0; a < D; ++a) reflect_off_walls(x[a], v[a], side[a]);
  }
  for (const Obstacle& o : p.obstacles) {
    const Vector<D> centre = centre_of<D>(o);
    const Vector<D> d = offset_between<D>(p, centre, x);
    const double d2 = length_sq<D>(d);
    if (!(d2 < o.radius * o.radius)) continue;
    const double distance = std::sqrt(d2);
    Vector<D> n{};
    n[0] = 1;
    if (distance > 0) {
      for (int a = 0; a < D; ++a) n[a] = d[a] / distance;
    }
    const double edge = o.radius * (1 + 1e-14);
    for (int a = 0; a < D; ++a) {
      x[a] = centre[a] + n[a] * edge;
      if (p.world.torus()) x[a] = wrap_position(x[a], side[a]);
    }
    const double inward = dot<D>(v, n);
    if (inward < 0) {
      for (int a = 0; a < D; ++a) v[a] -= 2 * inward * n[a];
    }
  }
  if (p.obstacles.empty() && p.world.torus()) return;
  bool inside_world = true;  // open space holds every point
  for (int a = 0; a < D; ++a) inside_world = inside_world && p.world.holds(a, x[a]);
  if (!inside_world || inside_an_obstacle<D>(p, x)) {
    x = before;
    for (int a = 0; a < D; ++a) v[a] = -v[a];
  }
}

template <int D>
void land_at(const FlockParams& p, const FlockState& s, std::size_t i, const Vector<D>& by,
             const Vector<D>& v, FlockState& next) {
  const Vector<D> before = position_of<D>(s, i), side = sides_of<D>(p);
  Vector<D> x, w = v;
  for (int a = 0; a < D; ++a) {
    x[a] = before[a] + by[a];
    if (p.world.torus()) x[a] = wrap_position(x[a], side[a]);
  }
  keep_inside_at<D>(p, x, w, before);
  store<D>(next, i, x, w);
}

void noise_azimuth(const StepContext& context, std::uint64_t id, double& cos_p, double& sin_p) {
  const double b = noise_draw(salted_key(context.noise_key, kAzimuthKey), context.step, id);
  polynomial_cos_sin((b - 0.5) * (2 * kPi), cos_p, sin_p);
}

void turn_in_cone(double cos_t, double sin_t, double cos_p, double sin_p, double& x, double& y,
                  double& z) {
  const double length = std::sqrt(x * x + y * y + z * z);
  if (!(length > 0)) return;
  const double ux = x / length, uy = y / length, uz = z / length;
  double e1[3], e2[3];
  perpendicular_basis(ux, uy, uz, e1, e2);
  x = (cos_t * ux + sin_t * (cos_p * e1[0] + sin_p * e2[0])) * length;
  y = (cos_t * uy + sin_t * (cos_p * e1[1] + sin_p * e2[1])) * length;
  z = (cos_t * uz + sin_t * (cos_p * e1[2] + sin_p * e2[2])) * length;
}

void perpendicular_basis(double ux, double uy, double uz, double (&e1)[3], double (&e2)[3]) {
  const double sign = uz >= 0 ? 1.0 : -1.0;
  const double k = -1 / (sign + uz);
  const double m = ux * uy * k;
  e1[0] = 1 + sign * ux * ux * k;
  e1[1] = sign * m;
  e1[2] = -sign * ux;
  e2[0] = m;
  e2[1] = sign + uy * uy * k;
  e2[2] = -uy;
}

#define BOIDS_REFERENCE_SPACE(D)                                                                 \
  template Vector<D> offset_between<D>(const FlockParams&, const Vector<D>&, const Vector<D>&);  \
  template bool sees_at<D>(const FlockParams&, double, const Vector<D>&, double,                 \
                           const Vector<D>&);                                                    \
  template bool look_at<D>(const FlockParams&, double, const FlockState&, std::size_t,           \
                           std::size_t, Vector<D>&, double&);                                    \
  template Vector<D> avoidance_at<D>(const FlockParams&, const Vector<D>&);                      \
  template Vector<D> goal_at<D>(const FlockParams&, const Vector<D>&);                           \
  template void turn_by_noise_at<D>(const FlockParams&, const StepContext&, std::uint64_t,       \
                                    Vector<D>&);                                                 \
  template void keep_inside_at<D>(const FlockParams&, Vector<D>&, Vector<D>&, const Vector<D>&); \
  template void land_at<D>(const FlockParams&, const FlockState&, std::size_t, const Vector<D>&, \
                           const Vector<D>&, FlockState&);
BOIDS_REFERENCE_SPACE(2)
BOIDS_REFERENCE_SPACE(3)
#undef BOIDS_REFERENCE_SPACE

}  // namespace boids::reference
