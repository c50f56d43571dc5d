// The steering model, transcribed from the lab listing's onUpdate: synchronously (every boid from
// the same snapshot, neighbours across the torus's edges, every variant), and in the lab's own
// order (steering_lab_step). Lengths are sqrt(x^2 + y^2) where the lab calls Math.hypot.
// Compiled without floating-point contraction, like the rest of the reference.
#include <algorithm>
#include <cmath>
#include <vector>

#include "host/reference/detail/heeding.h"
#include "host/reference/detail/models.h"
#include "host/reference/detail/predators.h"

namespace boids::reference {
namespace {

double hypot_or_one(double x, double y) {
  const double h = std::sqrt(x * x + y * y);
  return h > 0 ? h : 1;  // the lab's `Math.hypot(x, y) || 1`
}

// What a boid has gathered of its neighbours.
struct Gathered {
  int neighbors = 0;
  double aliX = 0, aliY = 0, cohX = 0, cohY = 0, sepX = 0, sepY = 0;

  // A neighbour at offset (dx, dy), d2 = |d|^2, moving at (vx, vy); sep2 the separation
  // radius squared.
  void add(double dx, double dy, double d2, double vx, double vy, double sep2) {
    neighbors += 1;
    aliX += vx;
    aliY += vy;
    cohX += dx;
    cohY += dy;
    if (d2 < sep2 && d2 > 1e-6) {
      const double inv = 1 / d2;
      sepX -= dx * inv;
      sepY -= dy * inv;
    }
  }
};

// The lab's rules and integration for one boid: its new velocity and position.
void steer_and_move(const FlockParams& p, const StepContext& context, const Particles& predators,
                    std::size_t id, const Gathered& g, double x, double y, double vx, double vy,
                    double& out_x, double& out_y, double& out_vx, double& out_vy) {
  const double maxSpeed = p.max_speed;
  const double maxForce = maxSpeed * 2.4;
  const double dt = p.dt;
  const double sepW = p.separation, aliW = p.alignment, cohW = p.cohesion;
  double ax = 0;
  double ay = 0;
  if (g.neighbors > 0) {
    const double invN = 1.0 / g.neighbors;
    if (aliW > 0) {
      const double scale = maxSpeed / hypot_or_one(g.aliX, g.aliY);
      ax += aliW * (g.aliX * scale * invN - vx);
      ay += aliW * (g.aliY * scale * invN - vy);
    }
    if (cohW > 0) {
      const double cx = x + g.cohX * invN;
      const double cy = y + g.cohY * invN;
      const double toX = cx - x;
      const double toY = cy - y;
      const double scale = maxSpeed / hypot_or_one(toX, toY);
      ax += cohW * (toX * scale - vx);
      ay += cohW * (toY * scale - vy);
    }
    if (sepW > 0) {
      const double scale = maxSpeed / hypot_or_one(g.sepX, g.sepY);
      ax += sepW * (g.sepX * scale - vx) * 1.5;
      ay += sepW * (g.sepY * scale - vy) * 1.5;
    }
  }
  // The least speed; with arrival it falls within the radius as the desired speed does, so
  // that a boid can come to rest at the goal.
  double least = p.effective_min_speed();
  if (!p.world.torus() || !p.obstacles.empty() || p.has_goal) {
    double ux = 0, uy = 0;
    avoidance(p, x, y, ux, uy);
    ax += maxForce * ux;
    ay += maxForce * uy;
    if (p.has_goal) {
      double gx, gy;
      goal_direction(p, x, y, gx, gy);
      ax += p.goal_weight * (maxSpeed * gx - vx);
      ay += p.goal_weight * (maxSpeed * gy - vy);
      if (p.arrival_radius > 0) least = p.effective_min_speed() * std::sqrt(gx * gx + gy * gy);
    }
  }
  if (p.wander > 0) {  // across the heading, with up to its weight times v_max
    const double v[2] = {vx, vy};
    double w[2];
    wander_direction(context, id, v, 2, w);
    const double roam = p.wander * maxSpeed;
    ax += roam * w[0];
    ay += roam * w[1];
  }
  if (!p.path.empty()) {  // seeks the path's target at the cruise speed, off the path alone
    const double position[2] = {x, y}, v[2] = {vx, vy};
    double d[2];
    if (path_direction(p, position, v, 2, d)) {
      ax += p.path_weight * (maxSpeed * d[0] - vx);
      ay += p.path_weight * (maxSpeed * d[1] - vy);
    }
  }
  if (p.predators > 0) {  // evading, with up to the maximum force per predator
    const double position[2] = {x, y};
    double e[2];
    evade_direction(p, predators, position, 2, e);
    ax += maxForce * e[0];
    ay += maxForce * e[1];
  }
  double fx = ax, fy = ay;
  const bool huge_force = shrink_if_huge(fx, fy);
  const double mag = std::sqrt(fx * fx + fy * fy);
  if (huge_force || mag > maxForce) {
    ax = (fx / mag) * maxForce;
    ay = (fy / mag) * maxForce;
  }
  double nvx = vx + ax * dt;
  double nvy = vy + ay * dt;
  if (p.wind.x != 0 || p.wind.y != 0) {
    nvx += p.wind.x * dt;
    nvy += p.wind.y * dt;
  }
  double ux = nvx, uy = nvy;
  const bool huge = shrink_if_huge(ux, uy);
  const double speed = std::sqrt(ux * ux + uy * uy);
  if (huge || speed > maxSpeed) {
    nvx = (ux / speed) * maxSpeed;
    nvy = (uy / speed) * maxSpeed;
  } else if (speed < least && speed > 1e-6) {
    const double boost = least / speed;
    nvx *= boost;
    nvy *= boost;
  }
  turn_by_noise(p, context, id, nvx, nvy);
  const double width = p.world.width, height = p.world.height;
  if (p.world.torus()) {
    out_x = std::fmod(x + nvx * dt + width, width);
    out_y = std::fmod(y + nvy * dt + height, height);
    if (out_x < 0) out_x += width;  // a step longer than the world
    if (out_y < 0) out_y += height;
    out_x = identify_side_with_zero(out_x, width);
    out_y = identify_side_with_zero(out_y, height);
  } else {
    out_x = x + nvx * dt;
    out_y = y + nvy * dt;
  }
  out_vx = nvx;
  out_vy = nvy;
  keep_inside(p, out_x, out_y, out_vx, out_vy, x, y);
}

double separation_sq(const FlockParams& p) {
  const double sepRadius = p.effective_separation_radius();
  return sepRadius * sepRadius;
}

}  // namespace

void steering_step(FlockState& s, const FlockParams& p, const StepContext& context) {
  const std::size_t n = s.size();
  const double vision2 = p.radius * p.radius;
  const double sep2 = separation_sq(p);
  const double cos_half = cos_half_view(p);
  FlockState next = s;
  for (std::size_t i = 0; i < n; ++i) {
    Gathered g;
    const Heeding heeding = Heeding::of_2d(p, cos_half, s, i);
    for (std::size_t j = 0; j < n; ++j) {
      double dx, dy, d2;
      if (look(p, cos_half, s, i, j, dx, dy, d2) && heeding.heeds(j, d2 <= vision2)) {
        g.add(dx, dy, d2, s.vx[j], s.vy[j], sep2);
      }
    }
    steer_and_move(p, context, s.predators, i, g, s.x[i], s.y[i], s.vx[i], s.vy[i], next.x[i],
                   next.y[i], next.vx[i], next.vy[i]);
  }
  s = std::move(next);
}

void steering_lab_step(FlockState& s, const FlockParams& p, const StepContext& context) {
  const std::size_t n = s.size();
  const double vision = p.radius;
  const double vision2 = vision * vision;
  const double sep2 = separation_sq(p);
  const double cell = std::max(8.0, vision);
  const double width = p.world.width, height = p.world.height;
  // rebuildHash(): cells of max(8, vision), linked lists with the last boid inserted first.
  const auto gridW = static_cast<long long>(std::max(1.0, std::ceil(width / cell)));
  const auto gridH = static_cast<long long>(std::max(1.0, std::ceil(height / cell)));
  const auto cell_of = [&](double position, long long cells) {
    const auto c = static_cast<long long>(position / cell);  // JavaScript's `| 0` for >= 0
    return std::min(cells - 1, std::max(0LL, c));
  };
  std::vector<long long> head(static_cast<std::size_t>(gridW * gridH), -1);
  std::vector<long long> next(n);
  for (std::size_t i = 0; i < n; ++i) {
    const long long c = cell_of(s.y[i], gridH) * gridW + cell_of(s.x[i], gridW);
    next[i] = head[static_cast<std::size_t>(c)];
    head[static_cast<std::size_t>(c)] = static_cast<long long>(i);
  }
  for (std::size_t i = 0; i < n; ++i) {
    const long long gx = cell_of(s.x[i], gridW);
    const long long gy = cell_of(s.y[i], gridH);
    Gathered g;
    for (long long oy = -1; oy <= 1; ++oy) {
      const long long ny = gy + oy;
      if (ny < 0 || ny >= gridH) continue;
      for (long long ox = -1; ox <= 1; ++ox) {
        const long long nx = gx + ox;
        if (nx < 0 || nx >= gridW) continue;
        for (long long j = head[static_cast<std::size_t>(ny * gridW + nx)]; j != -1;
             j = next[static_cast<std::size_t>(j)]) {
          if (j == static_cast<long long>(i)) continue;
          const auto k = static_cast<std::size_t>(j);
          const double dx = s.x[k] - s.x[i];
          const double dy = s.y[k] - s.y[i];
          const double d2 = dx * dx + dy * dy;
          if (d2 <= vision2) g.add(dx, dy, d2, s.vx[k], s.vy[k], sep2);
        }
      }
    }
    // In place: the boids after this one see its new velocity and position.
    steer_and_move(p, context, s.predators, i, g, s.x[i], s.y[i], s.vx[i], s.vy[i], s.x[i], s.y[i],
                   s.vx[i], s.vy[i]);
  }
}

// The model's step in 2D or 3D, as the registry names it (host/model/models.h).
void steering_model_step(FlockState& s, const FlockParams& p, const StepContext& context) {
  if (p.dimensions == 3) {
    steering_step_3d(s, p, context);
  } else {
    steering_step(s, p, context);
  }
}

}  // namespace boids::reference
