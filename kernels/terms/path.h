// Reynolds' path following: where each boid is predicted to be, the path's point it heads for
// when it strays, and what that adds to its steering.
#pragma once

#include "kernels/terms/lane_terms.h"

namespace boids::kernels {

// Path following, a world's term: its parameters (fields of FlockParams) and its slice of the
// step's constants, made from the flock's parameters (`f`, FlockParams). The points are the
// executor's (path_count is set with them). Its gain is kPathGain weight v_max where a model
// changes velocities, the weight where it steers by forces, whose lookahead is in units of time
// (times dt).
struct PathTerm {
  static constexpr const char* kName = "path";
  struct Params {
    /// Reynolds' path following: the points of a polyline the boids follow, closed when the
    /// last repeats the first (in three dimensions with a z); a boid predicted farther than
    /// path_radius from it (0: the perception radius) steers, with path_weight, for a point
    /// farther along it (docs/models.md). Empty: off.
    std::vector<Vec3> path;
    double path_radius = 0.0;
    double path_weight = 1.0;
  };
  // A boid predicted to leave the path's radius heads for the point of the path a lookahead
  // beyond its nearest one (follow_path). Off without points.
  template <typename Real>
  struct Constants {
    const PathPoint<Real>* path;
    index_t path_count;  // points (0: no path)
    bool path_closed;    // the target wraps past the end to the start; else stops at the end
    Real path_radius_sq;
    Real path_gain;       // kPathGain * weight * v_max (boids), the weight (steering)
    Real path_lookahead;  // kPathLookahead * dt
  };
  template <typename Real, int Lanes, int D>
  struct LaneValues {
    Real path[D][Lanes];  // the unit direction to the path's target
    int off_path[Lanes];  // 1 where the boid is predicted off the path
  };
  template <typename Flock>
  static bool on(const Flock& f) {
    return !f.path.empty();
  }
  template <typename Model, typename Real, typename Flock>
  static void set_constants(StepParams<Real>& p, const Flock& f) {
    p.path = nullptr;
    p.path_count = 0;
    p.path_closed = f.path_closed();
    const double radius = f.effective_path_radius();
    p.path_radius_sq = static_cast<Real>(radius * radius);
    const double gain =
        Model::kSteersByForce ? f.path_weight : kPathGain * f.path_weight * f.max_speed;
    p.path_gain = static_cast<Real>(gain);
    p.path_lookahead = static_cast<Real>(kPathLookahead * (Model::kSteersByForce ? f.dt : 1.0));
  }
};

// Where a lane's boid is predicted to be kPathLookahead steps on, at its velocity with the
// speed taken at most v_max (so that a velocity from a file, however large, predicts a point
// near the world), and that speed.
template <typename Real, int Lanes, int D>
BOIDS_HD BOIDS_INLINE Real predicted_position(const LaneBoids<Real, Lanes, D>& self, int lane,
                                              const StepParams<Real>& p, Real (&future)[D]) {
  Real v[D], c[D];
  for (int a = 0; a < D; ++a) v[a] = c[a] = self.velocity[a][lane];
  const bool huge = scale_for_length(c);
  const Real speed = square_root(length_sq(c));
  const bool fast = huge | (speed > p.max_speed);
  for (int a = 0; a < D; ++a) {
    c[a] = fast ? c[a] / speed * p.max_speed : v[a];
    future[a] = self.position[a][lane] + c[a] * p.path_lookahead;
  }
  return fast ? p.max_speed : speed;
}

// Each lane's nearest point on the path to `x[.][lane]`: on each segment a -> b, a + t (b - a)
// with t the projection of the offset d from a clamped to [0, 1]; the first segment wins a
// tie. On a torus d is the offset from the segment's middle m = a + (b - a) / 2, the shortest
// way, plus (b - a) / 2: the image of x nearest the segment, whatever its length. The squared
// distance, and the distance along the path.
template <typename Real, int Lanes, int D>
BOIDS_HD BOIDS_INLINE void nearest_on_path(const Real (&x)[D][Lanes], const StepParams<Real>& p,
                                           Real (&nearest_sq)[Lanes], Real (&along)[Lanes]) {
  for (int lane = 0; lane < Lanes; ++lane) nearest_sq[lane] = along[lane] = Real(0);
  for (index_t k = 0; k + 1 < p.path_count; ++k) {
    const PathPoint<Real> from = p.path[k], to = p.path[k + 1];
    Real middle[D], e[D], half[D];
    for (int a = 0; a < D; ++a) {
      e[a] = to.at[a] - from.at[a];
      half[a] = e[a] / Real(2);
      middle[a] = from.at[a] + half[a];
    }
    const Real e_sq = length_sq(e), length = to.from_start - from.from_start;
#if !defined(__CUDA_ARCH__)
#pragma omp simd
#endif
    for (int lane = 0; lane < Lanes; ++lane) {
      Real here[D], d[D];
      for (int a = 0; a < D; ++a) here[a] = x[a][lane];
      offset_between(middle, here, p, d);
      for (int a = 0; a < D; ++a) d[a] = d[a] + half[a];
      const Real s = min_of(max_of(dot(d, e) / e_sq, Real(0)), Real(1));
      for (int a = 0; a < D; ++a) d[a] = d[a] - s * e[a];
      const Real gap_sq = length_sq(d);
      const bool closer = (k == 0) | (gap_sq < nearest_sq[lane]);
      nearest_sq[lane] = closer ? gap_sq : nearest_sq[lane];
      along[lane] = closer ? from.from_start + s * length : along[lane];
    }
  }
}

// Each lane's point of the path at distance `target[lane]` along it: on the last segment that
// starts at or before it.
template <typename Real, int Lanes, int D>
BOIDS_HD BOIDS_INLINE void point_on_path(const Real (&target)[Lanes], const StepParams<Real>& p,
                                         Real (&point)[D][Lanes]) {
  for (index_t k = 0; k + 1 < p.path_count; ++k) {
    const PathPoint<Real> from = p.path[k], to = p.path[k + 1];
    const Real length = to.from_start - from.from_start;
#if !defined(__CUDA_ARCH__)
#pragma omp simd
#endif
    for (int lane = 0; lane < Lanes; ++lane) {
      const bool here = (k == 0) | (target[lane] >= from.from_start);
      const Real s = (target[lane] - from.from_start) / length;
      for (int a = 0; a < D; ++a) {
        point[a][lane] = here ? from.at[a] + s * (to.at[a] - from.at[a]) : point[a][lane];
      }
    }
  }
}

// Reynolds' path following (OpenSteer's steerToFollowPath). A boid whose predicted position
// (predicted_position) lies within the path's radius of the path, and farther along it than
// the boid's own position (the way round a closed path's start that is shorter), is following
// it and nothing steers it. Any other heads, the shortest way, for the point of the path its
// speed times the lookahead farther along than the point nearest its predicted position:
// wrapping past the end of a closed path, stopping at the end of an open one.
template <typename Real, int Lanes, int D>
BOIDS_HD inline void follow_path(LaneTerms<Real, Lanes, D>& t,
                                 const LaneBoids<Real, Lanes, D>& self, const StepParams<Real>& p) {
  Real future[D][Lanes], pace[Lanes];
  for (int lane = 0; lane < Lanes; ++lane) {
    Real f[D];
    pace[lane] = predicted_position(self, lane, p, f);
    for (int a = 0; a < D; ++a) future[a][lane] = f[a];
  }
  Real nearest_sq[Lanes], along[Lanes], now_sq[Lanes], now[Lanes];
  nearest_on_path(future, p, nearest_sq, along);
  nearest_on_path(self.position, p, now_sq, now);
  const Real total = p.path[p.path_count - 1].from_start;
  Real target[Lanes];
  for (int lane = 0; lane < Lanes; ++lane) {
    Real onward = along[lane] - now[lane];
    if (p.path_closed) {
      onward = onward > total / Real(2) ? onward - total : onward;
      onward = onward < -(total / Real(2)) ? onward + total : onward;
    }
    const bool following = !(nearest_sq[lane] > p.path_radius_sq) & (onward > Real(0));
    t.off_path[lane] = following ? 0 : 1;
    const Real ahead = along[lane] + pace[lane] * p.path_lookahead;
    target[lane] = p.path_closed ? remainder_of(ahead, total) : min_of(ahead, total);
  }
  Real point[D][Lanes] = {};
  point_on_path(target, p, point);
#if !defined(__CUDA_ARCH__)
#pragma omp simd
#endif
  for (int lane = 0; lane < Lanes; ++lane) {
    Real x[D], to[D], d[D];
    lane_position(self, lane, x);
    for (int a = 0; a < D; ++a) to[a] = point[a][lane];
    offset_between(x, to, p, d);
    const Real distance = square_root(length_sq(d));
    for (int a = 0; a < D; ++a) t.path[a][lane] = distance > Real(0) ? d[a] / distance : Real(0);
  }
}

// The path's steering as a boids-model velocity change, for a boid predicted off the path
// alone: kPathGain times the weight, v_max, towards its target.
template <typename Real, int Lanes, int D>
BOIDS_HD BOIDS_INLINE void add_path_velocity(Real (&v)[D], const LaneTerms<Real, Lanes, D>& t,
                                             int lane, const StepParams<Real>& p) {
  const bool off = t.off_path[lane] != 0;
  for (int a = 0; a < D; ++a) v[a] = off ? v[a] + p.path_gain * t.path[a][lane] : v[a];
}

// The same as a steering force: the target sought at the cruise speed, off the path alone.
template <typename Real, int Lanes, int D>
BOIDS_HD BOIDS_INLINE void add_path_force(Real (&force)[D], const Real (&v)[D],
                                          const LaneTerms<Real, Lanes, D>& t, int lane,
                                          const StepParams<Real>& p) {
  const bool off = t.off_path[lane] != 0;
  for (int a = 0; a < D; ++a) {
    const Real seek = p.path_gain * (p.max_speed * t.path[a][lane] - v[a]);
    force[a] = off ? force[a] + seek : force[a];
  }
}

}  // namespace boids::kernels
