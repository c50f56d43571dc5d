// What the world and the noise add to a block of boids before they move, one entry per lane:
// the push of walls and obstacles, the direction to the goal, wander's steering and the
// noise's rotation. Each is a stage of lane loops that vectorise on CPU threads, as the
// gathering does (a GPU thread has one lane); the models' steer then reads them. All are
// computed from the boids before the step, in the order the reference computes them, so the
// sums agree bit for bit.
#pragma once

#include "kernels/noise.h"
#include "kernels/world.h"

namespace boids::kernels {

// A turn of the noise: (cos, sin) of the 2D rotation; in 3D (cos, sin) of the polar angle
// and of the azimuth (noise_cone).
template <int D>
inline constexpr int kTurnValues = D == 2 ? 2 : 4;

template <typename Real, int Lanes, int D>
struct LaneTerms {
  Real avoid[D][Lanes];                // walls and obstacles (see avoid_walls)
  Real goal[D][Lanes];                 // the unit direction to the goal, or 0
  Real wander[D][Lanes];               // wander's steering direction (read only with it)
  Real path[D][Lanes];                 // the unit direction to the path's target (with a path)
  int off_path[Lanes];                 // 1 where the boid is predicted off the path
  Real evade[D][Lanes];                // away from the predators near it (with predators)
  double turn[kTurnValues<D>][Lanes];  // the noise's turn
};

// The position of a lane's boid.
template <typename Real, int Lanes, int D>
BOIDS_HD BOIDS_INLINE void lane_position(const LaneBoids<Real, Lanes, D>& self, int lane,
                                         Real (&x)[D]) {
  for (int a = 0; a < D; ++a) x[a] = self.position[a][lane];
}

// How urgently walls push each boid, and where: the sum over each wall closer than
// wall_distance of (1 - gap / wall_distance) times the direction away from it. Selects, not
// branches, so that the lanes vectorise; adding a selected +0 to a sum that starts at +0 changes
// nothing, bit for bit.
template <typename Real, int Lanes, int D>
BOIDS_HD inline void avoid_walls(LaneTerms<Real, Lanes, D>& t,
                                 const LaneBoids<Real, Lanes, D>& self, const StepParams<Real>& p) {
  const Real reach = p.wall_distance;
  for (int a = 0; a < D; ++a) {
    const Real side = p.side[a];
#if !defined(__CUDA_ARCH__)
#pragma omp simd
#endif
    for (int lane = 0; lane < Lanes; ++lane) {
      const Real x = self.position[a][lane];
      Real u = 0;
      if (!p.torus) {
        u += x < reach ? Real(1) - x / reach : Real(0);
        u -= side - x < reach ? Real(1) - (side - x) / reach : Real(0);
      }
      t.avoid[a][lane] = u;
    }
  }
}

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

// Each boid's wander: the part across its heading of its drift, a vector whose components
// each wander in [-1, 1] (wander_drift, keyed by the boid's input index `ids[lane]`). Taken in
// double, as the noise is, and rounded to Real.
template <typename Real, int Lanes, int D>
BOIDS_HD inline void wander_lanes(LaneTerms<Real, Lanes, D>& t,
                                  const LaneBoids<Real, Lanes, D>& self, const index_t* ids,
                                  const StepParams<Real>& p) {
  std::uint64_t keys[D];
  for (int a = 0; a < D; ++a) keys[a] = wander_axis_key(p.noise_key, a);
#if !defined(__CUDA_ARCH__)
#pragma omp simd
#endif
  for (int lane = 0; lane < Lanes; ++lane) {
    double s[D], w[D];
    Real v[D];
    for (int a = 0; a < D; ++a) {
      s[a] = wander_drift(keys[a], p.step, ids[lane]);
      v[a] = self.velocity[a][lane];
    }
    across_heading(s, v, w);
    for (int a = 0; a < D; ++a) t.wander[a][lane] = static_cast<Real>(w[a]);
  }
}

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

// The box [low, high] that holds a block's boids.
template <typename Real, int Lanes, int D>
BOIDS_HD BOIDS_INLINE void block_bounds(const LaneBoids<Real, Lanes, D>& self, Real (&low)[D],
                                        Real (&high)[D]) {
  for (int a = 0; a < D; ++a) {
    low[a] = high[a] = self.position[a][0];
    for (int lane = 1; lane < Lanes; ++lane) {
      low[a] = min_of(low[a], self.position[a][lane]);
      high[a] = max_of(high[a], self.position[a][lane]);
    }
  }
}

// The squared distance from `point` to the box `centre` +- `half`, the shortest way on a torus
// (the offset to the centre, less the half extent, axis by axis): no point of the box is nearer.
template <typename Real, int D>
BOIDS_HD BOIDS_INLINE Real gap_sq_to_box(const Real (&centre)[D], const Real (&half)[D],
                                         const Real (&point)[D], const StepParams<Real>& p) {
  Real d[D];
  offset_between(centre, point, p, d);
  for (int a = 0; a < D; ++a) d[a] = max_of(absolute(d[a]) - half[a], Real(0));
  return length_sq(d);
}

// About a hundred rounding errors of the world's coordinates: what keeps a choice made with a
// block's box on the safe side of every test made with the boids themselves.
template <int D, typename Real>
BOIDS_HD BOIDS_INLINE Real coordinate_slack(const StepParams<Real>& p) {
  Real sides = p.side[0];
  for (int a = 1; a < D; ++a) sides += p.side[a];
  return sides * (sizeof(Real) == 4 ? Real(1e-5) : Real(1e-13));
}

// Reynolds' evasion: for each predator closer than the flee radius R (its image nearest the
// boid, at offset d), the unit direction away from where it will be when it has covered the
// distance at its top speed s, x - (q + u |d| / s), times (1 - |d| / R); summed over the
// predators in order. A predator's speed is at most s (checked where states enter), so the
// prediction stays within 2 R of the boid. A predator out of reach of the block's box adds +0
// to each lane, which changes no sum: it is skipped. Most blocks are far from every predator.
template <typename Real, int Lanes, int D>
BOIDS_HD inline void evade_predators(LaneTerms<Real, Lanes, D>& t,
                                     const LaneBoids<Real, Lanes, D>& self,
                                     const StepParams<Real>& p) {
  for (int a = 0; a < D; ++a) {
    for (int lane = 0; lane < Lanes; ++lane) t.evade[a][lane] = Real(0);
  }
  Real low[D], high[D], centre[D], half[D];
  block_bounds(self, low, high);
  for (int a = 0; a < D; ++a) {
    centre[a] = (low[a] + high[a]) / Real(2);
    half[a] = (high[a] - low[a]) / Real(2);
  }
  const Real reach = p.flee_radius * Real(1.01) + coordinate_slack<D>(p);
  const Boid<Real, D>* predators = predators_of<D>(p);
  for (index_t k = 0; k < p.predator_count; ++k) {
    const Boid<Real, D> q = predators[k];
    if (!(gap_sq_to_box(centre, half, q.position, p) < reach * reach)) continue;
#if !defined(__CUDA_ARCH__)
#pragma omp simd
#endif
    for (int lane = 0; lane < Lanes; ++lane) {
      Real x[D], d[D], away[D];
      lane_position(self, lane, x);
      offset_between(x, q.position, p, d);
      const Real distance = square_root(length_sq(d));
      const Real ahead = distance / p.predator_speed;
      for (int a = 0; a < D; ++a) away[a] = -d[a] - q.velocity[a] * ahead;
      const Real length = square_root(length_sq(away));
      const bool flees = (distance < p.flee_radius) & (length > Real(0));
      const Real urgency = Real(1) - distance / p.flee_radius;
      for (int a = 0; a < D; ++a) {
        t.evade[a][lane] += flees ? urgency * (away[a] / length) : Real(0);
      }
    }
  }
}

// Each boid's noise turn, from its input index `ids[lane]`.
template <typename Real, int Lanes, int D>
BOIDS_HD inline void draw_turns(LaneTerms<Real, Lanes, D>& t, const index_t* ids,
                                const StepParams<Real>& p) {
  if constexpr (D == 2) {
#if !defined(__CUDA_ARCH__)
#pragma omp simd
#endif
    for (int lane = 0; lane < Lanes; ++lane) {
      noise_turn(p.noise, p.noise_key, p.step, ids[lane], t.turn[0][lane], t.turn[1][lane]);
    }
  } else {
    const std::uint64_t azimuth_key = azimuth_key_of(p.noise_key);
    for (int lane = 0; lane < Lanes; ++lane) {
      double turn[4];
      noise_cone(p.noise, p.noise_key, azimuth_key, p.step, ids[lane], turn);
      for (int k = 0; k < 4; ++k) t.turn[k][lane] = turn[k];
    }
  }
}

// Turns a lane's new velocity (or Vicsek heading) by its noise.
template <typename Real, int Lanes, int D>
BOIDS_HD BOIDS_INLINE void apply_turn(Real (&v)[D], const LaneTerms<Real, Lanes, D>& t, int lane) {
  if constexpr (D == 2) {
    rotate(v[0], v[1], t.turn[0][lane], t.turn[1][lane]);
  } else {
    const double turn[4] = {t.turn[0][lane], t.turn[1][lane], t.turn[2][lane], t.turn[3][lane]};
    turn_within_cone(v, turn);
  }
}

// The stages the step asks for. Within the world's terms every entry is set: no push on a
// torus without obstacles, a direction of 0 without a goal; wander's, the path's and the
// predators' only with them.
template <typename Real, int Lanes, int D>
BOIDS_HD BOIDS_INLINE void compute_lane_terms(LaneTerms<Real, Lanes, D>& t,
                                              const LaneBoids<Real, Lanes, D>& self,
                                              const index_t* ids, const StepParams<Real>& p) {
  if (p.world_terms) {
    avoid_walls(t, self, p);
    if (p.obstacle_count > 0) avoid_obstacles(t, self, p);
    seek_goal(t, self, p);
    if (p.has_wander) wander_lanes(t, self, ids, p);
    if (p.path_count > 0) follow_path(t, self, p);
    if (p.predator_count > 0) evade_predators(t, self, p);
  }
  if (p.has_noise) draw_turns(t, ids, p);
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
