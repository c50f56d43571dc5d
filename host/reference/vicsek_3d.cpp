// Vicsek et al. 1995 in a box (docs/3d.md): each particle takes the mean heading of its
// neighbours within r, itself first, turned by the noise to a direction uniform within the cone
// of half-angle noise / 2 around it, and moves at the constant speed V. Compiled without
// floating-point contraction, like the rest of the reference.
#include "host/reference/detail/heeding.h"
#include "host/reference/detail/models.h"
#include "host/reference/detail/space_3d.h"

namespace boids::reference {

void vicsek_step_3d(FlockState& s, const FlockParams& p, const StepContext& context) {
  const double cos_half = cos_half_view(p), r2 = p.radius * p.radius;
  FlockState next = s;
  for (std::size_t i = 0; i < s.size(); ++i) {
    const double own[3] = {s.vx[i], s.vy[i], s.vz[i]};
    double h[3] = {own[0], own[1], own[2]};  // the particle itself, then its neighbours
    const Heeding heeding = Heeding::of_3d(p, cos_half, s, i);
    for (std::size_t j = 0; j < s.size(); ++j) {
      if (j == i) continue;
      const Offset3 d = offset_3d(p, s, i, j);
      if (!sees_3d(p, cos_half, d, own[0], own[1], own[2])) continue;
      if (!heeding.heeds(j, d.d2 < r2)) continue;
      h[0] += s.vx[j];
      h[1] += s.vy[j];
      h[2] += s.vz[j];
    }
    if (!normalise(h, 3)) {  // headings that cancel: its own, or +x without one
      for (int k = 0; k < 3; ++k) h[k] = own[k];
      if (!normalise(h, 3)) h[0] = 1, h[1] = h[2] = 0;
    }
    if (p.has_goal) {
      double g[3];
      goal_direction_3d(p, s.x[i], s.y[i], s.z[i], g[0], g[1], g[2]);
      double pulled[3];
      for (int k = 0; k < 3; ++k) pulled[k] = h[k] + p.goal_weight * g[k];
      if (normalise(pulled, 3)) {
        for (int k = 0; k < 3; ++k) h[k] = pulled[k];
      }
    }
    turn_within_cone(p, context, i, h[0], h[1], h[2]);
    const double v[3] = {p.max_speed * h[0], p.max_speed * h[1], p.max_speed * h[2]};
    const bool wind = p.wind.x != 0 || p.wind.y != 0 || p.wind.z != 0;  // a drift, not a steer
    land_3d(p, s, i, wind ? v[0] + p.wind.x : v[0], wind ? v[1] + p.wind.y : v[1],
            wind ? v[2] + p.wind.z : v[2], v[0], v[1], v[2], next);
  }
  s = std::move(next);
}

}  // namespace boids::reference
