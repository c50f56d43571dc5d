// Predators as agents, the reference's own account (docs/models.md), written apart from the
// kernels' (kernels/pursuit.h, evade_predators in kernels/terms/evade.h): boids evade the
// predators near them, and each predator pursues the boid nearest to it. Internal to the
// reference.
#pragma once

#include "host/model/flock.h"

namespace boids::reference {

// What the predators ask of a boid at `x` (n = 2 or 3 coordinates): the sum, over each
// predator closer than the flee radius R (at offset d, the shortest way), of (1 - |d| / R)
// times the unit direction from where the predator will be once it has covered |d| at its top
// speed s (its position plus its velocity times |d| / s) to the boid. Zero without predators.
void evade_direction(const FlockParams& p, const Particles& predators, const double* x, int n,
                     double* out);

// The predators of `s` after one step: each steers for where the boid nearest to it (the lower
// index on a tie) will be once it has covered the distance at its top speed, its steering
// with the push of walls and obstacles at full force truncated to its agility, its speed kept
// at most its top speed; then it moves as the model moves a boid. All from the state before
// the step.
Particles pursue(const FlockState& s, const FlockParams& p);

}  // namespace boids::reference
