// Vicsek et al. 1995, in 2D or 3D (docs/3d.md) by the same code: each particle takes the mean
// heading of its neighbours within r, itself first, plus noise (a rotation in the plane, a turn
// within the cone of half-angle noise / 2 in the box), and moves at the constant speed V.
// Compiled without floating-point contraction, like the rest of the reference.
#include "host/reference/detail/models.h"
#include "host/reference/detail/space.h"

namespace boids::reference {
namespace {

template <int D>
void vicsek_step(FlockState& s, const FlockParams& p, const StepContext& context) {
  const double cos_half = cos_half_view(p), r2 = p.radius * p.radius;
  FlockState next = s;
  for (std::size_t i = 0; i < s.size(); ++i) {
    const Vector<D> own = velocity_of<D>(s, i);
    Vector<D> h = own;  // the particle itself, then its neighbours
    const Heeding heeding = heeding_of<D>(p, cos_half, s, i);
    for (std::size_t j = 0; j < s.size(); ++j) {
      Vector<D> d;
      double d2;
      if (!look_at<D>(p, cos_half, s, i, j, d, d2) || !heeding.heeds(j, d2 < r2)) continue;
      const Vector<D> v = velocity_of<D>(s, j);
      for (int a = 0; a < D; ++a) h[a] += v[a];
    }
    if (!normalise(h.data(), D)) {  // headings that cancel: its own, or +x without one
      h = own;
      if (!normalise(h.data(), D)) {
        h = {};
        h[0] = 1;
      }
    }
    if (goal_acts(p)) {
      const Vector<D> g = goal_at<D>(p, position_of<D>(s, i));
      Vector<D> pulled;
      for (int a = 0; a < D; ++a) pulled[a] = h[a] + p.goal_weight * g[a];
      if (normalise(pulled.data(), D)) h = pulled;
    }
    turn_by_noise_at<D>(p, context, i, h);
    Vector<D> v, by;
    for (int a = 0; a < D; ++a) v[a] = p.max_speed * h[a];
    by = v;
    if (wind_acts(p)) {  // it drifts the particles, not steers
      const Vector<D> wind = wind_of<D>(p);
      for (int a = 0; a < D; ++a) by[a] = v[a] + wind[a];
    }
    land_at<D>(p, s, i, by, v, next);
  }
  s = std::move(next);
}

}  // namespace

// The model's step in 2D or 3D, as the registry names it (host/model/models.h).
void vicsek_model_step(FlockState& s, const FlockParams& p, const StepContext& context) {
  if (p.dimensions == 3) {
    vicsek_step<3>(s, p, context);
  } else {
    vicsek_step<2>(s, p, context);
  }
}

}  // namespace boids::reference
