// The pointer as a predator, as in the steering model's lab listing: while it is held, boids near
// it are pushed away, the more the nearer, and sped up to at most v_max. Not part of the model's
// step: the viewer applies it between steps.
#pragma once

#include "kernels/rules.h"

namespace boids::kernels {

template <typename Real>
struct Predator {
  Real x, y;       // where it is, in world coordinates
  Real radius_sq;  // it scares boids closer than its radius
  Real strength;   // push at zero distance, in units of v_max
};

// Pushes one boid of a 2D flock away from the predator with the falloff (1 - d^2 / R^2),
// across the torus's edges (not through walls).
template <typename Real>
BOIDS_HD inline void flee(Boid<Real, 2>& b, const Predator<Real>& predator,
                          const StepParams<Real>& p) {
  const Real at[2] = {predator.x, predator.y};
  Real d[2];
  offset_between(at, b.position, p, d);
  const Real d2 = length_sq(d);
  if (!(d2 < predator.radius_sq) || !(d2 > Real(0))) return;
  const Real falloff = Real(1) - d2 / predator.radius_sq;
  const Real push = predator.strength * p.max_speed * falloff / square_root(d2);
  for (int a = 0; a < 2; ++a) b.velocity[a] += d[a] * push;
  const Real speed = square_root(length_sq(b.velocity));
  if (speed > p.max_speed) {
    for (int a = 0; a < 2; ++a) b.velocity[a] = b.velocity[a] / speed * p.max_speed;
  }
}

template <typename Real>
struct FleePredator {
  Boid<Real, 2>* boids;
  Predator<Real> predator;
  StepParams<Real> params;

  BOIDS_HD void operator()(index_t i) const { flee(boids[i], predator, params); }
};

}  // namespace boids::kernels
