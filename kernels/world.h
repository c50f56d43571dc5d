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
BOIDS_HD inline void offset_between(Real ax, Real ay, Real bx, Real by, const StepParams<Real>& p,
                                    Real& dx, Real& dy) {
  dx = bx - ax;
  dy = by - ay;
  if (p.torus) {
    dx = wrap_x(dx, p);
    dy = wrap_y(dy, p);
  }
}

// Brings a coordinate that left [0, side) by less than side back into it, as the seed does.
template <typename Real>
BOIDS_HD inline Real wrap_position(Real x, Real side) {
  if (x < Real(0)) return x + side;
  if (x >= side) return x - side;
  return x;
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

// Whether some obstacle may hold `b`, moved from `before`: exactly so among the near obstacles,
// and true (look at all of them) for a move longer than those are good for.
template <typename Real>
BOIDS_HD inline bool may_be_held(const Boid<Real>& b, const Boid<Real>& before,
                                 const StepParams<Real>& p) {
  if (!p.near_obstacles) return true;
  Real dx, dy;
  offset_between(before.x, before.y, b.x, b.y, p, dx, dy);
  if (!(dx * dx + dy * dy <= p.near_travel * p.near_travel)) return true;
  for (index_t k = 0; k < p.near_count; ++k) {
    if (holds(p.near_obstacles[k], b.x, b.y, p)) return true;
  }
  return false;
}

// Reflects a coordinate that crossed a wall of [0, side) (position mirrored, velocity
// reversed); one that moved farther than the world is wide stops at the wall.
template <typename Real>
BOIDS_HD inline void reflect_axis(Real& x, Real& v, Real side) {
  if (x < Real(0)) {
    x = -x;
    v = -v;
  } else if (x >= side) {
    x = side + side - x;
    v = -v;
  }
  x = x < Real(0) ? Real(0) : (x >= side ? below(side) : x);
}

template <typename Real>
BOIDS_HD inline Boid<Real> reflect_off_walls(Boid<Real> b, const StepParams<Real>& p) {
  reflect_axis(b.x, b.vx, p.width);
  reflect_axis(b.y, b.vy, p.height);
  return b;
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

// Puts a moved boid back where it may be: reflected off the walls, then pushed out of each
// obstacle that holds it, in order. Should overlapping obstacles still hold it, the boid stays
// where it was (`before`, outside every obstacle) and turns back.
template <typename Real>
BOIDS_HD inline Boid<Real> keep_in_world(Boid<Real> b, const Boid<Real>& before,
                                         const StepParams<Real>& p) {
  if (!p.torus) b = reflect_off_walls(b, p);
  // Most boids are held by no obstacle: checking the near ones settles it, and the loops over
  // all of them below would change nothing.
  const bool held = p.obstacle_count > 0 && may_be_held(b, before, p);
  if (held) {
    for (index_t k = 0; k < p.obstacle_count; ++k) {
      if (holds(p.obstacles[k], b.x, b.y, p)) b = push_out(b, p.obstacles[k], p);
    }
  }
  if (p.obstacle_count > 0 || !p.torus) {
    bool outside = b.x >= Real(0) && b.x < p.width && b.y >= Real(0) && b.y < p.height;
    for (index_t k = 0; held && outside && k < p.obstacle_count; ++k) {
      outside = !holds(p.obstacles[k], b.x, b.y, p);
    }
    if (!outside) {
      b.x = before.x;
      b.y = before.y;
      b.vx = -b.vx;
      b.vy = -b.vy;
    }
  }
  return b;
}

// Moves `b` by (dx, dy) in the world: wrapped on the torus, then kept between the walls and out
// of the obstacles.
template <typename Real>
BOIDS_HD inline Boid<Real> move_in_world(Boid<Real> b, Real dx, Real dy,
                                         const StepParams<Real>& p) {
  const Boid<Real> before = b;
  if (p.torus) {
    b.x = wrap_position(b.x + dx, p.width);
    b.y = wrap_position(b.y + dy, p.height);
  } else {
    b.x += dx;
    b.y += dy;
  }
  return p.torus && p.obstacle_count == 0 ? b : keep_in_world(b, before, p);
}

}  // namespace boids::kernels
