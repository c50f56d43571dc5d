// The world the boids live in, as every model sees it, in D = 2 or 3 dimensions: offsets on
// the torus (or between walls), and keeping a moved boid inside the world and out of
// obstacles. Every loop over axes adds in axis order, so a flock in a plane of a box flies the
// 2D step bit for bit. What walls, obstacles, a goal and noise add to a boid's steering is in
// kernels/terms/, in the order of kernels/world_terms.h.
#pragma once

#include "kernels/host_device.h"
#include "kernels/step_params.h"

namespace boids::kernels {

// One boid in D dimensions, packed so that a 2D candidate is a single 16-byte (float) or
// 32-byte (double) load; a 3D one is 24 or 48 bytes, read as 8- or 16-byte pieces.
template <typename Real, int D>
struct alignas((D == 2 ? 4 : 2) * sizeof(Real)) Boid {
  static_assert(D == 2 || D == 3, "boids fly in two or three dimensions");
  Real position[D];
  Real velocity[D];
};

// The predators of the step (StepParams::predators), as boids of its dimension.
template <int D, typename Real>
BOIDS_HD BOIDS_INLINE const Boid<Real, D>* predators_of(const StepParams<Real>& p) {
  return static_cast<const Boid<Real, D>*>(p.predators);
}

// The boids of a block, one per lane: where they are and where they head, axis by axis.
template <typename Real, int Lanes, int D>
struct LaneBoids {
  Real position[D][Lanes], velocity[D][Lanes];

