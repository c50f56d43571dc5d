// Obstacles: their push, added to the walls' (kernels/terms/walls.h), and the few near a
// block of boids, so that obstacles cost little however many there are.
#pragma once

#include "kernels/terms/lane_terms.h"

namespace boids::kernels {

// The obstacles, a world's term: their parameter (a field of FlockParams), on with any; their
// discs (spheres) are the executor's to upload (obstacle_count is set with them).
struct ObstaclesTerm {
  static constexpr const char* kName = "obstacles";
  struct Params {
    std::vector<Disc> obstacles;  ///< discs (spheres) no boid enters
  };
  // All of them; and on CPU threads, the obstacles near a block of boids (narrow_obstacles):
  // the only ones that can push those boids or hold them after a move of at most near_travel.
  // Null: all of them. Their push adds to the walls' lane term (avoid).
  template <typename Real>
  struct Constants {
    const Obstacle<Real>* obstacles;
    index_t obstacle_count;
    const Obstacle<Real>* near_obstacles;
    index_t near_count;
    Real near_travel;
  };
  template <typename Flock>
  static bool on(const Flock& f) {
    return !f.obstacles.empty();
  }
  template <typename Model, typename Real, typename Flock>
  static void set_constants(StepParams<Real>& p, const Flock&) {
    p.obstacles = p.near_obstacles = nullptr;
    p.obstacle_count = p.near_count = 0;
  }
};

// Adds the obstacles' push: (1 - gap / r) times the direction away from each obstacle whose edge
// is closer than the perception radius r (the whole push inside it), obstacle by obstacle in
// order. Only the near obstacles when a block has them (see narrow_obstacles).
template <typename Real, int Lanes, int D>
BOIDS_HD inline void avoid_obstacles(LaneTerms<Real, Lanes, D>& t,
                                     const LaneBoids<Real, Lanes, D>& self,
                                     const StepParams<Real>& p) {
  const Real reach = square_root(p.radius_sq);
  const Obstacle<Real>* obstacles = p.near_obstacles ? p.near_obstacles : p.obstacles;
  const index_t count = p.near_obstacles ? p.near_count : p.obstacle_count;
  for (index_t k = 0; k < count; ++k) {
    const Obstacle<Real> o = obstacles[k];
    Real c[D];
    centre_of(o, c);
#if !defined(__CUDA_ARCH__)
#pragma omp simd
#endif
    for (int lane = 0; lane < Lanes; ++lane) {
      Real x[D], d[D];
      lane_position(self, lane, x);
      offset_between(c, x, p, d);
      const Real distance = square_root(length_sq(d));
      const Real gap = distance - o.radius;
      const bool pushes = (distance > Real(0)) & (gap < reach);
      const Real urgency = gap > Real(0) ? Real(1) - gap / reach : Real(1);
      for (int a = 0; a < D; ++a) {
        t.avoid[a][lane] += pushes ? urgency * d[a] / distance : Real(0);
      }
    }
  }
}

// Narrows p's obstacles to those that can matter this step to boids in the box [low, high]:
// those whose edge comes within the avoidance reach plus the longest move of a step
// (`travel`) of the box. They are copied into `near` (room for `capacity`); with more of them,
// p keeps all. A slack of about a hundred rounding errors of the world's coordinates keeps
// the choice on the safe side of every test made with it.
template <typename Real, int D>
BOIDS_HD inline void narrow_obstacles(StepParams<Real>& p, const Real (&low)[D],
                                      const Real (&high)[D], Real travel, Obstacle<Real>* near,
                                      index_t capacity) {
  Real centre[D], half[D];
  for (int a = 0; a < D; ++a) {
    centre[a] = (low[a] + high[a]) / Real(2);
    half[a] = (high[a] - low[a]) / Real(2);
  }
  const Real slack = coordinate_slack<D>(p);
  const Real reach = square_root(p.radius_sq);
  index_t count = 0;
  for (index_t k = 0; k < p.obstacle_count; ++k) {
    const Obstacle<Real> o = p.obstacles[k];
    Real c[D];
    centre_of(o, c);
    const Real limit = o.radius + reach + travel + slack;
    if (!(gap_sq_to_box(centre, half, c, p) >= limit * limit)) {
      if (count == capacity) return;
      near[count++] = o;
    }
  }
  p.near_obstacles = near;
  p.near_count = count;
  p.near_travel = travel;
}

}  // namespace boids::kernels
