// Compiled without floating-point contraction, like the rest of the reference.
#include "host/reference/detail/world.h"

#include <algorithm>
#include <cmath>

namespace boids::reference {

ActiveTerms active_terms(const FlockParams& p) {
  ActiveTerms on;
  on.goal = p.has_goal;
  on.push_or_pull = p.world.walled() || !p.obstacles.empty() || on.goal;
  on.wander = p.wander > 0;
  on.path = !p.path.empty();
  on.predators = p.predators > 0;
  on.wind = p.wind.x != 0 || p.wind.y != 0 || (p.dimensions == 3 && p.wind.z != 0);
  on.noise = p.noise > 0;
  return on;
}
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

bool shrink_if_huge(double& x, double& y) {
  if (!(std::fabs(x) > 0x1.0p510 || std::fabs(y) > 0x1.0p510)) return false;
  x *= 0x1.0p-600;
  y *= 0x1.0p-600;
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

void offset(const FlockParams& p, double ax, double ay, double bx, double by, double& dx,
            double& dy) {
  dx = bx - ax;
  dy = by - ay;
  if (p.world.torus()) {
    dx = wrap(dx, p.world.width);
    dy = wrap(dy, p.world.height);
  }
}

double cos_half_view(const FlockParams& p) {
  double c = 1, s = 0;
  polynomial_cos_sin(p.fov / 2 * kPi / 180, c, s);
  return c;
}

bool sees(const FlockParams& p, double cos_half, double dx, double dy, double d2, double vx,
          double vy) {
  if (p.fov >= 360) return true;
  const double v2 = vx * vx + vy * vy;
  if (v2 == 0) return true;  // a boid at rest sees all around
  // d.v >= c |d||v| after t -> t |t| on both sides (increasing, so the same test), which
  // needs no square root: the kernels' form, so that naive double agrees bit for bit.
  const double along = dx * vx + dy * vy;
  return along * std::fabs(along) >= cos_half * std::fabs(cos_half) * v2 * d2;
}

bool look(const FlockParams& p, double cos_half, const FlockState& s, std::size_t i, std::size_t j,
          double& dx, double& dy, double& d2) {
  if (j == i) return false;
  offset(p, s.x[i], s.y[i], s.x[j], s.y[j], dx, dy);
  d2 = dx * dx + dy * dy;
  return sees(p, cos_half, dx, dy, d2, s.vx[i], s.vy[i]);
}

void turn_by_noise(const FlockParams& p, const StepContext& context, std::uint64_t id, double& x,
                   double& y) {
  if (!active_terms(p).noise) return;
  double c, sn;
  noise_rotation(p, context, id, c, sn);
  const double turned = c * x - sn * y;
  y = sn * x + c * y;
  x = turned;
}

void avoidance(const FlockParams& p, double x, double y, double& ux, double& uy) {
  if (p.world.walled()) {
    const double reach = p.effective_wall_distance();
    const double W = p.world.width, H = p.world.height;
    if (x < reach) ux += 1 - x / reach;
    if (W - x < reach) ux -= 1 - (W - x) / reach;
    if (y < reach) uy += 1 - y / reach;
    if (H - y < reach) uy -= 1 - (H - y) / reach;
  }
  if (p.obstacles.empty()) return;
  const double reach = std::sqrt(p.radius * p.radius);
  for (const Obstacle& o : p.obstacles) {
    double dx, dy;
    offset(p, o.x, o.y, x, y, dx, dy);
    const double d = std::sqrt(dx * dx + dy * dy);
    const double gap = d - o.radius;
    if (!(d > 0) || gap >= reach) continue;
    const double urgency = gap > 0 ? 1 - gap / reach : 1;
    ux += urgency * dx / d;
    uy += urgency * dy / d;
  }
}

void goal_direction(const FlockParams& p, double x, double y, double& gx, double& gy) {
  gx = gy = 0;
  if (!active_terms(p).goal) return;
  double dx, dy;
  offset(p, x, y, p.goal.x, p.goal.y, dx, dy);
  const double d = std::sqrt(dx * dx + dy * dy);
  if (d > 0) {
    const double over = std::max(d, p.arrival_radius);  // arrival: shorter within its radius
    gx = dx / over;
    gy = dy / over;
  }
}

void keep_inside(const FlockParams& p, double& x, double& y, double& vx, double& vy,
                 double before_x, double before_y) {
  const double W = p.world.width, H = p.world.height;
  if (p.world.walled()) {
    reflect_off_walls(x, vx, W);
    reflect_off_walls(y, vy, H);
  }
  for (const Obstacle& o : p.obstacles) {
    double dx, dy;
    offset(p, o.x, o.y, x, y, dx, dy);
    const double d2 = dx * dx + dy * dy;
    if (!(d2 < o.radius * o.radius)) continue;
    const double d = std::sqrt(d2);
    double nx = 1, ny = 0;
    if (d > 0) {
      nx = dx / d;
      ny = dy / d;
    }
    const double edge = o.radius * (1 + 1e-14);
    x = o.x + nx * edge;
    y = o.y + ny * edge;
    if (p.world.torus()) {
      x = wrap_position(x, W);
      y = wrap_position(y, H);
    }
    const double inward = vx * nx + vy * ny;
    if (inward < 0) {
      vx -= 2 * inward * nx;
      vy -= 2 * inward * ny;
    }
  }
  if (p.obstacles.empty() && p.world.torus()) return;
  bool inside_world = p.world.holds(0, x) && p.world.holds(1, y);  // open space holds all
  bool in_an_obstacle = false;
  for (const Obstacle& o : p.obstacles) {
    if (!inside_world) break;
    double dx, dy;
    offset(p, o.x, o.y, x, y, dx, dy);
    if (dx * dx + dy * dy < o.radius * o.radius) {
      in_an_obstacle = true;
      break;
    }
  }
  if (!inside_world || in_an_obstacle) {  // overlapping obstacles: stay, and turn back
    x = before_x;
    y = before_y;
    vx = -vx;
    vy = -vy;
  }
}

void land(const FlockParams& p, const FlockState& s, std::size_t i, double dx, double dy, double vx,
          double vy, FlockState& next) {
  double x = s.x[i] + dx, y = s.y[i] + dy;
  if (p.world.torus()) {
    if (x < 0) {
      x += p.world.width;
    } else if (x >= p.world.width) {
      x -= p.world.width;
    }
    if (y < 0) {
      y += p.world.height;
    } else if (y >= p.world.height) {
      y -= p.world.height;
    }
    x = identify_side_with_zero(x, p.world.width);
    y = identify_side_with_zero(y, p.world.height);
  }
  keep_inside(p, x, y, vx, vy, s.x[i], s.y[i]);
  next.x[i] = x;
  next.y[i] = y;
  next.vx[i] = vx;
  next.vy[i] = vy;
}

}  // namespace boids::reference
