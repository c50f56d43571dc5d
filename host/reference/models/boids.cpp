// The boids model's rules with every variant, in 2D or 3D (docs/3d.md) by the same code, as a
// gather: each boid visits every other in ascending index order, which adds the same terms in
// the same order as the published step's scatter over pairs. Compiled without floating-point
// contraction, like the rest of the reference.
#include <cmath>
#include <vector>

#include "host/reference/detail/models.h"
#include "host/reference/detail/space.h"
#include "host/reference/detail/terms.h"

namespace boids::reference {
namespace {

constexpr double K_SEP = 0.05, K_ALI = 0.05, K_COH = 0.005;  // the boids model's gains

// What boid i gathers of the neighbours it heeds.
template <int D>
struct Sums {
  int count = 0;
  Vector<D> alignment{};   // their velocities
  Vector<D> cohesion{};    // the offsets to them
  Vector<D> separation{};  // -d / d^2 of the close ones
};

template <int D>
Sums<D> gather(const FlockState& s, const FlockParams& p, std::size_t i, double cos_half) {
  const double r2 = p.radius * p.radius;
  const double sr = p.effective_separation_radius();
  const double s2 = p.separation_radius > 0 ? sr * sr : r2 / 4;
  Sums<D> sums;
  const Heeding heeding = heeding_of<D>(p, cos_half, s, i);
  for (std::size_t j = 0; j < s.size(); ++j) {
    Vector<D> d;
    double d2;
    if (!look_at<D>(p, cos_half, s, i, j, d, d2) || !heeding.heeds(j, d2 < r2)) continue;
    sums.count += 1;
    const Vector<D> v = velocity_of<D>(s, j);
    for (int a = 0; a < D; ++a) {
      sums.alignment[a] += v[a];
      sums.cohesion[a] += d[a];
    }
    if (d2 < s2 && d2 > 0) {
      for (int a = 0; a < D; ++a) sums.separation[a] -= d[a] / d2;
    }
  }
  return sums;
}

// Boid i's velocity after the rules, the world's terms (terms.cpp) and the wind, before its
// speed is clamped.
template <int D>
Vector<D> steer(const FlockState& s, const FlockParams& p, const StepContext& context,
                std::size_t i, const Sums<D>& g) {
  const Vector<D> x = position_of<D>(s, i), before = velocity_of<D>(s, i);
  Vector<D> v = before;
  if (g.count > 0) {
    for (int a = 0; a < D; ++a) {
      v[a] += p.separation * K_SEP * g.separation[a] +
              p.alignment * K_ALI * (g.alignment[a] / g.count - v[a]) +
              p.cohesion * K_COH * (g.cohesion[a] / g.count);
    }
  }
  double least = 0;  // the boids model's least speed is its own (boids_step)
  add_world_terms<D>({p, context, s.predators, i, x, before}, false, v, least);
  if (wind_acts(p)) {
    const Vector<D> wind = wind_of<D>(p);
    for (int a = 0; a < D; ++a) v[a] += wind[a];
  }
  return v;
}

template <int D>
void boids_step(FlockState& s, const FlockParams& p, const StepContext& context) {
  const double cos_half = cos_half_view(p);
  const double vmax = p.max_speed, vmin = p.effective_min_speed();
  FlockState next = s;
  for (std::size_t i = 0; i < s.size(); ++i) {
    Vector<D> v = steer<D>(s, p, context, i, gather<D>(s, p, i, cos_half));
    Vector<D> u = v;
    const bool huge = shrink_huge<D>(u);
    const double speed = std::sqrt(length_sq<D>(u));
    if (huge || speed > vmax) {
      for (int a = 0; a < D; ++a) v[a] = u[a] / speed * vmax;
    } else if (speed < vmin && speed > 0) {
      for (int a = 0; a < D; ++a) v[a] = v[a] / speed * vmin;
    }
    turn_by_noise_at<D>(p, context, i, v);
    land_at<D>(p, s, i, v, v, next);
  }
  s = std::move(next);
}

}  // namespace

// The model's step in 2D or 3D, as the registry names it (host/model/models.h).
void boids_model_step(FlockState& s, const FlockParams& p, const StepContext& context) {
  if (p.dimensions == 3) {
    boids_step<3>(s, p, context);
  } else {
    boids_step<2>(s, p, context);
  }
}

}  // namespace boids::reference
