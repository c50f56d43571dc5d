// The goal: the direction to it (with Reynolds' arrival, shorter near it), and what it adds to
// each model's steering.
#pragma once

#include "kernels/terms/lane_terms.h"

namespace boids::kernels {

// The goal, a world's term: its parameters (fields of FlockParams) and its slice of the step's
// constants, made from the flock's parameters (`f`, FlockParams); without a goal it neither
// pulls nor slows.
struct GoalTerm {
  static constexpr const char* kName = "goal";
  struct Params {
    bool has_goal = false;
    Vec3 goal;  ///< steered towards with goal_weight, when has_goal
    double goal_weight = 1.0;
    /// Reynolds' arrival, under the steering model: within this distance of the goal the
    /// desired velocity falls with the distance, v_max (g - x) / max(|g - x|, R), and the least
    /// speed with it, so that the flock settles at the goal; 0 is off.
    double arrival_radius = 0.0;
  };
  template <typename Real>
  struct Constants {
    bool has_goal;
    Real goal[3], goal_weight;
    Real arrival_radius;  // the pull shortens within it of the goal (seek_goal); 0: off
  };
  template <typename Real, int Lanes, int D>
  struct LaneValues {
    Real goal[D][Lanes];  // the unit direction to the goal, or 0
  };
  template <typename Flock>
  static bool on(const Flock& f) {
    return f.has_goal;
  }
  template <typename Model, typename Real, typename Flock>
  static void set_constants(StepParams<Real>& p, const Flock& f) {
    p.has_goal = on(f);
    const double goal[3] = {f.goal.x, f.goal.y, f.goal.z};
    for (int a = 0; a < 3; ++a) p.goal[a] = static_cast<Real>(goal[a]);
    p.goal_weight = static_cast<Real>(on(f) ? f.goal_weight : 0);
    p.arrival_radius = static_cast<Real>(on(f) ? f.arrival_radius : 0);
  }
};

// The unit direction to the goal (the shortest way on the torus); 0 at the goal itself, or
// without a goal. With an arrival radius R, the offset over max(distance, R) instead: the unit
// direction outside R, shorter in proportion to the distance inside it (steering's desired
// velocity v_max times it is Reynolds' arrival). R = 0 divides by the distance, as without.
template <typename Real, int Lanes, int D>
BOIDS_HD inline void seek_goal(LaneTerms<Real, Lanes, D>& t, const LaneBoids<Real, Lanes, D>& self,
                               const StepParams<Real>& p) {
  if (!p.has_goal) {
    for (int a = 0; a < D; ++a) {
      for (int lane = 0; lane < Lanes; ++lane) t.goal[a][lane] = Real(0);
    }
    return;
  }
  Real goal[D];
  for (int a = 0; a < D; ++a) goal[a] = p.goal[a];
#if !defined(__CUDA_ARCH__)
#pragma omp simd
#endif
  for (int lane = 0; lane < Lanes; ++lane) {
    Real x[D], d[D];
    lane_position(self, lane, x);
    offset_between(x, goal, p, d);
    const Real distance = square_root(length_sq(d));
    const Real over = max_of(distance, p.arrival_radius);
    for (int a = 0; a < D; ++a) t.goal[a][lane] = distance > Real(0) ? d[a] / over : Real(0);
  }
}

// The goal's pull as a boids-model velocity change: kGoalGain times its weight, v_max.
template <typename Real, int Lanes, int D>
BOIDS_HD BOIDS_INLINE void pull_velocity(Real (&out)[D], const LaneTerms<Real, Lanes, D>& t,
                                         int lane, const StepParams<Real>& p) {
  const Real gain = Real(kGoalGain) * p.goal_weight * p.max_speed;
  for (int a = 0; a < D; ++a) out[a] = gain * t.goal[a][lane];
}

// The same as a steering force: the goal steered towards at the cruise speed. Without a goal
// its weight is 0, which adds a zero: the force is never -0, as it starts at +0, so the sum
// keeps its bits.
template <typename Real, int Lanes, int D>
BOIDS_HD BOIDS_INLINE void add_pull_force(Real (&force)[D], const Real (&v)[D],
                                          const LaneTerms<Real, Lanes, D>& t, int lane,
                                          const StepParams<Real>& p) {
  for (int a = 0; a < D; ++a) force[a] += p.goal_weight * (p.max_speed * t.goal[a][lane] - v[a]);
}

// Arrival: within its radius the goal's term is shorter than a unit, in proportion to the
// distance, and the least speed falls with it, so that a boid can come to rest.
template <typename Real, int Lanes, int D>
BOIDS_HD BOIDS_INLINE void arrival_least(Real& least, const LaneTerms<Real, Lanes, D>& t, int lane,
                                         const StepParams<Real>& p) {
  if (p.arrival_radius > Real(0)) {
    Real g[D];
    for (int a = 0; a < D; ++a) g[a] = t.goal[a][lane];
    least = p.min_speed * square_root(length_sq(g));
  }
}

// The goal turns a Vicsek heading h: h + weight times the direction, made a unit again.
template <typename Real, int Lanes, int D>
BOIDS_HD BOIDS_INLINE void turn_to_goal(Real (&h)[D], const LaneTerms<Real, Lanes, D>& t, int lane,
                                        const StepParams<Real>& p) {
  Real towards[D];
  for (int a = 0; a < D; ++a) towards[a] = h[a] + p.goal_weight * t.goal[a][lane];
  const Real length = square_root(length_sq(towards));
  const bool turns = p.has_goal & (length > Real(0));
  for (int a = 0; a < D; ++a) h[a] = turns ? towards[a] / length : h[a];
}

}  // namespace boids::kernels
