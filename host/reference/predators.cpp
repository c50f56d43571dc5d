// Compiled without floating-point contraction, like the rest of the reference.
#include "host/reference/detail/predators.h"

#include <cmath>
#include <cstddef>

#include "host/reference/detail/space.h"
#include "host/reference/detail/world.h"

namespace boids::reference {
namespace {

// Coordinate `a` of particle i of `g`.
double coordinate(const Particles& g, std::size_t i, int a) {
  return a == 0 ? g.x[i] : (a == 1 ? g.y[i] : g.z[i]);
}
double velocity(const Particles& g, std::size_t i, int a) {
  return a == 0 ? g.vx[i] : (a == 1 ? g.vy[i] : g.vz[i]);
}

double side_of(const FlockParams& p, int a) {
  return a == 0 ? p.world.width : (a == 1 ? p.world.height : p.world.depth);
}

// The offset from `from` to `to`, the shortest way on the torus; its squared length.
double offset_n(const FlockParams& p, const double* from, const double* to, int n, double* d) {
  double d2 = 0;
  for (int a = 0; a < n; ++a) {
    d[a] = to[a] - from[a];
    if (p.world.torus()) d[a] = wrap(d[a], side_of(p, a));
    d2 = a == 0 ? d[a] * d[a] : d2 + d[a] * d[a];
  }
  return d2;
}

// keep_inside_at and avoidance_at (space.h) on a particle's arrays of D components.
template <int D>
void kept_inside(const FlockParams& p, double* x, double* v, const double* before) {
  Vector<D> at, w, from;
  for (int a = 0; a < D; ++a) at[a] = x[a], w[a] = v[a], from[a] = before[a];
  keep_inside_at<D>(p, at, w, from);
  for (int a = 0; a < D; ++a) x[a] = at[a], v[a] = w[a];
}

template <int D>
void pushed(const FlockParams& p, const double* at, double* push) {
  Vector<D> x;
  for (int a = 0; a < D; ++a) x[a] = at[a];
  const Vector<D> u = avoidance_at<D>(p, x);
  for (int a = 0; a < D; ++a) push[a] = u[a];
}

double length_n(const double* v, int n) {
  double square = v[0] * v[0];
  for (int a = 1; a < n; ++a) square += v[a] * v[a];
  return std::sqrt(square);
}

// The model's move of a particle from `at` by velocity v: x + v dt, wrapped on the torus as the
// model wraps (the boids model's wrap, or the lab's fmod), then kept inside the walls and out of
// the obstacles.
void move(const FlockParams& p, const double* at, double* v, int n, double* x) {
  const bool lab = p.model == Model::kSteering;
  for (int a = 0; a < n; ++a) {
    const double side = side_of(p, a);
    x[a] = lab ? at[a] + v[a] * p.dt : at[a] + v[a];
    if (!p.world.torus()) continue;
    if (lab) {
      x[a] = std::fmod(x[a] + side, side);
      if (x[a] < 0) x[a] += side;
      x[a] = identify_side_with_zero(x[a], side);
    } else {
      x[a] = wrap_position(x[a], side);
    }
  }
  if (n == 2) {
    kept_inside<2>(p, x, v, at);
  } else {
    kept_inside<3>(p, x, v, at);
  }
}

}  // namespace

void evade_direction(const FlockParams& p, const Particles& predators, const double* x, int n,
                     double* out) {
  const double reach = p.effective_flee_radius(), top = p.effective_predator_speed();
  for (int a = 0; a < n; ++a) out[a] = 0;
  for (std::size_t k = 0; k < predators.size(); ++k) {
    double q[3], d[3], away[3] = {};  // zeroed: GCC cannot see that n >= 1
    for (int a = 0; a < n; ++a) q[a] = coordinate(predators, k, a);
    const double distance = std::sqrt(offset_n(p, x, q, n, d));
    if (!(distance < reach)) continue;
    const double time = distance / top;
    for (int a = 0; a < n; ++a) away[a] = -d[a] - velocity(predators, k, a) * time;
    const double length = length_n(away, n);
    if (!(length > 0)) continue;
    const double urgency = 1 - distance / reach;
    for (int a = 0; a < n; ++a) out[a] += urgency * (away[a] / length);
  }
}

Particles pursue(const FlockState& s, const FlockParams& p) {
  const int n = p.dimensions;
  const double top = p.effective_predator_speed();
  const double most = top * (p.model == Model::kSteering ? K_MAX_FORCE : 0.1);
  const double dt = p.model == Model::kSteering ? p.dt : 1.0;
  Particles next = s.predators;
  for (std::size_t k = 0; k < s.predators.size(); ++k) {
    double at[3] = {}, v[3] = {};
    for (int a = 0; a < n; ++a) {
      at[a] = coordinate(s.predators, k, a);
      v[a] = velocity(s.predators, k, a);
    }
    // The nearest boid: the first of the least squared distance.
    bool found = false;
    std::size_t target = 0;
    double best = 0, to[3] = {};
    for (std::size_t j = 0; j < s.size(); ++j) {
      double x[3], d[3];
      for (int a = 0; a < n; ++a) x[a] = coordinate(s, j, a);
      const double d2 = offset_n(p, at, x, n, d);
      if (found && !(d2 < best)) continue;
      found = true;
      target = j;
      best = d2;
      for (int a = 0; a < n; ++a) to[a] = d[a];
    }
    double steer[3] = {0, 0, 0};
    if (found) {
      const double time = std::sqrt(best) / top;
      double ahead[3];
      for (int a = 0; a < n; ++a) ahead[a] = to[a] + velocity(s, target, a) * time;
      const double length = length_n(ahead, n);
      for (int a = 0; a < n; ++a) steer[a] = (length > 0 ? ahead[a] / length * top : 0) - v[a];
    }
    double push[3] = {0, 0, 0};
    if (n == 2) {
      pushed<2>(p, at, push);
    } else {
      pushed<3>(p, at, push);
    }
    for (int a = 0; a < n; ++a) steer[a] += most * push[a];
    const double magnitude = length_n(steer, n);
    for (int a = 0; a < n; ++a) {
      if (magnitude > most) steer[a] = steer[a] / magnitude * most;
      v[a] = v[a] + steer[a] * dt;
    }
    const double speed = length_n(v, n);
    if (speed > top) {
      for (int a = 0; a < n; ++a) v[a] = v[a] / speed * top;
    }
    double x[3];
    move(p, at, v, n, x);
    std::vector<double>* position[3] = {&next.x, &next.y, &next.z};
    std::vector<double>* heading[3] = {&next.vx, &next.vy, &next.vz};
    for (int a = 0; a < n; ++a) {
      (*position[a])[k] = x[a];
      (*heading[a])[k] = v[a];
    }
  }
  return next;
}

}  // namespace boids::reference
