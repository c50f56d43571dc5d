// The steering model, transcribed from the lab listing's onUpdate: synchronously (every boid from
// the same snapshot, neighbours across the torus's edges, every variant), in 2D or 3D (docs/3d.md:
// the lab's rules with a third axis) by the same code, and in the lab's own order
// (steering_lab_step, 2D). Lengths are sqrt(x^2 + y^2 [+ z^2]) where the lab calls Math.hypot.
// Compiled without floating-point contraction, like the rest of the reference.
#include <algorithm>
#include <cmath>
#include <vector>

#include "host/reference/detail/models.h"
#include "host/reference/detail/space.h"
#include "host/reference/detail/terms.h"

namespace boids::reference {
namespace {

template <int D>
double length_or_one(const Vector<D>& v) {
  const double h = std::sqrt(length_sq<D>(v));
  return h > 0 ? h : 1;  // the lab's `Math.hypot(...) || 1`
}

// What a boid has gathered of its neighbours.
template <int D>
struct Gathered {
  int neighbors = 0;
  Vector<D> ali{}, coh{}, sep{};

  // A neighbour at offset d, d2 = |d|^2, moving at v; sep2 the separation radius squared.
  void add(const Vector<D>& d, double d2, const Vector<D>& v, double sep2) {
    neighbors += 1;
    for (int a = 0; a < D; ++a) {
      ali[a] += v[a];
      coh[a] += d[a];
    }
    if (d2 < sep2 && d2 > 1e-6) {
      const double inv = 1 / d2;
      for (int a = 0; a < D; ++a) sep[a] -= d[a] * inv;
    }
  }
};

// The rules' steering force on a boid at x moving at v, with the world's terms', truncated
// to the maximum force; and its least speed (--min-speed; with arrival it falls within the radius
// as the desired speed does, so that a boid can come to rest at the goal).
template <int D>
Vector<D> steering_force(const FlockParams& p, const StepContext& context,
                         const Particles& predators, std::size_t id, const Gathered<D>& g,
                         const Vector<D>& x, const Vector<D>& v, double& least) {
  const double maxSpeed = p.max_speed, maxForce = maxSpeed * K_MAX_FORCE;
  Vector<D> force{};
  if (g.neighbors > 0) {
    const double invN = 1.0 / g.neighbors;
    if (p.alignment > 0) {
      const double scale = maxSpeed / length_or_one<D>(g.ali);
      for (int a = 0; a < D; ++a) force[a] += p.alignment * (g.ali[a] * scale * invN - v[a]);
    }
    if (p.cohesion > 0) {
      Vector<D> to;
      for (int a = 0; a < D; ++a) to[a] = (x[a] + g.coh[a] * invN) - x[a];
      const double scale = maxSpeed / length_or_one<D>(to);
      for (int a = 0; a < D; ++a) force[a] += p.cohesion * (to[a] * scale - v[a]);
    }
    if (p.separation > 0) {
      const double scale = maxSpeed / length_or_one<D>(g.sep);
      for (int a = 0; a < D; ++a) force[a] += p.separation * (g.sep[a] * scale - v[a]) * 1.5;
    }
  }
  least = p.effective_min_speed();
  add_world_terms<D>({p, context, predators, id, x, v}, true, force, least);
  Vector<D> f = force;
  const bool huge = shrink_huge<D>(f);
  const double magnitude = std::sqrt(length_sq<D>(f));
  if (huge || magnitude > maxForce) {
    for (int a = 0; a < D; ++a) force[a] = (f[a] / magnitude) * maxForce;
  }
  return force;
}

// The lab's integration of a boid at x moving at v: its velocity and position, in place.
template <int D>
void steer_and_move(const FlockParams& p, const StepContext& context, const Particles& predators,
                    std::size_t id, const Gathered<D>& g, Vector<D>& x, Vector<D>& v) {
  const double maxSpeed = p.max_speed, dt = p.dt;
  double least = 0;
  const Vector<D> force = steering_force<D>(p, context, predators, id, g, x, v, least);
  Vector<D> nv;
  for (int a = 0; a < D; ++a) nv[a] = v[a] + force[a] * dt;
  if (wind_acts(p)) {
    const Vector<D> wind = wind_of<D>(p);
    for (int a = 0; a < D; ++a) nv[a] += wind[a] * dt;
  }
  Vector<D> u = nv;
  const bool huge = shrink_huge<D>(u);
  const double speed = std::sqrt(length_sq<D>(u));
  if (huge || speed > maxSpeed) {
    for (int a = 0; a < D; ++a) nv[a] = (u[a] / speed) * maxSpeed;
  } else if (speed < least && speed > 1e-6) {
    const double boost = least / speed;
    for (double& c : nv) c *= boost;
  }
  turn_by_noise_at<D>(p, context, id, nv);
  const double sides[3] = {p.world.width, p.world.height, p.world.depth};
  const Vector<D> before = x;
  for (int a = 0; a < D; ++a) {
    x[a] = before[a] + nv[a] * dt;
    if (p.world.torus()) {  // the lab's wrap
      x[a] = std::fmod(x[a] + sides[a], sides[a]);
      if (x[a] < 0) x[a] += sides[a];  // a step longer than the world
      x[a] = identify_side_with_zero(x[a], sides[a]);
    }
  }
  v = nv;
  keep_inside_at<D>(p, x, v, before);
}

double separation_sq(const FlockParams& p) {
  const double sepRadius = p.effective_separation_radius();
  return sepRadius * sepRadius;
}

template <int D>
void steering_step(FlockState& s, const FlockParams& p, const StepContext& context) {
  const double vision2 = p.radius * p.radius;
  const double sep2 = separation_sq(p);
  const double cos_half = cos_half_view(p);
  FlockState next = s;
  for (std::size_t i = 0; i < s.size(); ++i) {
    Gathered<D> g;
    const Heeding heeding = heeding_of<D>(p, cos_half, s, i);
    for (std::size_t j = 0; j < s.size(); ++j) {
      Vector<D> d;
      double d2;
      if (look_at<D>(p, cos_half, s, i, j, d, d2) && heeding.heeds(j, d2 <= vision2)) {
        g.add(d, d2, velocity_of<D>(s, j), sep2);
      }
    }
    Vector<D> x = position_of<D>(s, i), v = velocity_of<D>(s, i);
    steer_and_move<D>(p, context, s.predators, i, g, x, v);
    store<D>(next, i, x, v);
  }
  s = std::move(next);
}

}  // namespace

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
    Gathered<2> g;
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
          if (d2 <= vision2) g.add({dx, dy}, d2, {s.vx[k], s.vy[k]}, sep2);
        }
      }
    }
    // In place: the boids after this one see its new velocity and position.
    Vector<2> x = position_of<2>(s, i), v = velocity_of<2>(s, i);
    steer_and_move<2>(p, context, s.predators, i, g, x, v);
    store<2>(s, i, x, v);
  }
}

// The model's step in 2D or 3D, as the registry names it (host/model/models.h).
void steering_model_step(FlockState& s, const FlockParams& p, const StepContext& context) {
  if (p.dimensions == 3) {
    steering_step<3>(s, p, context);
  } else {
    steering_step<2>(s, p, context);
  }
}

}  // namespace boids::reference
