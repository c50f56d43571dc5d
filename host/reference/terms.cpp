// The reference's one account of the world's terms: when each acts, and what it adds to a
// boid's steering under the models that steer (a boids-model velocity change, in units of v_max
// a step, or a steering force), each written once for both kinds of model and in the order the
// kernels add them (kernels/world_terms.h). A new term is its functions here and its line in
// add_world_terms. Compiled without floating-point contraction, like the rest of the reference.
#include "host/reference/detail/terms.h"

#include <cmath>

#include "host/reference/detail/predators.h"

namespace boids::reference {

bool goal_acts(const FlockParams& p) {
  return p.has_goal;
}
bool wind_acts(const FlockParams& p) {
  return p.wind.x != 0 || p.wind.y != 0 || (p.dimensions == 3 && p.wind.z != 0);
}
bool noise_acts(const FlockParams& p) {
  return p.noise > 0;
}

namespace {

// The boids model's gains of the world's terms, per v_max.
constexpr double K_AVOID = 0.1, K_GOAL = 0.02, K_WANDER = 0.05, K_PATH = 0.1, K_EVADE = 0.1;

// Walls (a closed world) and obstacles push, and the goal pulls. Under the boids model the
// push and the pull are one change; under steering the push has up to the maximum force, the
// goal is sought at the cruise speed, and arrival lowers the least speed within its radius.
template <int D>
void push_and_pull(const TermSite<D>& at, bool by_force, Vector<D>& to, double& least) {
  const FlockParams& p = at.p;
  if (!(p.world.walled() || !p.obstacles.empty() || goal_acts(p))) return;
  const double vmax = p.max_speed;
  const Vector<D> push = avoidance_at<D>(p, at.x);
  if (!by_force) {
    const Vector<D> goal = goal_at<D>(p, at.x);
    const double avoid = K_AVOID * vmax;
    const double seek = K_GOAL * p.goal_weight * vmax;
    for (int a = 0; a < D; ++a) to[a] += avoid * push[a] + seek * goal[a];
    return;
  }
  for (int a = 0; a < D; ++a) to[a] += vmax * K_MAX_FORCE * push[a];
  if (!goal_acts(p)) return;
  const Vector<D> goal = goal_at<D>(p, at.x);
  for (int a = 0; a < D; ++a) to[a] += p.goal_weight * (vmax * goal[a] - at.v[a]);
  if (p.arrival_radius > 0) least = p.effective_min_speed() * std::sqrt(length_sq<D>(goal));
}

// Reynolds' wander: across the heading, with K_WANDER times its weight times v_max (boids),
// its weight times v_max (steering).
template <int D>
void wander(const TermSite<D>& at, bool by_force, Vector<D>& to) {
  const FlockParams& p = at.p;
  if (!(p.wander > 0)) return;
  double w[D];
  wander_direction(at.context, at.id, at.v.data(), D, w);
  const double roam = (by_force ? p.wander : K_WANDER * p.wander) * p.max_speed;
  for (int a = 0; a < D; ++a) to[a] += roam * w[a];
}

// Reynolds' path following, off the path alone: K_PATH times its weight times v_max along the
// way back (boids); the way back sought at the cruise speed with its weight (steering).
template <int D>
void follow_path(const TermSite<D>& at, bool by_force, Vector<D>& to) {
  const FlockParams& p = at.p;
  double d[D];
  if (p.path.empty() || !path_direction(p, at.x.data(), at.v.data(), D, d)) return;
  const double vmax = p.max_speed;
  if (by_force) {
    for (int a = 0; a < D; ++a) to[a] += p.path_weight * (vmax * d[a] - at.v[a]);
  } else {
    const double follow = K_PATH * p.path_weight * vmax;
    for (int a = 0; a < D; ++a) to[a] += follow * d[a];
  }
}

// Evading predators: K_EVADE v_max (boids), the maximum force (steering), a predator.
template <int D>
void evade(const TermSite<D>& at, bool by_force, Vector<D>& to) {
  const FlockParams& p = at.p;
  if (!(p.predators > 0)) return;
  double e[D];
  evade_direction(p, at.predators, at.x.data(), D, e);
  const double vmax = p.max_speed;
  const double gain = by_force ? vmax * K_MAX_FORCE : K_EVADE * vmax;
  for (int a = 0; a < D; ++a) to[a] += gain * e[a];
}

}  // namespace

template <int D>
void add_world_terms(const TermSite<D>& at, bool by_force, Vector<D>& to, double& least) {
  push_and_pull<D>(at, by_force, to, least);
  wander<D>(at, by_force, to);
  follow_path<D>(at, by_force, to);
  evade<D>(at, by_force, to);
}

template void add_world_terms<2>(const TermSite<2>&, bool, Vector<2>&, double&);
template void add_world_terms<3>(const TermSite<3>&, bool, Vector<3>&, double&);

}  // namespace boids::reference
