// The boids model's rules in a box (docs/3d.md), with the variants carried over so far: the field
// of view as a cone, the separation radius, the noise as a turn within a cone, the goal and the
// wind as 3-vectors, the walls of the box. A plain gather over every other boid in ascending index
// order, written apart from the 2D step and the kernels. Compiled without floating-point
// contraction, as the rest of the reference.
#include <cmath>
#include <vector>

#include "host/reference/detail/heeding.h"
#include "host/reference/detail/models.h"
#include "host/reference/detail/predators.h"
#include "host/reference/detail/space_3d.h"

namespace boids::reference {
namespace {

constexpr double K_SEP = 0.05, K_ALI = 0.05, K_COH = 0.005;  // the boids model's gains
constexpr double K_AVOID = 0.1, K_GOAL = 0.02;               // the world's, per v_max
constexpr double K_WANDER = 0.05, K_PATH = 0.1;              // wander's and the path's, per v_max

struct Sums {
  int count = 0;
  double ax = 0, ay = 0, az = 0;  // alignment: the neighbours' velocities
  double cx = 0, cy = 0, cz = 0;  // cohesion: the offsets to them
  double sx = 0, sy = 0, sz = 0;  // separation: -d / d^2 of the close ones
};

Sums gather(const FlockState& s, const FlockParams& p, std::size_t i, double cos_half) {
  const double r2 = p.radius * p.radius;
  const double sr = p.effective_separation_radius();
  const double s2 = p.separation_radius > 0 ? sr * sr : r2 / 4;
  Sums sums;
  const Heeding heeding = Heeding::of_3d(p, cos_half, s, i);
  for (std::size_t j = 0; j < s.size(); ++j) {
    if (j == i) continue;
    const Offset3 d = offset_3d(p, s, i, j);
    if (!sees_3d(p, cos_half, d, s.vx[i], s.vy[i], s.vz[i])) continue;
    if (!heeding.heeds(j, d.d2 < r2)) continue;
    sums.count += 1;
    sums.ax += s.vx[j];
    sums.ay += s.vy[j];
    sums.az += s.vz[j];
    sums.cx += d.x;
    sums.cy += d.y;
    sums.cz += d.z;
    if (d.d2 < s2 && d.d2 > 0) {
      sums.sx -= d.x / d.d2;
      sums.sy -= d.y / d.d2;
      sums.sz -= d.z / d.d2;
    }
  }
  return sums;
}

}  // namespace

void boids_step_3d(FlockState& s, const FlockParams& p, const StepContext& context) {
  const std::size_t n = s.size();
  const double cos_half = cos_half_view(p);
  const double vmax = p.max_speed, vmin = p.effective_min_speed();
  FlockState next = s;
  for (std::size_t i = 0; i < n; ++i) {
    const Sums g = gather(s, p, i, cos_half);
    double vx = s.vx[i], vy = s.vy[i], vz = s.vz[i];
    if (g.count > 0) {
      vx += p.separation * K_SEP * g.sx + p.alignment * K_ALI * (g.ax / g.count - vx) +
            p.cohesion * K_COH * (g.cx / g.count);
      vy += p.separation * K_SEP * g.sy + p.alignment * K_ALI * (g.ay / g.count - vy) +
            p.cohesion * K_COH * (g.cy / g.count);
      vz += p.separation * K_SEP * g.sz + p.alignment * K_ALI * (g.az / g.count - vz) +
            p.cohesion * K_COH * (g.cz / g.count);
    }
    if (!p.world.torus() || !p.obstacles.empty() || p.has_goal) {  // the world's terms, as in 2D
      double ux, uy, uz, gx, gy, gz;
      avoidance_3d(p, s.x[i], s.y[i], s.z[i], ux, uy, uz);
      goal_direction_3d(p, s.x[i], s.y[i], s.z[i], gx, gy, gz);
      const double avoid = K_AVOID * vmax;
      const double seek = K_GOAL * p.goal_weight * vmax;
      vx += avoid * ux + seek * gx;
      vy += avoid * uy + seek * gy;
      vz += avoid * uz + seek * gz;
    }
    if (p.wander > 0) {
      const double v[3] = {s.vx[i], s.vy[i], s.vz[i]};
      double w[3];
      wander_direction(context, i, v, 3, w);
      const double roam = K_WANDER * p.wander * vmax;
      vx += roam * w[0];
      vy += roam * w[1];
      vz += roam * w[2];
    }
    if (!p.path.empty()) {
      const double x[3] = {s.x[i], s.y[i], s.z[i]}, v[3] = {s.vx[i], s.vy[i], s.vz[i]};
      double d[3];
      if (path_direction(p, x, v, 3, d)) {
        const double follow = K_PATH * p.path_weight * vmax;
        vx += follow * d[0];
        vy += follow * d[1];
        vz += follow * d[2];
      }
    }
    if (p.predators > 0) {  // evading, per v_max as hard as walls push
      const double x[3] = {s.x[i], s.y[i], s.z[i]};
      double e[3];
      evade_direction(p, s.predators, x, 3, e);
      vx += 0.1 * vmax * e[0];
      vy += 0.1 * vmax * e[1];
      vz += 0.1 * vmax * e[2];
    }
    if (p.wind.x != 0 || p.wind.y != 0 || p.wind.z != 0) {
      vx += p.wind.x;
      vy += p.wind.y;
      vz += p.wind.z;
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
    turn_within_cone(p, context, i, vx, vy, vz);
    land_3d(p, s, i, vx, vy, vz, vx, vy, vz, next);
  }
  s = std::move(next);
}

}  // namespace boids::reference