  BOIDS_HD Boid<Real, D> boid(int lane) const {
    Boid<Real, D> b;
    for (int a = 0; a < D; ++a) {
      b.position[a] = position[a][lane];
      b.velocity[a] = velocity[a][lane];
    }
    return b;
  }
  BOIDS_HD void set(int lane, const Boid<Real, D>& b) {
    for (int a = 0; a < D; ++a) {
      position[a][lane] = b.position[a];
      velocity[a][lane] = b.velocity[a];
    }
  }
};

// Compile-time switches of a loop over candidates (see with_pair_flags in rules.h).
template <bool WrapsValue, bool LimitedViewValue>
struct Flags {
  static constexpr bool kWraps = WrapsValue;
  static constexpr bool kLimitedView = LimitedViewValue;
};

// Whether walls close the world: neither a torus nor open space.
template <typename Real>
BOIDS_HD BOIDS_INLINE bool walled(const StepParams<Real>& p) {
  return !p.torus && !p.open;
}

// Shortest offset along one axis of the torus, as the published step wraps it. Written as a
// subtraction of 0 or +-L (exact in IEEE arithmetic) so that CPU compilers can vectorise it across
// boids.
template <typename Real>
BOIDS_HD inline Real wrap_delta(Real d, Real side, Real half) {
  const Real shift = (d > half ? side : Real(0)) - (d < -half ? side : Real(0));
  return d - shift;
}
template <typename Real>
BOIDS_HD inline Real wrap_axis(Real d, int axis, const StepParams<Real>& p) {
  return wrap_delta(d, p.side[axis], p.half_side[axis]);
}

// The offset from a to b: wrapped on the torus, plain between walls.
template <typename Real, int D>
BOIDS_HD BOIDS_INLINE void offset_between(const Real (&a)[D], const Real (&b)[D],
                                          const StepParams<Real>& p, Real (&d)[D]) {
  for (int axis = 0; axis < D; ++axis) {
    d[axis] = b[axis] - a[axis];
    if (p.torus) d[axis] = wrap_axis(d[axis], axis, p);
  }
}

// Brings a coordinate that left [0, side) by less than side back into it, as the published step
// does.
template <typename Real>
BOIDS_HD BOIDS_INLINE Real seed_wrap(Real x, Real side) {
  if (x < Real(0)) return x + side;
  if (x >= side) return x - side;
  return x;
}

// The published step's wrap, then side identified with 0, as the torus identifies them: a
// coordinate below 0 by less than half an ulp of side wraps to x + side, which rounds to side
// itself and would leave the boid outside the world (a saved state would not read back). Every
// other coordinate keeps the published step's bits.
template <typename Real>
BOIDS_HD BOIDS_INLINE Real wrap_position(Real x, Real side) {
  const Real wrapped = seed_wrap(x, side);
  return wrapped == side ? Real(0) : wrapped;
}

// A value just below `side`, for positions that rounding would put on the far wall.
template <typename Real>
BOIDS_HD inline Real below(Real side) {
  return side - side * (sizeof(Real) == 4 ? Real(0x1.0p-23) : Real(0x1.0p-52));
}

// Whether a position has a coordinate beyond `reach` of the origin (or not finite): where
// open space no longer holds it.
template <typename Real, int D>
BOIDS_HD BOIDS_INLINE bool beyond_reach(const Real (&x)[D], Real reach) {
  bool beyond = false;
  for (int a = 0; a < D; ++a) beyond = beyond || !(absolute(x[a]) <= reach);
  return beyond;
}

// 1 for a boid beyond `reach` (beyond_reach), else 0: summed over a flock of open space, how
// many of its boids lie farther than it holds.
template <typename Real, int D>
struct BeyondReach {
  const Boid<Real, D>* boids;
  Real reach;
  BOIDS_HD double operator()(index_t i) const {
    return beyond_reach(boids[i].position, reach) ? 1.0 : 0.0;
  }
};

// The first D coordinates of an obstacle's centre.
template <typename Real, int D>
BOIDS_HD BOIDS_INLINE void centre_of(const Obstacle<Real>& o, Real (&c)[D]) {
  for (int a = 0; a < D; ++a) c[a] = o.centre[a];
}

// Whether obstacle `o` (a disc in 2D, a sphere in 3D) holds the point x.
template <typename Real, int D>
BOIDS_HD inline bool holds(const Obstacle<Real>& o, const Real (&x)[D], const StepParams<Real>& p) {
  Real c[D], d[D];
  centre_of(o, c);
  offset_between(c, x, p, d);
  return length_sq(d) < o.radius * o.radius;
}

// Reflects a coordinate that crossed a wall of [0, side) (position mirrored, velocity
// reversed); one that moved farther than the world is wide stops at the wall. Selects, so that
// lanes vectorise.
template <typename Real>
BOIDS_HD BOIDS_INLINE void reflect_axis(Real& x, Real& v, Real side) {
  const bool low = x < Real(0);
  const bool high = !low & (x >= side);
  x = low ? -x : (high ? side + side - x : x);
  v = (low | high) ? -v : v;
  x = x < Real(0) ? Real(0) : (x >= side ? below(side) : x);
}

// Whether x lies in the world's rectangle [0, W) x [0, H) (or box, x [0, D)); open space
// holds every point.
template <typename Real, int D>
BOIDS_HD BOIDS_INLINE bool in_world(const Real (&x)[D], const StepParams<Real>& p) {
  bool inside = true;
  for (int a = 0; a < D; ++a) inside = inside & (x[a] >= Real(0)) & (x[a] < p.side[a]);
  return inside | p.open;
}

// Moves a boid inside obstacle `o` out to its edge along the line from its centre, and
// reverses its velocity into the obstacle.
template <typename Real, int D>
BOIDS_HD inline Boid<Real, D> push_out(Boid<Real, D> b, const Obstacle<Real>& o,
                                       const StepParams<Real>& p) {
  Real c[D], d[D], n[D];
  centre_of(o, c);
  offset_between(c, b.position, p, d);
  const Real distance = square_root(length_sq(d));
  for (int a = 0; a < D; ++a) {
    n[a] = distance > Real(0) ? d[a] / distance : (a == 0 ? Real(1) : Real(0));
  }
  const Real edge = o.radius * (Real(1) + (sizeof(Real) == 4 ? Real(1e-6) : Real(1e-14)));
  for (int a = 0; a < D; ++a) {
    b.position[a] = c[a] + n[a] * edge;
    if (p.torus) b.position[a] = wrap_position(b.position[a], p.side[a]);
  }
  const Real inward = dot(b.velocity, n);
  if (inward < Real(0)) {
    for (int a = 0; a < D; ++a) b.velocity[a] -= Real(2) * inward * n[a];
  }
  return b;
}

// A moved boid `b` that an obstacle may hold: pushed out of each obstacle that holds it, in
// order. Should overlapping obstacles still hold it, or should it be outside the world, it
// stays where it was (`before`, outside every obstacle) and turns back.
template <typename Real, int D>
BOIDS_HD inline Boid<Real, D> settle_among_obstacles(Boid<Real, D> b, const Boid<Real, D>& before,
                                                     const StepParams<Real>& p) {
  for (index_t k = 0; k < p.obstacle_count; ++k) {
    if (holds(p.obstacles[k], b.position, p)) b = push_out(b, p.obstacles[k], p);
  }
  bool outside = in_world(b.position, p);
  for (index_t k = 0; outside && k < p.obstacle_count; ++k) {
    outside = !holds(p.obstacles[k], b.position, p);
  }
  if (!outside) {
    for (int a = 0; a < D; ++a) {
      b.position[a] = before.position[a];
      b.velocity[a] = -b.velocity[a];
    }
  }
  return b;
}

}  // namespace boids::kernels
