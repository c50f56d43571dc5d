// The world's terms as the reference adds them to a boid's steering (terms.cpp), written apart
// from the kernels' (kernels/terms/) to the same specification: each term once, in the units
// of both kinds of model, in the order the kernels add them. Internal to the reference.
#pragma once

#include <cstddef>

#include "host/reference/detail/space.h"

namespace boids::reference {

// What a term may ask of the boid it acts on: the flight, the step, the predators, and the
// boid's index, position and velocity before the step.
template <int D>
struct TermSite {
  const FlockParams& p;
  const StepContext& context;
  const Particles& predators;
  std::size_t id;
  const Vector<D>& x;
  const Vector<D>& v;
};

// Adds the world's terms that act on the boid at `at` to `to`: as a velocity change under the
// boids model (`by_force` false, in units of v_max a step), or as a steering force under the
// steering model, where arrival may also lower the least speed `least`.
template <int D>
void add_world_terms(const TermSite<D>& at, bool by_force, Vector<D>& to, double& least);

}  // namespace boids::reference
