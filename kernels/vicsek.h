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

  // The new velocity: speed V along the neighbours' mean heading (one's own where the headings
  // cancel, +x for a particle at rest too), turned towards the goal and by the noise. Selects,
  // not branches, so that a block's lanes vectorise.
  // Returns whether a length was too large for the seed's arithmetic (see length_of).
  template <typename E, bool Large, typename Real, int Lanes>
  BOIDS_HD BOIDS_INLINE static bool steer(Real, Real, Real& vx, Real& vy,
                                          const Sums<Real, Lanes>& sums,
                                          const LaneTerms<Real, Lanes>& terms, int lane,
                                          const StepParams<Real>& p) {
    // Lengths whose square would overflow are taken at a smaller scale (see length_of),
    // which keeps the direction.
    Real sx = sums.velocity_x[lane], sy = sums.velocity_y[lane], scale;
    bool large = false;
    const Real mean = length_of<Large>(sx, sy, scale, large);
    const Real own = length_of<Large>(vx, vy, scale, large);
    Real hx = mean > Real(0) ? sx / mean : (own > Real(0) ? vx / own : Real(1));
    Real hy = mean > Real(0) ? sy / mean : (own > Real(0) ? vy / own : Real(0));
    if constexpr (E::kWorldTerms) {
      const Real tx = hx + p.goal_weight * terms.goal_x[lane];
      const Real ty = hy + p.goal_weight * terms.goal_y[lane];
      const Real length = square_root(tx * tx + ty * ty);
      const bool turns = p.has_goal & (length > Real(0));
      hx = turns ? tx / length : hx;
      hy = turns ? ty / length : hy;
    }
    if constexpr (E::kNoise) rotate(hx, hy, terms.turn_cos[lane], terms.turn_sin[lane]);
    vx = p.max_speed * hx;
    vy = p.max_speed * hy;
    return large;
  }

  // Wind drifts the particles: it adds to the displacement, not to the heading.
  template <typename E, typename Real>
  BOIDS_HD BOIDS_INLINE static void displacement(Real vx, Real vy, const StepParams<Real>& p,
                                                 Real& dx, Real& dy) {
    dx = E::kWind ? vx + p.wind_x : vx;
    dy = E::kWind ? vy + p.wind_y : vy;
  }

  template <typename Real>
  BOIDS_HD BOIDS_INLINE static Real onto_torus(Real x, Real d, Real side) {
    return wrap_position(x + d, side);
  }
};

}  // namespace boids::kernels
