#include "host/reference/detail/space_3d.h"

#include <algorithm>
#include <cmath>

namespace boids::reference {
namespace {

// An offset along one axis: wrapped as the published step wraps on the torus, plain between walls.
double wrapped(const FlockParams& p, double d, double side) {
  return p.world.torus() ? wrap(d, side) : d;
}

// The key of the noise's second draw in 3D (the turn's azimuth), from the run's.
constexpr std::uint64_t kAzimuthKey = 0x636f6e65636f6e65ULL;  // "conecone"

}  // namespace

Offset3 offset_3d(const FlockParams& p, const FlockState& s, std::size_t i, std::size_t j) {
  Offset3 d;
  d.x = wrapped(p, s.x[j] - s.x[i], p.world.width);
  d.y = wrapped(p, s.y[j] - s.y[i], p.world.height);
  d.z = wrapped(p, s.z[j] - s.z[i], p.world.depth);
  d.d2 = d.x * d.x + d.y * d.y + d.z * d.z;
  return d;
}

bool sees_3d(const FlockParams& p, double cos_half, const Offset3& d, double vx, double vy,
             double vz) {
  if (p.fov >= 360) return true;
  const double v2 = vx * vx + vy * vy + vz * vz;
  if (v2 == 0) return true;
  const double along = d.x * vx + d.y * vy + d.z * vz;
  return along * std::fabs(along) >= cos_half * std::fabs(cos_half) * v2 * d.d2;
}

void goal_direction_3d(const FlockParams& p, double x, double y, double z, double& gx, double& gy,
                       double& gz) {
  gx = gy = gz = 0;
  if (!active_terms(p).goal) return;
  const double dx = wrapped(p, p.goal.x - x, p.world.width);
  const double dy = wrapped(p, p.goal.y - y, p.world.height);
  const double dz = wrapped(p, p.goal.z - z, p.world.depth);
  const double d = std::sqrt(dx * dx + dy * dy + dz * dz);
  if (d > 0) {
    const double over = std::max(d, p.arrival_radius);  // arrival: shorter within its radius
    gx = dx / over;
    gy = dy / over;
    gz = dz / over;
  }
}

void turn_within_cone(const FlockParams& p, const StepContext& context, std::uint64_t id, double& x,
                      double& y, double& z) {
  if (!active_terms(p).noise) return;
  // The polar angle: cos(theta) uniform in [cos(noise / 2), 1], uniform on the cap's area.
  double cos_half = 1, sin_half = 0;
  polynomial_cos_sin(p.noise / 2, cos_half, sin_half);
  const double a = noise_draw(context.noise_key, context.step, id);
  const double cos_t = 1 - a * (1 - cos_half);
  const double sin_t = std::sqrt(std::fmax(0.0, (1 - cos_t) * (1 + cos_t)));
  double cos_p = 1, sin_p = 0;  // the azimuth, from a second draw
  noise_azimuth(context, id, cos_p, sin_p);
  turn_in_cone(cos_t, sin_t, cos_p, sin_p, x, y, z);
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

bool shrink_if_huge_3d(double& x, double& y, double& z) {
  if (!(std::fabs(x) > 0x1.0p510 || std::fabs(y) > 0x1.0p510 || std::fabs(z) > 0x1.0p510)) {
    return false;
  }
  x *= 0x1.0p-600;
  y *= 0x1.0p-600;
  z *= 0x1.0p-600;
  return true;
}

// The offset from (ax, ay, az) to (bx, by, bz): wrapped on the torus, plain between walls.
void offset_between(const FlockParams& p, const double (&a)[3], const double (&b)[3],
                    double (&d)[3]) {
  const double side[3] = {p.world.width, p.world.height, p.world.depth};
  for (int k = 0; k < 3; ++k) d[k] = wrapped(p, b[k] - a[k], side[k]);
}

void avoidance_3d(const FlockParams& p, double x, double y, double z, double& ux, double& uy,
                  double& uz) {
  ux = uy = uz = 0;
  double* push[3] = {&ux, &uy, &uz};
  const double position[3] = {x, y, z};
  if (p.world.walled()) {
    const double reach = p.effective_wall_distance();
    const double side[3] = {p.world.width, p.world.height, p.world.depth};
    for (int a = 0; a < 3; ++a) {
      if (position[a] < reach) *push[a] += 1 - position[a] / reach;
      if (side[a] - position[a] < reach) *push[a] -= 1 - (side[a] - position[a]) / reach;
    }
  }
  const double reach = std::sqrt(p.radius * p.radius);
  for (const Obstacle& o : p.obstacles) {
    double d[3];
    offset_between(p, {o.x, o.y, o.z}, position, d);
    const double distance = std::sqrt(d[0] * d[0] + d[1] * d[1] + d[2] * d[2]);
    const double gap = distance - o.radius;
    if (!(distance > 0) || gap >= reach) continue;
    const double urgency = gap > 0 ? 1 - gap / reach : 1;
    for (int a = 0; a < 3; ++a) *push[a] += urgency * d[a] / distance;
  }
}

namespace {

bool inside_a_sphere(const FlockParams& p, const double (&position)[3]) {
  for (const Obstacle& o : p.obstacles) {
    double d[3];
    offset_between(p, {o.x, o.y, o.z}, position, d);
    if (d[0] * d[0] + d[1] * d[1] + d[2] * d[2] < o.radius * o.radius) return true;
  }
  return false;
}

// A boid that ended inside a sphere is put on its surface, its velocity into it reflected; one
// left inside another (overlapping spheres) or outside the box stays where it was, turned back.
void keep_out_of_spheres(const FlockParams& p, double (&x)[3], double (&v)[3],
                         const double (&before)[3]) {
  const double side[3] = {p.world.width, p.world.height, p.world.depth};
  for (const Obstacle& o : p.obstacles) {
    double d[3];
    offset_between(p, {o.x, o.y, o.z}, x, d);
    const double d2 = d[0] * d[0] + d[1] * d[1] + d[2] * d[2];
    if (!(d2 < o.radius * o.radius)) continue;
    const double distance = std::sqrt(d2);
    double n[3] = {1, 0, 0};
    if (distance > 0) {
      for (int a = 0; a < 3; ++a) n[a] = d[a] / distance;
    }
    const double edge = o.radius * (1 + 1e-14);
    const double centre[3] = {o.x, o.y, o.z};
    for (int a = 0; a < 3; ++a) {
      x[a] = centre[a] + n[a] * edge;
      if (p.world.torus()) x[a] = wrap_position(x[a], side[a]);
    }
    const double inward = v[0] * n[0] + v[1] * n[1] + v[2] * n[2];
    if (inward < 0) {
      for (int a = 0; a < 3; ++a) v[a] -= 2 * inward * n[a];
    }
  }
  bool inside_world = true;  // open space holds every point
  for (int a = 0; a < 3; ++a) inside_world = inside_world && p.world.holds(a, x[a]);
  if (!inside_world || inside_a_sphere(p, x)) {
    for (int a = 0; a < 3; ++a) {
      x[a] = before[a];
      v[a] = -v[a];
    }
  }
}

}  // namespace

bool inside_an_obstacle_3d(const FlockParams& p, double x, double y, double z) {
  return inside_a_sphere(p, {x, y, z});
}

void keep_inside_3d(const FlockParams& p, double (&x)[3], double (&v)[3],
                    const double (&before)[3]) {
  if (p.world.walled()) {
    reflect_off_walls(x[0], v[0], p.world.width);
    reflect_off_walls(x[1], v[1], p.world.height);
    reflect_off_walls(x[2], v[2], p.world.depth);
  }
  if (!p.obstacles.empty()) keep_out_of_spheres(p, x, v, before);
}

void land_3d(const FlockParams& p, const FlockState& s, std::size_t i, double dx, double dy,
             double dz, double vx, double vy, double vz, FlockState& next) {
  double x[3] = {s.x[i] + dx, s.y[i] + dy, s.z[i] + dz}, v[3] = {vx, vy, vz};
  if (p.world.torus()) {
    x[0] = wrap_position(x[0], p.world.width);
    x[1] = wrap_position(x[1], p.world.height);
    x[2] = wrap_position(x[2], p.world.depth);
  }
  keep_inside_3d(p, x, v, {s.x[i], s.y[i], s.z[i]});
  next.x[i] = x[0];
  next.y[i] = x[1];
  next.z[i] = x[2];
  next.vx[i] = v[0];
  next.vy[i] = v[1];
  next.vz[i] = v[2];
}

}  // namespace boids::reference
