// The world's terms in their order: each is a file of kernels/terms/ (walls, obstacles, the
// goal and arrival, wander, the path, evasion, the noise's turn) that computes what it says of
// a block of boids before they move, as a stage of lane loops that vectorise on CPU threads (a
// GPU thread has one lane), and what that adds to each model's steering. A model's steer
// receives their sum through add_velocity_terms, add_force_terms or add_heading_terms, so a
// new term touches this file and no model. All are computed from the boids before the step
// and added in the order the reference adds them, so the sums agree bit for bit.
//
// Each term declares (a struct in its file, e.g. WanderTerm) its parameters (`Params`: its
// fields of FlockParams), its slice of the step's constants (`Constants`) and of what a block's
// terms hold (`LaneValues`), how its constants are made from the flock's parameters, and when
// it is on. The lists below make StepParams, LaneTerms and FlockParams' terms' fields of those
// slices, and are what step_params_of and every "any term on" test loop over.
#pragma once

#include "kernels/terms/evade.h"
#include "kernels/terms/goal.h"
#include "kernels/terms/lane_terms.h"
#include "kernels/terms/obstacles.h"
#include "kernels/terms/path.h"
#include "kernels/terms/turn.h"
#include "kernels/terms/walls.h"
#include "kernels/terms/wander.h"
#include "kernels/terms/wind.h"

#include <type_traits>

namespace boids::kernels {

template <typename... Terms>
struct TermList {};

// The world's terms: any of them on and a step computes its lane terms (p.world_terms).
using WorldTerms = TermList<WallsTerm, ObstaclesTerm, GoalTerm, WanderTerm, PathTerm, EvadeTerm>;
// Every term: the world's, then the noise and the wind, which each model applies itself.
using AllTerms = TermList<WallsTerm, ObstaclesTerm, GoalTerm, WanderTerm, PathTerm, EvadeTerm,
                          NoiseTerm, WindTerm>;

// A term's slices, where it declares them; else an empty struct of its own (a class may not
// derive twice from one type).
template <typename Term, typename = void>
struct ParamsOf {
  struct type {};
};
template <typename Term>
struct ParamsOf<Term, std::void_t<typename Term::Params>> {
  using type = typename Term::Params;
};
template <typename Term, typename Real, typename = void>
struct ConstantsOf {
  struct type {};
};
template <typename Term, typename Real>
struct ConstantsOf<Term, Real, std::void_t<typename Term::template Constants<Real>>> {
  using type = typename Term::template Constants<Real>;
};
template <typename Term, typename Real, int Lanes, int D, typename = void>
struct LaneValuesOf {
  struct type {};
};
template <typename Term, typename Real, int Lanes, int D>
struct LaneValuesOf<Term, Real, Lanes, D,
                    std::void_t<typename Term::template LaneValues<Real, Lanes, D>>> {
  using type = typename Term::template LaneValues<Real, Lanes, D>;
};

template <typename List>
struct TermParamsOf;
template <typename... Terms>
struct TermParamsOf<TermList<Terms...>> : ParamsOf<Terms>::type... {};
template <typename Real, typename List>
struct TermConstantsOf;
template <typename Real, typename... Terms>
struct TermConstantsOf<Real, TermList<Terms...>> : ConstantsOf<Terms, Real>::type... {};
template <typename Real, int Lanes, int D, typename List>
struct TermLaneValuesOf;
template <typename Real, int Lanes, int D, typename... Terms>
struct TermLaneValuesOf<Real, Lanes, D, TermList<Terms...>>
    : LaneValuesOf<Terms, Real, Lanes, D>::type... {};

// Every term's parameters: FlockParams derives from them (host/model/flock.h).
using TermParams = TermParamsOf<AllTerms>;

// The constants of one step, as the kernels see them: built once on the host per run (see
// step_params_of in host/backends/flock_layout.h), the step number set before each step. Every
// term has a switch in its slice that makes it free when off.
template <typename Real>
struct StepParams : StepCore<Real>, TermConstantsOf<Real, AllTerms> {};

// What the terms write for a block of boids before they move, one entry per lane.
template <typename Real, int Lanes, int D>
struct LaneTerms : TermLaneValuesOf<Real, Lanes, D, AllTerms> {};

// Whether any term of the list is on for the flock's parameters `f` (FlockParams).
template <typename Flock, typename... Terms>
bool any_term_on(TermList<Terms...>, const Flock& f) {
  return (Terms::on(f) || ...);
}

// Calls visit(name, on) for each term of the list, in order.
template <typename Flock, typename Visit, typename... Terms>
void for_each_term(TermList<Terms...>, const Flock& f, Visit&& visit) {
  (visit(Terms::kName, Terms::on(f)), ...);
}

// Every term's slice of the step's constants under the kernel model `Model`, and whether the
// world's terms are on.
template <typename Model, typename Real, typename Flock, typename... Terms>
void set_term_constants(TermList<Terms...>, StepParams<Real>& p, const Flock& f) {
  (Terms::template set_constants<Model>(p, f), ...);
  p.world_terms = any_term_on(WorldTerms{}, f);
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
