// The world's terms in their order: each is a file of kernels/terms/ (walls, obstacles, the
// goal and arrival, wander, the path, evasion, the noise's turn) that computes what it says of
// a block of boids before they move, as a stage of lane loops that vectorise on CPU threads (a
// GPU thread has one lane), and what that adds to each model's steering. A model's steer
// receives their sum through add_velocity_terms, add_force_terms or add_heading_terms, so a
// new term touches this file and no model. All are computed from the boids before the step
// and added in the order the reference adds them, so the sums agree bit for bit.
#pragma once

#include "kernels/terms/evade.h"
#include "kernels/terms/goal.h"
#include "kernels/terms/lane_terms.h"
#include "kernels/terms/obstacles.h"
#include "kernels/terms/path.h"
#include "kernels/terms/turn.h"
#include "kernels/terms/walls.h"
#include "kernels/terms/wander.h"

namespace boids::kernels {

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

// The terms' sum added to a boids-model velocity v: the push of walls and obstacles and the
// goal's pull as one change (the reference adds them so), then wander's, the path's and
// evasion's in turn.
template <typename Real, int Lanes, int D>
BOIDS_HD BOIDS_INLINE void add_velocity_terms(Real (&v)[D], const LaneTerms<Real, Lanes, D>& t,
                                              int lane, const StepParams<Real>& p) {
  Real push[D], pull[D];
  push_velocity(push, t, lane, p);
  pull_velocity(pull, t, lane, p);
  for (int a = 0; a < D; ++a) v[a] += push[a] + pull[a];
  if (p.has_wander) add_wander(v, t, lane, p);
  if (p.path_count > 0) add_path_velocity(v, t, lane, p);
  if (p.predator_count > 0) add_evasion(v, t, lane, p);
}

// The terms' sum added to a steering force (the boid moving at v), each in turn; and the
// least speed, which arrival lowers near the goal.
template <typename Real, int Lanes, int D>
BOIDS_HD BOIDS_INLINE void add_force_terms(Real (&force)[D], Real& least, const Real (&v)[D],
                                           const LaneTerms<Real, Lanes, D>& t, int lane,
                                           const StepParams<Real>& p) {
  add_push_force(force, t, lane, p);
  add_pull_force(force, v, t, lane, p);
  if (p.has_wander) add_wander(force, t, lane, p);
  if (p.path_count > 0) add_path_force(force, v, t, lane, p);
  if (p.predator_count > 0) add_evasion(force, t, lane, p);
  arrival_least(least, t, lane, p);
}

// The terms that turn a Vicsek heading h: the goal (walls and obstacles reflect its particles
// instead, and the other terms steer).
template <typename Real, int Lanes, int D>
BOIDS_HD BOIDS_INLINE void add_heading_terms(Real (&h)[D], const LaneTerms<Real, Lanes, D>& t,
                                             int lane, const StepParams<Real>& p) {
  turn_to_goal(h, t, lane, p);
}

}  // namespace boids::kernels
