// The reference's steps for every model and variant, each a plain gather over all pairs in
// ascending index order (the seed's own step is in seed_step.cpp). Internal to the reference.
#pragma once

#include "host/model/flock.h"
#include "host/reference/detail/world.h"

namespace boids::reference {

// Seed 000's rules with the variants: field of view, separation radius, noise, walls,
// obstacles, goal, wind, a rectangular world.
void boids_step(FlockState& state, const FlockParams& params, const StepContext& context);

// Seed 002's steering model, every boid from the same snapshot.
void steering_step(FlockState& state, const FlockParams& params, const StepContext& context);

// Seed 002's own loop: boids one after the other, each seeing the new state of those before
// it, candidates from the lab's hash grid, no neighbours across the edges.
void steering_lab_step(FlockState& state, const FlockParams& params, const StepContext& context);

// In three dimensions (docs/3d.md), on the box's torus or between its walls: seed 000's rules
// with the field of view, the separation radius, the noise, the goal and the wind; Vicsek's
// model; seed 002's steering model, synchronously.
void boids_step_3d(FlockState& state, const FlockParams& params, const StepContext& context);
void vicsek_step_3d(FlockState& state, const FlockParams& params, const StepContext& context);
void steering_step_3d(FlockState& state, const FlockParams& params, const StepContext& context);

// Vicsek et al. 1995.
void vicsek_step(FlockState& state, const FlockParams& params, const StepContext& context);

}  // namespace boids::reference
