// Seed 000's rules in a box (docs/3d.md): the seed's step with a third axis, a plain gather over
// every other boid in ascending index order, written apart from the 2D step and the kernels.
// Compiled without floating-point contraction, as the rest of the reference.
#include <cmath>
#include <vector>

#include "host/errors.h"
#include "host/reference/models.h"

namespace boids::reference {
namespace {

constexpr double K_SEP = 0.05;
constexpr double K_ALI = 0.05;
constexpr double K_COH = 0.005;

// The seed's wrap of an offset on one axis of the torus.
double wrapped(double d, double side) {
  if (d > side / 2) return d - side;
  if (d < -side / 2) return d + side;
  return d;
}

// The seed's wrap of a moved coordinate, the side itself being 0.
double wrapped_position(double x, double side) {
  if (x < 0) {
    x += side;
  } else if (x >= side) {
    x -= side;
  }
  return identify_side_with_zero(x, side);
}

struct Sums {
  int count = 0;
  double ax = 0, ay = 0, az = 0;  // alignment: the neighbours' velocities
  double cx = 0, cy = 0, cz = 0;  // cohesion: the offsets to them
  double sx = 0, sy = 0, sz = 0;  // separation: -d / d^2 of the close ones
};

Sums gather(const FlockState& s, const FlockParams& p, std::size_t i) {
  const double r2 = p.radius * p.radius;
  const double s2 = r2 / 4;
  Sums sums;
  for (std::size_t j = 0; j < s.size(); ++j) {
    if (j == i) continue;
    const double dx = wrapped(s.x[j] - s.x[i], p.world.width);
    const double dy = wrapped(s.y[j] - s.y[i], p.world.height);
    const double dz = wrapped(s.z[j] - s.z[i], p.world.depth);
    const double d2 = dx * dx + dy * dy + dz * dz;
    if (d2 >= r2) continue;
    sums.count += 1;
    sums.ax += s.vx[j];
    sums.ay += s.vy[j];
    sums.az += s.vz[j];
    sums.cx += dx;
    sums.cy += dy;
    sums.cz += dz;
    if (d2 < s2 && d2 > 0) {
      sums.sx -= dx / d2;
      sums.sy -= dy / d2;
      sums.sz -= dz / d2;
    }
  }
  return sums;
}

// Before the speed is taken: components beyond 2^510 scaled by 2^-600, as shrink_if_huge.
bool shrink_if_huge_3d(double& x, double& y, double& z) {
  if (!(std::fabs(x) > 0x1.0p510 || std::fabs(y) > 0x1.0p510 || std::fabs(z) > 0x1.0p510)) {
    return false;
  }
  x *= 0x1.0p-600;
  y *= 0x1.0p-600;
  z *= 0x1.0p-600;
  return true;
}

}  // namespace

void boids_step_3d(FlockState& state, const FlockParams& p) {
  if (!(p.model == Model::kBoids && p.world.torus() && p.separation_radius == 0 && p.fov == 360 &&
        p.noise == 0 && !p.has_goal && p.wind.x == 0 && p.wind.y == 0 && p.obstacles.empty() &&
        p.update == Update::kSynchronous)) {
    throw InputError(
        "in three dimensions the reference flies the seed's rules on a torus only, "
        "so far: no other model and no variants");
  }
  const std::size_t n = state.size();
  std::vector<Sums> sums(n);
  for (std::size_t i = 0; i < n; ++i) sums[i] = gather(state, p, i);
  const double vmax = p.max_speed;
  const double vmin = vmax / 2;
  for (std::size_t i = 0; i < n; ++i) {
    double& vx = state.vx[i];
    double& vy = state.vy[i];
    double& vz = state.vz[i];
    const Sums& g = sums[i];
    if (g.count > 0) {
      vx += p.separation * K_SEP * g.sx + p.alignment * K_ALI * (g.ax / g.count - vx) +
            p.cohesion * K_COH * (g.cx / g.count);
      vy += p.separation * K_SEP * g.sy + p.alignment * K_ALI * (g.ay / g.count - vy) +
            p.cohesion * K_COH * (g.cy / g.count);
      vz += p.separation * K_SEP * g.sz + p.alignment * K_ALI * (g.az / g.count - vz) +
            p.cohesion * K_COH * (g.cz / g.count);
    }
    double ux = vx, uy = vy, uz = vz;
    const bool huge = shrink_if_huge_3d(ux, uy, uz);
    const double speed = std::sqrt(ux * ux + uy * uy + uz * uz);
    if (huge || speed > vmax) {
      vx = ux / speed * vmax;
      vy = uy / speed * vmax;
      vz = uz / speed * vmax;
    } else if (speed < vmin && speed > 0) {
      vx = vx / speed * vmin;
      vy = vy / speed * vmin;
      vz = vz / speed * vmin;
    }
    state.x[i] = wrapped_position(state.x[i] + vx, p.world.width);
    state.y[i] = wrapped_position(state.y[i] + vy, p.world.height);
    state.z[i] = wrapped_position(state.z[i] + vz, p.world.depth);
  }
}

}  // namespace boids::reference
