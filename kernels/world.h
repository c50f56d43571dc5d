// The world the boids live in, as every model sees it: offsets on the torus (or between
// walls), and keeping a moved boid inside the world and out of obstacles. What walls,
// obstacles, a goal and noise add to a boid's steering is in kernels/world_terms.h.
#pragma once

#include "kernels/host_device.h"
#include "kernels/step_params.h"

namespace boids::kernels {

// One boid, packed so that a candidate is a single 16-byte (float) or 32-byte (double) load.
template <typename Real>
struct alignas(4 * sizeof(Real)) Boid {
  Real x, y, vx, vy;
};

// The boids of a block, one per lane: where they are and where they head.
template <typename Real, int Lanes>
struct LaneBoids {
  Real x[Lanes], y[Lanes], vx[Lanes], vy[Lanes];

  BOIDS_HD Boid<Real> boid(int lane) const { return {x[lane], y[lane], vx[lane], vy[lane]}; }
};

// Compile-time switches of a loop over candidates (see with_pair_flags in rules.h).
template <bool WrapsValue, bool LimitedViewValue>
struct Flags {
  static constexpr bool kWraps = WrapsValue;
  static constexpr bool kLimitedView = LimitedViewValue;
};

// Shortest offset along one axis of the torus, as the seed wraps it. Written as a subtraction
// of 0 or +-L (exact in IEEE arithmetic) so that CPU compilers can vectorise it across boids.
template <typename Real>
BOIDS_HD inline Real wrap_delta(Real d, Real side, Real half) {
  const Real shift = (d > half ? side : Real(0)) - (d < -half ? side : Real(0));
  return d - shift;
}
template <typename Real>
BOIDS_HD inline Real wrap_x(Real d, const StepParams<Real>& p) {
  return wrap_delta(d, p.width, p.half_width);
}
template <typename Real>
BOIDS_HD inline Real wrap_y(Real d, const StepParams<Real>& p) {
  return wrap_delta(d, p.height, p.half_height);
}

// The offset from a to b: wrapped on the torus, plain between walls.
template <typename Real>
BOIDS_HD BOIDS_INLINE void offset_between(Real ax, Real ay, Real bx, Real by,
                                          const StepParams<Real>& p, Real& dx, Real& dy) {
  dx = bx - ax;
  dy = by - ay;
  if (p.torus) {
    dx = wrap_x(dx, p);
    dy = wrap_y(dy, p);
  }
}

// Brings a coordinate that left [0, side) by less than side back into it, as the seed does.
template <typename Real>
BOIDS_HD BOIDS_INLINE Real seed_wrap(Real x, Real side) {
  if (x < Real(0)) return x + side;
  if (x >= side) return x - side;
  return x;
}

// The seed's wrap, then side identified with 0, as the torus identifies them: a coordinate
// below 0 by less than half an ulp of side wraps to x + side, which rounds to side itself and
// would leave the boid outside the world (a saved state would not read back). Every other
// coordinate keeps the seed's bits.
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

// Whether obstacle `o` holds the point (x, y).
template <typename Real>
BOIDS_HD inline bool holds(const Obstacle<Real>& o, Real x, Real y, const StepParams<Real>& p) {
  Real dx, dy;
  offset_between(o.x, o.y, x, y, p, dx, dy);
  return dx * dx + dy * dy < o.radius * o.radius;
}

// Reflects a coordinate that crossed a wall of [0, side) (position mirrored, velocity
// reversed); one that moved farther than the world is wide stops at the wall. Selects, so that
// lanes vectorise.
template <typename Real>
BOIDS_HD BOIDS_INLINE void reflect_axis(Real& x, Real& v, Real side) {
  const bool low = x < Real(0);
  const bool high = !low & (x >= side);
  x = low ? -x : (high ? side + side - x : x);
  v = low | high ? -v : v;
  x = x < Real(0) ? Real(0) : (x >= side ? below(side) : x);
}

// Whether (x, y) lies in the world's rectangle [0, W) x [0, H).
template <typename Real>
BOIDS_HD BOIDS_INLINE bool in_world(Real x, Real y, const StepParams<Real>& p) {
  return (x >= Real(0)) & (x < p.width) & (y >= Real(0)) & (y < p.height);
}

// Moves a boid inside obstacle `o` out to its edge along the line from its centre, and
// reverses its velocity into the obstacle.
template <typename Real>
BOIDS_HD inline Boid<Real> push_out(Boid<Real> b, const Obstacle<Real>& o,
                                    const StepParams<Real>& p) {
  Real dx, dy;
  offset_between(o.x, o.y, b.x, b.y, p, dx, dy);
  const Real d = square_root(dx * dx + dy * dy);
  const Real nx = d > Real(0) ? dx / d : Real(1), ny = d > Real(0) ? dy / d : Real(0);
  const Real edge = o.radius * (Real(1) + (sizeof(Real) == 4 ? Real(1e-6) : Real(1e-14)));
  b.x = o.x + nx * edge;
  b.y = o.y + ny * edge;
  if (p.torus) {
    b.x = wrap_position(b.x, p.width);
    b.y = wrap_position(b.y, p.height);
  }
  const Real inward = b.vx * nx + b.vy * ny;
  if (inward < Real(0)) {
    b.vx -= Real(2) * inward * nx;
    b.vy -= Real(2) * inward * ny;
  }
  return b;
}

// A moved boid `b` that an obstacle may hold: pushed out of each obstacle that holds it, in
// order. Should overlapping obstacles still hold it, or should it be outside the world, it
// stays where it was (`before`, outside every obstacle) and turns back.
template <typename Real>
BOIDS_HD inline Boid<Real> settle_among_obstacles(Boid<Real> b, const Boid<Real>& before,
                                                  const StepParams<Real>& p) {
  for (index_t k = 0; k < p.obstacle_count; ++k) {
    if (holds(p.obstacles[k], b.x, b.y, p)) b = push_out(b, p.obstacles[k], p);
  }
  bool outside = in_world(b.x, b.y, p);
  for (index_t k = 0; outside && k < p.obstacle_count; ++k) {
    outside = !holds(p.obstacles[k], b.x, b.y, p);
  }
  if (!outside) {
    b.x = before.x;
    b.y = before.y;
    b.vx = -b.vx;
    b.vy = -b.vy;
  }
  return b;
}

}  // namespace boids::kernels
