// The steering model in a box (docs/3d.md), synchronously: the lab's rules with a third
// axis, lengths sqrt(x^2 + y^2 + z^2) where the lab calls Math.hypot, positions wrapped as the
// lab wraps them (fmod) on the torus and reflected between walls. Written apart from the 2D
// step; compiled without floating-point contraction, like the rest of the reference.
#include <cmath>

#include "host/reference/detail/heeding.h"
#include "host/reference/detail/models.h"
#include "host/reference/detail/predators.h"
#include "host/reference/detail/space_3d.h"

namespace boids::reference {
namespace {

double length_or_one(const double (&v)[3]) {
  const double h = std::sqrt(v[0] * v[0] + v[1] * v[1] + v[2] * v[2]);
  return h > 0 ? h : 1;  // the lab's `Math.hypot(...) || 1`
}

// What a boid has gathered of its neighbours.
struct Gathered {
  int neighbors = 0;
  double ali[3] = {0, 0, 0}, coh[3] = {0, 0, 0}, sep[3] = {0, 0, 0};
};

Gathered gather(const FlockState& s, const FlockParams& p, std::size_t i, double cos_half) {
  const double vision2 = p.radius * p.radius;
  const double sep_radius = p.effective_separation_radius();
  const double sep2 = sep_radius * sep_radius;
  Gathered g;
  const Heeding heeding = Heeding::of_3d(p, cos_half, s, i);
  for (std::size_t j = 0; j < s.size(); ++j) {
    if (j == i) continue;
    const Offset3 d = offset_3d(p, s, i, j);
    if (!sees_3d(p, cos_half, d, s.vx[i], s.vy[i], s.vz[i])) continue;
    if (!heeding.heeds(j, d.d2 <= vision2)) continue;
    const double offset[3] = {d.x, d.y, d.z}, velocity[3] = {s.vx[j], s.vy[j], s.vz[j]};
    g.neighbors += 1;
    for (int a = 0; a < 3; ++a) {
      g.ali[a] += velocity[a];
      g.coh[a] += offset[a];
    }
    if (d.d2 < sep2 && d.d2 > 1e-6) {
      const double inv = 1 / d.d2;
      for (int a = 0; a < 3; ++a) g.sep[a] -= offset[a] * inv;
    }
  }
  return g;
}

// The rules' steering force on boid i, with the world's and wander's, truncated to the maximum
// force, and its least speed (--min-speed, 0.35 v_max by default; with arrival, less within the
// radius as the desired speed is).
void steering_force(const FlockState& s, const FlockParams& p, const StepContext& context,
                    std::size_t i, const Gathered& g, double (&force)[3], double& least) {
  least = p.effective_min_speed();
  const double maxSpeed = p.max_speed, maxForce = maxSpeed * 2.4;
  const double position[3] = {s.x[i], s.y[i], s.z[i]}, v[3] = {s.vx[i], s.vy[i], s.vz[i]};
  for (double& f : force) f = 0;
  if (g.neighbors > 0) {
    const double invN = 1.0 / g.neighbors;
    if (p.alignment > 0) {
      const double scale = maxSpeed / length_or_one(g.ali);
      for (int a = 0; a < 3; ++a) force[a] += p.alignment * (g.ali[a] * scale * invN - v[a]);
    }
    if (p.cohesion > 0) {
      double to[3];
      for (int a = 0; a < 3; ++a) to[a] = (position[a] + g.coh[a] * invN) - position[a];
      const double scale = maxSpeed / length_or_one(to);
      for (int a = 0; a < 3; ++a) force[a] += p.cohesion * (to[a] * scale - v[a]);
    }
    if (p.separation > 0) {
      const double scale = maxSpeed / length_or_one(g.sep);
      for (int a = 0; a < 3; ++a) force[a] += p.separation * (g.sep[a] * scale - v[a]) * 1.5;
    }
  }
  if (!p.world.torus() || !p.obstacles.empty() || p.has_goal) {
    double push[3], goal[3];
    avoidance_3d(p, position[0], position[1], position[2], push[0], push[1], push[2]);
    for (int a = 0; a < 3; ++a) force[a] += maxForce * push[a];
    if (p.has_goal) {
      goal_direction_3d(p, position[0], position[1], position[2], goal[0], goal[1], goal[2]);
      for (int a = 0; a < 3; ++a) force[a] += p.goal_weight * (maxSpeed * goal[a] - v[a]);
      if (p.arrival_radius > 0) {
        least = p.effective_min_speed() *
                std::sqrt(goal[0] * goal[0] + goal[1] * goal[1] + goal[2] * goal[2]);
      }
    }
  }
  if (p.wander > 0) {  // across the heading, with up to its weight times v_max
    double w[3];
    wander_direction(context, i, v, 3, w);
    const double roam = p.wander * maxSpeed;
    for (int a = 0; a < 3; ++a) force[a] += roam * w[a];
  }
  if (!p.path.empty()) {  // seeks the path's target at the cruise speed, off the path alone
    double d[3];
    if (path_direction(p, position, v, 3, d)) {
      for (int a = 0; a < 3; ++a) force[a] += p.path_weight * (maxSpeed * d[a] - v[a]);
    }
  }
  if (p.predators > 0) {  // evading, with up to the maximum force per predator
    double e[3];
    evade_direction(p, s.predators, position, 3, e);
    for (int a = 0; a < 3; ++a) force[a] += maxForce * e[a];
  }
  double f[3] = {force[0], force[1], force[2]};
  const bool huge = shrink_if_huge_3d(f[0], f[1], f[2]);
  const double magnitude = std::sqrt(f[0] * f[0] + f[1] * f[1] + f[2] * f[2]);
  if (huge || magnitude > maxForce) {
    for (int a = 0; a < 3; ++a) force[a] = (f[a] / magnitude) * maxForce;
  }
}

// Where the lab puts a boid that moved to x on an axis of the torus of side `side`.
double lab_position(double x, double side) {
  double out = std::fmod(x + side, side);
  if (out < 0) out += side;  // a step longer than the world
  return identify_side_with_zero(out, side);
}

}  // namespace

void steering_step_3d(FlockState& s, const FlockParams& p, const StepContext& context) {
  const double cos_half = cos_half_view(p), maxSpeed = p.max_speed, dt = p.dt;
  const double wind[3] = {p.wind.x, p.wind.y, p.wind.z};
  const bool windy = wind[0] != 0 || wind[1] != 0 || wind[2] != 0;
  FlockState next = s;
  for (std::size_t i = 0; i < s.size(); ++i) {
    double force[3], least = 0;
    steering_force(s, p, context, i, gather(s, p, i, cos_half), force, least);
    const double v[3] = {s.vx[i], s.vy[i], s.vz[i]};
    double nv[3];
    for (int a = 0; a < 3; ++a) nv[a] = v[a] + force[a] * dt;
    if (windy) {
      for (int a = 0; a < 3; ++a) nv[a] += wind[a] * dt;
    }
    double u[3] = {nv[0], nv[1], nv[2]};
    const bool huge = shrink_if_huge_3d(u[0], u[1], u[2]);
    const double speed = std::sqrt(u[0] * u[0] + u[1] * u[1] + u[2] * u[2]);
    if (huge || speed > maxSpeed) {
      for (int a = 0; a < 3; ++a) nv[a] = (u[a] / speed) * maxSpeed;
    } else if (speed < least && speed > 1e-6) {
      const double boost = least / speed;
      for (double& c : nv) c *= boost;
    }
    turn_within_cone(p, context, i, nv[0], nv[1], nv[2]);
    const double sides[3] = {p.world.width, p.world.height, p.world.depth};
    const double position[3] = {s.x[i], s.y[i], s.z[i]};
    double moved[3];
    for (int a = 0; a < 3; ++a) {
      moved[a] = position[a] + nv[a] * dt;
      if (p.world.torus()) moved[a] = lab_position(moved[a], sides[a]);
    }
    keep_inside_3d(p, moved, nv, position);
    next.x[i] = moved[0], next.y[i] = moved[1], next.z[i] = moved[2];
    next.vx[i] = nv[0], next.vy[i] = nv[1], next.vz[i] = nv[2];
  }
  s = std::move(next);
}

}  // namespace boids::reference
