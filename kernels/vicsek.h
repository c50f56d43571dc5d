// Vicsek et al. 1995 (Phys. Rev. Lett. 75, 1226): particles at a constant speed V take the
// mean heading of their neighbours within r, themselves included, plus noise uniform in
// [-eta/2, eta/2]; positions advance with the new velocity, one unit of time a step. The boids'
// weights do not apply. Velocities keep the speed V, so the sum of the neighbours' velocities
// points where the sum of their headings does.
//
// Variants: a goal adds goal_weight times the unit direction to it to the mean heading; wind is
// a drift added to every step's displacement; walls and obstacles reflect particles, which do
// not steer around them.
#pragma once

#include "kernels/rules.h"

namespace boids::kernels {

template <typename Real, int Lanes = 1>
struct HeadingSums {
  int count[Lanes];
  Real velocity_x[Lanes], velocity_y[Lanes];
};

struct Vicsek {
  template <typename Real, int Lanes>
  using Sums = HeadingSums<Real, Lanes>;

  // The particle is its own first neighbour.
  template <typename Real, int Lanes>
  BOIDS_HD static void start(Sums<Real, Lanes>& sums, int lane, const Boid<Real>& self) {
    sums.count[lane] = 1;
    sums.velocity_x[lane] = self.vx;
    sums.velocity_y[lane] = self.vy;
  }

  template <typename Real, int Lanes>
  BOIDS_HD static void add(Sums<Real, Lanes>& sums, int lane, Real, Real, Real d2,
                           const Boid<Real>& other, const StepParams<Real>& p, bool seen) {
    const bool near = seen & (d2 < p.radius_sq);
    sums.count[lane] += static_cast<int>(near);
    sums.velocity_x[lane] += near ? other.vx : Real(0);
    sums.velocity_y[lane] += near ? other.vy : Real(0);
  }

  template <bool Extras, typename Real, int Lanes>
  BOIDS_HD BOIDS_INLINE static Boid<Real> advance(Boid<Real> b, const Sums<Real, Lanes>& sums,
                                                  const LaneTerms<Real, Lanes>& terms, int lane,
                                                  const StepParams<Real>& p) {
    Real hx = sums.velocity_x[lane], hy = sums.velocity_y[lane];
    if (!unit_direction(hx, hy)) {  // headings that cancel: keep one's own
      hx = b.vx;
      hy = b.vy;
      if (!unit_direction(hx, hy)) {
        hx = Real(1);
        hy = Real(0);
      }
    }
    if constexpr (!Extras) {
      b.vx = p.max_speed * hx;
      b.vy = p.max_speed * hy;
      b.x = wrap_position(b.x + b.vx, p.width);
      b.y = wrap_position(b.y + b.vy, p.height);
      return b;
    }
    if (p.has_goal) {
      Real tx = hx + p.goal_weight * terms.goal_x[lane];
      Real ty = hy + p.goal_weight * terms.goal_y[lane];
      if (unit_direction(tx, ty)) {
        hx = tx;
        hy = ty;
      }
    }
    if (p.has_noise) rotate(hx, hy, terms.turn_cos[lane], terms.turn_sin[lane]);
    b.vx = p.max_speed * hx;
    b.vy = p.max_speed * hy;
    return move_in_world(b, p.has_wind ? b.vx + p.wind_x : b.vx,
                         p.has_wind ? b.vy + p.wind_y : b.vy, p);
  }

 private:
  // Scales (x, y) to length 1; false, leaving it alone, when it has no length.
  template <typename Real>
  BOIDS_HD static bool unit_direction(Real& x, Real& y) {
    const Real length = square_root(x * x + y * y);
    if (!(length > Real(0))) return false;
    x = x / length;
    y = y / length;
    return true;
  }
};

}  // namespace boids::kernels
