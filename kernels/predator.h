// The pointer as a predator (seed 002): while it is held, boids near it are pushed away, the
// more the nearer, and sped up to at most v_max. Not part of the model's step: the viewer
// applies it between steps.
#pragma once

#include "kernels/rules.h"

namespace boids::kernels {

template <typename Real>
struct Predator {
  Real x, y;       // where it is, in world coordinates
  Real radius_sq;  // it scares boids closer than its radius
  Real strength;   // push at zero distance, in units of v_max
};

// Pushes one boid away from the predator with the falloff (1 - d^2 / R^2), across the torus's
// edges (not through walls).
template <typename Real>
BOIDS_HD inline void flee(Real x, Real y, Real& vx, Real& vy, const Predator<Real>& predator,
                          const StepParams<Real>& p) {
  Real dx, dy;
  offset_between(predator.x, predator.y, x, y, p, dx, dy);
  const Real d2 = dx * dx + dy * dy;
  if (!(d2 < predator.radius_sq) || !(d2 > Real(0))) return;
  const Real falloff = Real(1) - d2 / predator.radius_sq;
  const Real push = predator.strength * p.max_speed * falloff / square_root(d2);
  vx += dx * push;
  vy += dy * push;
  const Real speed = square_root(vx * vx + vy * vy);
  if (speed > p.max_speed) {
    vx = vx / speed * p.max_speed;
    vy = vy / speed * p.max_speed;
  }
}

template <typename Real>
struct FleePredator {
  Boid<Real>* boids;
  Predator<Real> predator;
  StepParams<Real> params;

  BOIDS_HD void operator()(index_t i) const {
    Boid<Real>& b = boids[i];
    flee(b.x, b.y, b.vx, b.vy, predator, params);
  }
};

}  // namespace boids::kernels
