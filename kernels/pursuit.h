// Predators as agents (--predators K; Reynolds' pursuit and evasion, docs/models.md): a few
// predators fly in the flock's world, each after the boid nearest to it. A step of them:
//   evade   each boid near a predator steers away from where it will be: a world's term of
//           the boids' step (evade_predators, kernels/terms/evade.h)
//   target  each predator's nearest boid by (d^2, input index)    (PursueNaive, PursueHashed)
//   pursue  it steers for where that boid will be, at its own top speed   (pursue)
//   move    as a boid moves: wrapped on the torus, turned back by walls, out of obstacles
// Both halves read the state before the step, so they may run in either order. The hashed
// method searches the cell index the boids' step has just built (offer_rings), the naive one
// every boid; (d^2, input index) is a total order, so both choose the same target. One
// predator a thread on every executor: there are few of them.
#pragma once

#include "kernels/nearest_step.h"

namespace boids::kernels {

// The predator `self` with its new velocity and position, after steering for `target` (null:
// no boid to pursue, so it glides on). Reynolds' pursuit: the target at offset d (its image
// nearest the predator) will be at d + u |d| / s when the predator has covered the distance at
// its top speed s; the desired velocity is s towards it. The steering, desired - velocity plus
// the push of walls and obstacles at full force (as a boid's avoidance), is truncated to the
// predator's force; velocity += steering dt, its speed kept at most s; then it moves as the
// model moves boids.
template <typename Model, typename Real, int D>
BOIDS_HD Boid<Real, D> pursue(const Boid<Real, D>& self, const Boid<Real, D>* target,
                              const StepParams<Real>& p) {
  Real force[D];
  for (int a = 0; a < D; ++a) force[a] = Real(0);
  if (target != nullptr) {
    Real d[D], ahead[D];
    offset_between(self.position, target->position, p, d);
    const Real time = square_root(length_sq(d)) / p.predator_speed;
    for (int a = 0; a < D; ++a) ahead[a] = d[a] + target->velocity[a] * time;
    const Real length = square_root(length_sq(ahead));
    for (int a = 0; a < D; ++a) {
      const Real desired = length > Real(0) ? ahead[a] / length * p.predator_speed : Real(0);
      force[a] = desired - self.velocity[a];
    }
  }
  LaneBoids<Real, 1, D> before, next;
  before.set(0, self);
  if (p.world_terms) {
    LaneTerms<Real, 1, D> terms;
    avoid_walls(terms, before, p);
    if (p.obstacle_count > 0) avoid_obstacles(terms, before, p);
    for (int a = 0; a < D; ++a) force[a] += p.predator_force * terms.avoid[a][0];
  }
  const Real magnitude = square_root(length_sq(force));
  const bool truncated = magnitude > p.predator_force;
  Real v[D];
  for (int a = 0; a < D; ++a) {
    const Real f = truncated ? force[a] / magnitude * p.predator_force : force[a];
    v[a] = self.velocity[a] + f * p.dt;
  }
  const Real speed = square_root(length_sq(v));
  for (int a = 0; a < D; ++a) {
    next.velocity[a][0] = speed > p.predator_speed ? v[a] / speed * p.predator_speed : v[a];
  }
  using Moves = Extras<true, false, false>;  // walls and obstacles, and no wind or noise
  StepParams<Real> all = p;  // settled against every obstacle (near ones are a block's)
  all.near_obstacles = nullptr;
  move_lanes<Model, Moves>(next, before, 1, all);
  return next.boid(0);
}

// A predator's step: `offer(list, flags)` offers it the boids of `boids` (the pair flags of
// with_pair_flags: wrapped on a torus, and no field of view), and it pursues the nearest.
template <typename Model, typename Real, int D, typename Offer>
BOIDS_HD Boid<Real, D> pursue_nearest(const Boid<Real, D>& self, const Boid<Real, D>* boids,
                                      const StepParams<Real>& p, Offer&& offer) {
  NearestList<Real> list;
  list.wanted = 1;
  with_pair_flags(p.torus, false, [&](auto flags) { offer(list, flags); });
  return pursue<Model>(self, list.count > 0 ? &boids[list.slot[0]] : nullptr, p);
}

// The naive method's: predator k offers every boid, in input order.
template <typename Model, typename Real, int D>
struct PursueNaive {
  const Boid<Real, D>* boids;  // before the step, in input order
  index_t count;
  const Boid<Real, D>* in;  // the predators before the step
  Boid<Real, D>* out;
  StepParams<Real> params;

  BOIDS_HD void operator()(index_t k) const {
    const Boid<Real, D> self = in[k];
    out[k] = pursue_nearest<Model>(self, boids, params, [&](NearestList<Real>& list, auto flags) {
      offer_run<decltype(flags)::kWraps, false>(list, self, count, boids, nullptr, 0, count,
                                                params);
    });
  }
};

// The hashed method's: predator k searches the rings of cells around it on the cell index of
// the boids before the step (sorted by cell, `ids` their input indices).
template <typename Model, typename Real, int D>
struct PursueHashed {
  const Boid<Real, D>* sorted;
  const index_t* ids;
  const index_t* cell_start;
  CellGrid<Real, D> grid;
  index_t count;
  const Boid<Real, D>* in;
  Boid<Real, D>* out;
  StepParams<Real> params;

  BOIDS_HD void operator()(index_t k) const {
    const Boid<Real, D> self = in[k];
    out[k] = pursue_nearest<Model>(self, sorted, params, [&](NearestList<Real>& list, auto flags) {
      offer_rings<decltype(flags)::kWraps, false>(list, self, count, sorted, ids, cell_start, count,
                                                  grid, params);
    });
  }
};

// 1 for a boid closer than the flee radius to some predator, else 0: the metrics' count of
// boids within the predators' reach.
template <typename Real, int D>
struct WithinReach {
  const Boid<Real, D>* boids;
  StepParams<Real> params;

  BOIDS_HD double operator()(index_t i) const {
    const Boid<Real, D>* predators = predators_of<D>(params);
    for (index_t k = 0; k < params.predator_count; ++k) {
      Real d[D];
      offset_between(boids[i].position, predators[k].position, params, d);
      if (square_root(length_sq(d)) < params.flee_radius) return 1.0;  // as evade_predators
    }
    return 0.0;
  }
};

}  // namespace boids::kernels
