// Milling, Couzin et al.'s m_group (2002): |(1/n) sum of (unit vector from the group's centre
// to boid i) x (boid i's unit heading)|, 1 for a flock circling its centre, near 0 for a
// parallel group or a swarm. Two passes over a flock's boids:
//   centre   the mean position between walls; on a torus, where a mean position means
//            nothing, each axis's circular mean (the angle of the mean of the unit vectors at
//            angle 2 pi x / side), so a group across an edge has its centre among its boids
//                                                                          (CentreTerm)
//   turning  the cross products' sums: 1 component in 2D, 3 in 3D        (MillingTerm)
// A boid at rest, or at the centre itself, adds nothing. In double, whatever the flock's
// precision; the host's reference is host/metrics/milling.cpp.
#pragma once

#include <cmath>

#include "kernels/host_device.h"
#include "kernels/step_params.h"
#include "kernels/world.h"

namespace boids::kernels {

// The components of a cross product in D dimensions: the z of a 2D one, all three of a 3D one.
template <int D>
constexpr int kCrossComponents = D == 2 ? 1 : 3;

// The sums that place a flock's centre, per axis: sum x (walls), or sum cos and sum sin of the
// angle 2 pi x / side (torus); `part` 0 for the first, 1 for the second.
template <typename Real, int D, typename Flocks>
struct CentreTerm {
  const Boid<Real, D>* boids;
  Flocks flocks;
  int axis;
  int part;

  BOIDS_HD double operator()(index_t i) const {
    const StepParams<Real>& p = flocks.of_slot(i).params;
    const double x = static_cast<double>(boids[i].position[axis]);
    if (!p.torus) return part == 0 ? x : 0.0;
    const double angle = 2 * 3.14159265358979323846 * x / static_cast<double>(p.side[axis]);
    return part == 0 ? cos(angle) : sin(angle);
  }
};

// The centre along an axis of side `side` from its sums (CentreTerm's over n boids).
BOIDS_HD inline double centre_along(double first, double second, double n, bool torus,
                                    double side) {
  if (!torus) return first / n;
  const double at = atan2(second, first) / (2 * 3.14159265358979323846) * side;
  return at < 0 ? at + side : at;
}
template <typename Real>
BOIDS_HD inline double centre_from(double first, double second, double n, int axis,
                                   const StepParams<Real>& p) {
  return centre_along(first, second, n, p.torus, static_cast<double>(p.side[axis]));
}

// The unit offset from `centre` to `x` (wrapped on the torus); false at the centre itself.
template <typename Real, int D>
BOIDS_HD inline bool unit_offset(const double (&centre)[D], const Real (&x)[D],
                                 const StepParams<Real>& p, double (&r)[D]) {
  for (int a = 0; a < D; ++a) {
    r[a] = static_cast<double>(x[a]) - centre[a];
    if (p.torus) {
      const double side = static_cast<double>(p.side[a]);
      r[a] = wrap_delta(r[a], side, side / 2);
    }
  }
  const double length = square_root(length_sq(r));
  if (!(length > 0)) return false;
  for (int a = 0; a < D; ++a) r[a] /= length;
  return true;
}

// Component `component` of r x u, r and u unit vectors (in 2D, the z component alone).
template <int D>
BOIDS_HD inline double cross_component(const double (&r)[D], const double (&u)[D], int component) {
  if constexpr (D == 2) {
    return r[0] * u[1] - r[1] * u[0];
  } else {
    const int a = (component + 1) % 3, b = (component + 2) % 3;
    return r[a] * u[b] - r[b] * u[a];
  }
}

// One component of (unit offset from its flock's centre) x (unit heading) for a boid; `centres`
// holds D coordinates per flock, in the executor's memory.
template <typename Real, int D, typename Flocks>
struct MillingTerm {
  const Boid<Real, D>* boids;
  Flocks flocks;
  const double* centres;
  int component;

  BOIDS_HD double operator()(index_t i) const {
    const index_t f = flocks.flock_of_slot(i);
    const StepParams<Real>& p = flocks.of_slot(i).params;
    double centre[D], r[D], u[D];
    for (int a = 0; a < D; ++a) centre[a] = centres[D * f + a];
    if (!unit_offset(centre, boids[i].position, p, r)) return 0.0;
    for (int a = 0; a < D; ++a) u[a] = static_cast<double>(boids[i].velocity[a]);
    const double speed = square_root(length_sq(u));
    if (!(speed > 0)) return 0.0;
    for (int a = 0; a < D; ++a) u[a] /= speed;
    return cross_component(r, u, component);
  }
};

}  // namespace boids::kernels
