// The world the boids live in, as every model sees it: offsets on the torus (or between
// walls), what walls, obstacles and a goal add to a boid's steering, and keeping a moved boid
// inside the world and out of obstacles.
#pragma once

#include "kernels/host_device.h"
#include "kernels/noise.h"
#include "kernels/step_params.h"

namespace boids::kernels {

// One boid, packed so that a candidate is a single 16-byte (float) or 32-byte (double) load.
template <typename Real>
struct alignas(4 * sizeof(Real)) Boid {
  Real x, y, vx, vy;
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

// How urgently walls and obstacles push the boid, and where: the sum over each wall or obstacle
// edge closer than its reach of (1 - gap / reach) times the direction away from it. Walls reach
// wall_distance; obstacles reach the perception radius beyond their edge.
template <typename Real>
BOIDS_HD inline void avoidance(const Boid<Real>& b, const StepParams<Real>& p, Real& ux, Real& uy) {
  if (!p.torus) {
    const Real reach = p.wall_distance;
    if (b.x < reach) ux += Real(1) - b.x / reach;
    if (p.width - b.x < reach) ux -= Real(1) - (p.width - b.x) / reach;
    if (b.y < reach) uy += Real(1) - b.y / reach;
    if (p.height - b.y < reach) uy -= Real(1) - (p.height - b.y) / reach;
  }
  if (p.obstacle_count == 0) return;
  const Real reach = square_root(p.radius_sq);
  for (index_t k = 0; k < p.obstacle_count; ++k) {
    const Obstacle<Real> o = p.obstacles[k];
    Real dx, dy;
    offset_between(o.x, o.y, b.x, b.y, p, dx, dy);
    const Real d = square_root(dx * dx + dy * dy);
    const Real gap = d - o.radius;
    if (!(d > Real(0)) || gap >= reach) continue;
    const Real urgency = gap > Real(0) ? Real(1) - gap / reach : Real(1);
    ux += urgency * dx / d;
    uy += urgency * dy / d;
  }
}

// The unit direction to the goal (the shortest way on the torus); nothing at the goal itself.
template <typename Real>
BOIDS_HD inline void goal_direction(const Boid<Real>& b, const StepParams<Real>& p, Real& gx,
                                    Real& gy) {
  if (!p.has_goal) return;
  Real dx, dy;
  offset_between(b.x, b.y, p.goal_x, p.goal_y, p, dx, dy);
  const Real d = square_root(dx * dx + dy * dy);
  if (d > Real(0)) {
    gx = dx / d;
    gy = dy / d;
  }
}

// Puts a moved boid back where it may be: between walls, a boid that crossed one is reflected
// (position mirrored, velocity component reversed), and one faster than the world is wide is
// stopped at the wall; a boid inside an obstacle is moved out to its edge along the line from
// its centre, and its velocity into the obstacle reversed. Should overlapping obstacles still
// hold it, the boid stays where it was (`before`, outside every obstacle) and turns back.
template <typename Real>
BOIDS_HD inline Boid<Real> keep_in_world(Boid<Real> b, const Boid<Real>& before,
                                         const StepParams<Real>& p) {
  if (!p.torus) {
    if (b.x < Real(0)) {
      b.x = -b.x;
      b.vx = -b.vx;
    } else if (b.x >= p.width) {
      b.x = p.width + p.width - b.x;
      b.vx = -b.vx;
    }
    if (b.y < Real(0)) {
      b.y = -b.y;
      b.vy = -b.vy;
    } else if (b.y >= p.height) {
      b.y = p.height + p.height - b.y;
      b.vy = -b.vy;
    }
    b.x = b.x < Real(0) ? Real(0) : (b.x >= p.width ? below(p.width) : b.x);
    b.y = b.y < Real(0) ? Real(0) : (b.y >= p.height ? below(p.height) : b.y);
  }
  for (index_t k = 0; k < p.obstacle_count; ++k) {
    const Obstacle<Real> o = p.obstacles[k];
    Real dx, dy;
    offset_between(o.x, o.y, b.x, b.y, p, dx, dy);
    const Real d2 = dx * dx + dy * dy;
    if (!(d2 < o.radius * o.radius)) continue;
    const Real d = square_root(d2);
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
  }
  if (p.obstacle_count > 0 || !p.torus) {
    bool outside = b.x >= Real(0) && b.x < p.width && b.y >= Real(0) && b.y < p.height;
    for (index_t k = 0; outside && k < p.obstacle_count; ++k) {
      const Obstacle<Real> o = p.obstacles[k];
      Real dx, dy;
      offset_between(o.x, o.y, b.x, b.y, p, dx, dy);
      outside = !(dx * dx + dy * dy < o.radius * o.radius);
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

}  // namespace boids::kernels
