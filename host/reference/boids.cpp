// The boids model's rules with every variant, as a gather: each boid visits every other in
// ascending index order, which adds the same terms in the same order as the published step's
// scatter over pairs. Compiled without floating-point contraction, like the rest of the reference.
#include <cmath>
#include <vector>

#include "host/reference/detail/heeding.h"
#include "host/reference/detail/models.h"
#include "host/reference/detail/predators.h"

namespace boids::reference {

void boids_step(FlockState& s, const FlockParams& p, const StepContext& context) {
  const double K_SEP = 0.05, K_ALI = 0.05, K_COH = 0.005;  // the boids model's gains
  const double K_AVOID = 0.1, K_GOAL = 0.02;               // the world's, per v_max
  const double K_WANDER = 0.05, K_PATH = 0.1;              // wander's and the path's, per v_max
  const double K_EVADE = 0.1;                              // evading predators, per v_max
  const std::size_t n = s.size();
  const double r2 = p.radius * p.radius;
  const double sr = p.effective_separation_radius();
  const double s2 = p.separation_radius > 0 ? sr * sr : r2 / 4;
  const double cos_half = cos_half_view(p);
  const double vmax = p.max_speed, vmin = p.effective_min_speed();
  const bool world_terms = !p.world.torus() || !p.obstacles.empty() || p.has_goal;
  FlockState next = s;
  for (std::size_t i = 0; i < n; ++i) {
    int cnt = 0;
    double ax = 0, ay = 0, cx = 0, cy = 0, sx = 0, sy = 0;
    const Heeding heeding = Heeding::of_2d(p, cos_half, s, i);
    for (std::size_t j = 0; j < n; ++j) {
      double dx, dy, d2;
      if (!look(p, cos_half, s, i, j, dx, dy, d2) || !heeding.heeds(j, d2 < r2)) continue;
      cnt += 1;
      ax += s.vx[j];
      ay += s.vy[j];
      cx += dx;
      cy += dy;
      if (d2 < s2 && d2 > 0) {
        sx -= dx / d2;
        sy -= dy / d2;
      }
    }
    double vx = s.vx[i], vy = s.vy[i];
    if (cnt > 0) {
      vx += p.separation * K_SEP * sx + p.alignment * K_ALI * (ax / cnt - vx) +
            p.cohesion * K_COH * (cx / cnt);
      vy += p.separation * K_SEP * sy + p.alignment * K_ALI * (ay / cnt - vy) +
            p.cohesion * K_COH * (cy / cnt);
    }
    if (world_terms) {
      double ux = 0, uy = 0, gx = 0, gy = 0;
      avoidance(p, s.x[i], s.y[i], ux, uy);
      goal_direction(p, s.x[i], s.y[i], gx, gy);
      const double avoid = K_AVOID * vmax;
      const double seek = K_GOAL * p.goal_weight * vmax;
      vx += avoid * ux + seek * gx;
      vy += avoid * uy + seek * gy;
    }
    if (p.wander > 0) {
      const double v[2] = {s.vx[i], s.vy[i]};
      double w[2];
      wander_direction(context, i, v, 2, w);
      const double roam = K_WANDER * p.wander * vmax;
      vx += roam * w[0];
      vy += roam * w[1];
    }
    if (!p.path.empty()) {
      const double x[2] = {s.x[i], s.y[i]}, v[2] = {s.vx[i], s.vy[i]};
      double d[2];
      if (path_direction(p, x, v, 2, d)) {
        const double follow = K_PATH * p.path_weight * vmax;
        vx += follow * d[0];
        vy += follow * d[1];
      }
    }
    if (p.predators > 0) {
      const double x[2] = {s.x[i], s.y[i]};
      double e[2];
      evade_direction(p, s.predators, x, 2, e);
      vx += K_EVADE * vmax * e[0];
      vy += K_EVADE * vmax * e[1];
    }
    if (p.wind.x != 0 || p.wind.y != 0) {
      vx += p.wind.x;
      vy += p.wind.y;
    }
    double ux = vx, uy = vy;
    const bool huge = shrink_if_huge(ux, uy);
    const double speed = std::sqrt(ux * ux + uy * uy);
    if (huge || speed > vmax) {
      vx = ux / speed * vmax;
      vy = uy / speed * vmax;
    } else if (speed < vmin && speed > 0) {
      vx = vx / speed * vmin;
      vy = vy / speed * vmin;
    }
    turn_by_noise(p, context, i, vx, vy);
    land(p, s, i, vx, vy, vx, vy, next);
  }
  s = std::move(next);
}

// The model's step in 2D or 3D, as the registry names it (host/model/models.h).
void boids_model_step(FlockState& s, const FlockParams& p, const StepContext& context) {
  if (p.dimensions == 3) {
    boids_step_3d(s, p, context);
  } else {
    boids_step(s, p, context);
  }
}

}  // namespace boids::reference
