// How a block of boids moves once it has gathered its neighbours, as a table of stages:
//
//   terms   what walls, obstacles, the goal and the noise add (kernels/terms/, in the order
//           of kernels/world_terms.h)
//   steer   each boid's new velocity (the model's steer)
//   move    each boid's new position: on the torus, free in open space, or kept between walls
//           and out of obstacles (move_lanes)
//
// Each stage is a loop over the block's lanes. On CPU threads the lanes vectorise, as the
// gathering does, wherever a stage has no loop of its own (keeping boids out of obstacles
// has one, so it runs lane by lane); a GPU thread is a block of one lane. The arithmetic of
// every lane is the scalar code's, operation for operation, so vectorising changes no bit.
#pragma once

#include "kernels/rules.h"

namespace boids::kernels {

// A lane's position and velocity, as vectors.
template <typename Real, int Lanes, int D>
BOIDS_HD BOIDS_INLINE void lane_vectors(const LaneBoids<Real, Lanes, D>& boids, int lane,
                                        Real (&x)[D], Real (&v)[D]) {
  for (int a = 0; a < D; ++a) {
    x[a] = boids.position[a][lane];
    v[a] = boids.velocity[a][lane];
  }
}

// Sets the block's new velocities: the published step's arithmetic, and only where a length met a
// square too large for it (a velocity of 1e200 from a state file), the block again with its
// lengths taken at a smaller scale (length_of), which gives the same bits wherever nothing was
// that large.
template <typename Model, typename E, typename Real, typename Sums, int Lanes, int D>
BOIDS_HD BOIDS_INLINE void steer_lanes(LaneBoids<Real, Lanes, D>& next,
                                       const LaneBoids<Real, Lanes, D>& self, const Sums& sums,
                                       const LaneTerms<Real, Lanes, D>& terms,
                                       const StepParams<Real>& params) {
  const StepParams<Real> p = params;  // a local copy: its fields may be read under any switch
  int large = 0;
#if !defined(__CUDA_ARCH__)
#pragma omp simd reduction(| : large)
#endif
  for (int lane = 0; lane < Lanes; ++lane) {
    Real x[D], v[D];
    lane_vectors(self, lane, x, v);
    large |= Model::template steer<E, false>(x, v, sums, terms, lane, p);
    for (int a = 0; a < D; ++a) next.velocity[a][lane] = v[a];
  }
  if (large) {
    for (int lane = 0; lane < Lanes; ++lane) {
      Real x[D], v[D];
      lane_vectors(self, lane, x, v);
      Model::template steer<E, true>(x, v, sums, terms, lane, p);
      for (int a = 0; a < D; ++a) next.velocity[a][lane] = v[a];
    }
  }
}

// A lane's displacement in this step, from its new velocity.
template <typename Model, typename E, typename Real, int Lanes, int D>
BOIDS_HD BOIDS_INLINE void lane_displacement(const LaneBoids<Real, Lanes, D>& next, int lane,
                                             const StepParams<Real>& p, Real (&d)[D]) {
  Real v[D];
  for (int a = 0; a < D; ++a) v[a] = next.velocity[a][lane];
  Model::template displacement<E>(v, p, d);
}

// Sets the block's new positions where no wall stands: on the torus, wrapped as the model wraps;
// in open space, as moved. The world is tested once a block, not once a coordinate, so that the
// torus's loop holds its wrap alone.
template <typename Model, typename E, typename Real, int Lanes, int D>
BOIDS_HD BOIDS_INLINE void move_without_walls(LaneBoids<Real, Lanes, D>& next,
                                              const LaneBoids<Real, Lanes, D>& self,
                                              const StepParams<Real>& p) {
  const auto move = [&](auto open) BOIDS_LAMBDA_INLINE {
#if !defined(__CUDA_ARCH__)
#pragma omp simd
#endif
    for (int lane = 0; lane < Lanes; ++lane) {
      Real d[D];
      lane_displacement<Model, E>(next, lane, p, d);
      for (int a = 0; a < D; ++a) {
        const Real x = self.position[a][lane];
        next.position[a][lane] =
            decltype(open)::value ? x + d[a] : Model::onto_torus(x, d[a], p.side[a]);
      }
    }
  };
  if (p.open) {
    move(std::true_type{});
  } else {
    move(std::false_type{});
  }
}

// Marks the lanes whose moved boid an obstacle may hold: exactly so among the near obstacles,
// and all lanes whose move was longer than the near obstacles are good for (or all of them,
// without near obstacles).
template <typename Real, int Lanes, int D>
BOIDS_HD BOIDS_INLINE void may_be_held(int (&held)[Lanes], const LaneBoids<Real, Lanes, D>& next,
                                       const LaneBoids<Real, Lanes, D>& self,
                                       const StepParams<Real>& p) {
  if (p.obstacle_count == 0 || !p.near_obstacles) {
    for (int lane = 0; lane < Lanes; ++lane) held[lane] = p.obstacle_count > 0 ? 1 : 0;
    return;
  }
  const Real travel_sq = p.near_travel * p.near_travel;
#if !defined(__CUDA_ARCH__)
#pragma omp simd
#endif
  for (int lane = 0; lane < Lanes; ++lane) {
    Real from[D], to[D], d[D];
    lane_position(self, lane, from);
    lane_position(next, lane, to);
    offset_between(from, to, p, d);
    held[lane] = length_sq(d) <= travel_sq ? 0 : 1;
  }
  for (index_t k = 0; k < p.near_count; ++k) {
    const Obstacle<Real> o = p.near_obstacles[k];
#if !defined(__CUDA_ARCH__)
#pragma omp simd
#endif
    for (int lane = 0; lane < Lanes; ++lane) {
      Real x[D];
      lane_position(next, lane, x);
      held[lane] |= holds(o, x, p) ? 1 : 0;
    }
  }
}

// Sets the block's new positions between walls or among obstacles: a boid that crossed a wall
// is reflected, one that ends outside the world (never in open space) stays where it was and
// turns back. Most boids
// are held by no obstacle, which the obstacles near the block settle (see narrow_obstacles);
// the few that one may hold are settled one by one against all of them.
template <typename Model, typename E, typename Real, int Lanes, int D>
BOIDS_HD void move_in_world(LaneBoids<Real, Lanes, D>& next, const LaneBoids<Real, Lanes, D>& self,
                            int active, const StepParams<Real>& p) {
  if (!walled(p)) {
    move_without_walls<Model, E>(next, self, p);
  } else {
#if !defined(__CUDA_ARCH__)
#pragma omp simd
#endif
    for (int lane = 0; lane < Lanes; ++lane) {
      Real d[D];
      lane_displacement<Model, E>(next, lane, p, d);
      for (int a = 0; a < D; ++a) {
        Real x = self.position[a][lane] + d[a], v = next.velocity[a][lane];
        reflect_axis(x, v, p.side[a]);
        next.position[a][lane] = x;
        next.velocity[a][lane] = v;
      }
    }
  }
  int held[Lanes];
  may_be_held(held, next, self, p);
  for (int lane = 0; lane < active; ++lane) {
    if (held[lane] == 0) continue;
    Boid<Real, D> before = next.boid(lane);
    for (int a = 0; a < D; ++a) before.position[a] = self.position[a][lane];
    next.set(lane, settle_among_obstacles(next.boid(lane), before, p));
  }
#if !defined(__CUDA_ARCH__)
#pragma omp simd
#endif
  for (int lane = 0; lane < Lanes; ++lane) {
    Real x[D];
    lane_position(next, lane, x);
    const bool back = (held[lane] == 0) & !in_world(x, p);
    for (int a = 0; a < D; ++a) {
      next.position[a][lane] = back ? self.position[a][lane] : next.position[a][lane];
      next.velocity[a][lane] = back ? -next.velocity[a][lane] : next.velocity[a][lane];
    }
  }
}

// The move stage: between walls or among obstacles (with the world's terms), else on the
// torus or free in open space.
template <typename Model, typename E, typename Real, int Lanes, int D>
BOIDS_HD BOIDS_INLINE void move_lanes(LaneBoids<Real, Lanes, D>& next,
                                      const LaneBoids<Real, Lanes, D>& self, int active,
                                      const StepParams<Real>& p) {
  if (E::kWorldTerms && (walled(p) || p.obstacle_count > 0)) {
    move_in_world<Model, E>(next, self, active, p);
  } else {
    move_without_walls<Model, E>(next, self, p);
  }
}

// The stages after the terms: `next` becomes the block's boids after the step. Lanes from
// `active` on hold no boid (their results are not stored).
template <typename Model, typename E, typename Real, typename Sums, int Lanes, int D>
BOIDS_HD BOIDS_INLINE void advance_lanes(LaneBoids<Real, Lanes, D>& next,
                                         const LaneBoids<Real, Lanes, D>& self, int active,
                                         const Sums& sums, const LaneTerms<Real, Lanes, D>& terms,
                                         const StepParams<Real>& p) {
  steer_lanes<Model, E>(next, self, sums, terms, p);
  move_lanes<Model, E>(next, self, active, p);
}

// A block's step after its gathering: with the extras, the world's terms first (`id_of(lane)`,
// the input index of a lane's boid, keys its noise), then the stages above.
template <typename Model, typename E, typename Real, typename Sums, int Lanes, int D, typename IdOf>
BOIDS_HD BOIDS_INLINE void advance_block(LaneBoids<Real, Lanes, D>& next,
                                         const LaneBoids<Real, Lanes, D>& self, int active,
                                         const Sums& sums, IdOf&& id_of,
                                         const StepParams<Real>& p) {
  LaneTerms<Real, Lanes, D> terms{};  // unread without the extras
  if constexpr (E::kAny) {
    index_t ids[Lanes];  // lanes past the last boid repeat it, as `self` does
    for (int lane = 0; lane < Lanes; ++lane) {
      const index_t id = id_of(min_of(lane, active - 1));
      ids[lane] = p.noise_ids != nullptr ? p.noise_ids[id] : id;
    }
    compute_lane_terms(terms, self, ids, p);
  }
  advance_lanes<Model, E>(next, self, active, sums, terms, p);
}

// One boid's step after its gathering, the extras chosen at run time: a GPU thread's.
template <typename Model, typename Real, typename Sums, int D>
BOIDS_HD BOIDS_INLINE Boid<Real, D> advance_one(const Boid<Real, D>& b, const Sums& sums,
                                                index_t id, const StepParams<Real>& p) {
  LaneBoids<Real, 1, D> self, next;
  self.set(0, b);
  with_extras(p, [&](auto extras) {
    advance_block<Model, decltype(extras)>(
        next, self, 1, sums, [&](int) { return id; }, p);
  });
  return next.boid(0);
}

}  // namespace boids::kernels
