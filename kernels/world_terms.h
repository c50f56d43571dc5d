// What the world and the noise add to a block of boids before they move, one entry per lane:
// the push of walls and obstacles, the direction to the goal and the noise's rotation. Each is
// a stage of lane loops that vectorise on CPU threads, as the gathering does (a GPU thread has
// one lane); the models' steer then reads them. All are computed at the boids' positions
// before the step, in the order the reference computes them, so the sums agree bit for bit.
#pragma once

#include "kernels/noise.h"
#include "kernels/world.h"

namespace boids::kernels {

template <typename Real, int Lanes>
struct LaneTerms {
  Real avoid_x[Lanes], avoid_y[Lanes];      // walls and obstacles (see avoid_walls)
  Real goal_x[Lanes], goal_y[Lanes];        // the unit direction to the goal, or 0
  double turn_cos[Lanes], turn_sin[Lanes];  // the noise's rotation
};

// How urgently walls push each boid, and where: the sum over each wall closer than
// wall_distance of (1 - gap / wall_distance) times the direction away from it. Selects, not
// branches, so that the lanes vectorise; adding a selected +0 to a sum that starts at +0 changes
// nothing, bit for bit.
template <typename Real, int Lanes>
BOIDS_HD inline void avoid_walls(LaneTerms<Real, Lanes>& t, const LaneBoids<Real, Lanes>& self,
                                 const StepParams<Real>& p) {
  const Real reach = p.wall_distance;
#if !defined(__CUDA_ARCH__)
#pragma omp simd
#endif
  for (int lane = 0; lane < Lanes; ++lane) {
    const Real x = self.x[lane], y = self.y[lane];
    Real ux = 0, uy = 0;
    if (!p.torus) {
      ux += x < reach ? Real(1) - x / reach : Real(0);
      ux -= p.width - x < reach ? Real(1) - (p.width - x) / reach : Real(0);
      uy += y < reach ? Real(1) - y / reach : Real(0);
      uy -= p.height - y < reach ? Real(1) - (p.height - y) / reach : Real(0);
    }
    t.avoid_x[lane] = ux;
    t.avoid_y[lane] = uy;
  }
}

// Adds the obstacles' push: (1 - gap / r) times the direction away from each obstacle whose edge
// is closer than the perception radius r (the whole push inside it), obstacle by obstacle in
// order. Only the near obstacles when a block has them (see narrow_obstacles).
template <typename Real, int Lanes>
BOIDS_HD inline void avoid_obstacles(LaneTerms<Real, Lanes>& t, const LaneBoids<Real, Lanes>& self,
                                     const StepParams<Real>& p) {
  const Real reach = square_root(p.radius_sq);
  const Obstacle<Real>* obstacles = p.near_obstacles ? p.near_obstacles : p.obstacles;
  const index_t count = p.near_obstacles ? p.near_count : p.obstacle_count;
  for (index_t k = 0; k < count; ++k) {
    const Obstacle<Real> o = obstacles[k];
#if !defined(__CUDA_ARCH__)
#pragma omp simd
#endif
    for (int lane = 0; lane < Lanes; ++lane) {
      Real dx, dy;
      offset_between(o.x, o.y, self.x[lane], self.y[lane], p, dx, dy);
      const Real d = square_root(dx * dx + dy * dy);
      const Real gap = d - o.radius;
      const bool pushes = (d > Real(0)) & (gap < reach);
      const Real urgency = gap > Real(0) ? Real(1) - gap / reach : Real(1);
      t.avoid_x[lane] += pushes ? urgency * dx / d : Real(0);
      t.avoid_y[lane] += pushes ? urgency * dy / d : Real(0);
    }
  }
}

// The unit direction to the goal (the shortest way on the torus); 0 at the goal itself, or
// without a goal.
template <typename Real, int Lanes>
BOIDS_HD inline void seek_goal(LaneTerms<Real, Lanes>& t, const LaneBoids<Real, Lanes>& self,
                               const StepParams<Real>& p) {
  if (!p.has_goal) {
    for (int lane = 0; lane < Lanes; ++lane) t.goal_x[lane] = t.goal_y[lane] = Real(0);
    return;
  }
#if !defined(__CUDA_ARCH__)
#pragma omp simd
#endif
  for (int lane = 0; lane < Lanes; ++lane) {
    Real dx, dy;
    offset_between(self.x[lane], self.y[lane], p.goal_x, p.goal_y, p, dx, dy);
    const Real d = square_root(dx * dx + dy * dy);
    t.goal_x[lane] = d > Real(0) ? dx / d : Real(0);
    t.goal_y[lane] = d > Real(0) ? dy / d : Real(0);
  }
}

// Each boid's noise rotation, from its input index `ids[lane]`.
template <typename Real, int Lanes>
BOIDS_HD inline void draw_turns(LaneTerms<Real, Lanes>& t, const index_t* ids,
                                const StepParams<Real>& p) {
#if !defined(__CUDA_ARCH__)
#pragma omp simd
#endif
  for (int lane = 0; lane < Lanes; ++lane) {
    noise_turn(p.noise, p.noise_key, p.step, ids[lane], t.turn_cos[lane], t.turn_sin[lane]);
  }
}

// The stages the step asks for. Within the world's terms every entry is set: no push on a
// torus without obstacles, a direction of 0 without a goal.
template <typename Real, int Lanes>
BOIDS_HD BOIDS_INLINE void compute_lane_terms(LaneTerms<Real, Lanes>& t,
                                              const LaneBoids<Real, Lanes>& self,
                                              const index_t* ids, const StepParams<Real>& p) {
  if (p.world_terms) {
    avoid_walls(t, self, p);
    if (p.obstacle_count > 0) avoid_obstacles(t, self, p);
    seek_goal(t, self, p);
  }
  if (p.has_noise) draw_turns(t, ids, p);
}

// Narrows p's obstacles to those that can matter this step to boids in the box
// [x0, x1] x [y0, y1]: those whose edge comes within the avoidance reach plus the longest move
// of a step (`travel`) of the box. They are copied into `near` (room for `capacity`); with
// more of them, p keeps all. A slack of about a hundred rounding errors of the world's
// coordinates keeps the choice on the safe side of every test made with it.
template <typename Real>
BOIDS_HD inline void narrow_obstacles(StepParams<Real>& p, Real x0, Real x1, Real y0, Real y1,
                                      Real travel, Obstacle<Real>* near, index_t capacity) {
  const Real cx = (x0 + x1) / Real(2), cy = (y0 + y1) / Real(2);
  const Real hx = (x1 - x0) / Real(2), hy = (y1 - y0) / Real(2);
  const Real slack = (p.width + p.height) * (sizeof(Real) == 4 ? Real(1e-5) : Real(1e-13));
  const Real reach = square_root(p.radius_sq);
  index_t count = 0;
  for (index_t k = 0; k < p.obstacle_count; ++k) {
    const Obstacle<Real> o = p.obstacles[k];
    Real dx, dy;
    offset_between(cx, cy, o.x, o.y, p, dx, dy);
    dx = max_of(absolute(dx) - hx, Real(0));  // from the box, not its centre
    dy = max_of(absolute(dy) - hy, Real(0));
    const Real limit = o.radius + reach + travel + slack;
    if (!(dx * dx + dy * dy >= limit * limit)) {
      if (count == capacity) return;
      near[count++] = o;
    }
  }
  p.near_obstacles = near;
  p.near_count = count;
  p.near_travel = travel;
}

}  // namespace boids::kernels
