// Vicsek et al. 1995: each particle takes the mean heading of its neighbours within r, itself
// first, plus noise, and moves at the constant speed V. Compiled without floating-point
// contraction, like the rest of the reference.
#include <cmath>

#include "host/reference/detail/heeding.h"
#include "host/reference/detail/models.h"

namespace boids::reference {
namespace {

bool normalise(double& x, double& y) {
  double v[2] = {x, y};
  if (!reference::normalise(v, 2)) return false;
  x = v[0];
  y = v[1];
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
    const Heeding heeding = Heeding::of_2d(p, cos_half, s, i);
    for (std::size_t j = 0; j < n; ++j) {
      double dx, dy, d2;
      if (look(p, cos_half, s, i, j, dx, dy, d2) && heeding.heeds(j, d2 < r2)) {
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
    turn_by_noise(p, context, i, hx, hy);
    const double vx = V * hx, vy = V * hy;
    const bool wind = p.wind.x != 0 || p.wind.y != 0;  // it drifts the particles, not steers
    land(p, s, i, wind ? vx + p.wind.x : vx, wind ? vy + p.wind.y : vy, vx, vy, next);
  }
  s = std::move(next);
}

// The model's step in 2D or 3D, as the registry names it (host/model/models.h).
void vicsek_model_step(FlockState& s, const FlockParams& p, const StepContext& context) {
  if (p.dimensions == 3) {
    vicsek_step_3d(s, p, context);
  } else {
    vicsek_step(s, p, context);
  }
}

}  // namespace boids::reference
