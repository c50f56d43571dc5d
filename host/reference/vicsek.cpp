// Vicsek et al. 1995: each particle takes the mean heading of its neighbours within r, itself
// first, plus noise, and moves at the constant speed V. Compiled without floating-point
// contraction, like the rest of the reference.
#include <cmath>

#include "host/reference/models.h"

namespace boids::reference {
namespace {

// (x, y) / |(x, y)|; false, leaving it alone, when it has no length.
bool normalise(double& x, double& y) {
  const double length = std::sqrt(x * x + y * y);
  if (!(length > 0)) return false;
  x = x / length;
  y = y / length;
  return true;
}

}  // namespace

void vicsek_step(FlockState& s, const FlockParams& p, const StepContext& context) {
  const std::size_t n = s.size();
  const double r2 = p.radius * p.radius;
  const double V = p.max_speed;
  const double cos_half = cos_half_view(p);
  FlockState next = s;
  for (std::size_t i = 0; i < n; ++i) {
    double hx = s.vx[i], hy = s.vy[i];  // the particle itself
    for (std::size_t j = 0; j < n; ++j) {
      if (j == i) continue;
      double dx, dy;
      offset(p, s.x[i], s.y[i], s.x[j], s.y[j], dx, dy);
      const double d2 = dx * dx + dy * dy;
      if (!sees(p, cos_half, dx, dy, d2, s.vx[i], s.vy[i])) continue;
      if (d2 < r2) {
        hx += s.vx[j];
        hy += s.vy[j];
      }
    }
    if (!normalise(hx, hy)) {  // headings that cancel: its own, or +x without one
      hx = s.vx[i];
      hy = s.vy[i];
      if (!normalise(hx, hy)) {
        hx = 1;
        hy = 0;
      }
    }
    if (p.has_goal) {
      double gx, gy;
      goal_direction(p, s.x[i], s.y[i], gx, gy);
      double tx = hx + p.goal_weight * gx, ty = hy + p.goal_weight * gy;
      if (normalise(tx, ty)) {
        hx = tx;
        hy = ty;
      }
    }
    if (p.noise > 0) {
      double c, sn;
      noise_rotation(p, context, i, c, sn);
      const double turned = c * hx - sn * hy;
      hy = sn * hx + c * hy;
      hx = turned;
    }
    double vx = V * hx, vy = V * hy;
    double dx = vx, dy = vy;
    if (p.wind.x != 0 || p.wind.y != 0) {
      dx += p.wind.x;
      dy += p.wind.y;
    }
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
    }
    keep_inside(p, x, y, vx, vy, s.x[i], s.y[i]);
    next.x[i] = x;
    next.y[i] = y;
    next.vx[i] = vx;
    next.vy[i] = vy;
  }
  s = std::move(next);
}

}  // namespace boids::reference
