// The reference's steps for every model and variant, each a plain gather over all pairs in
// ascending index order (the published step itself is in seed_step.cpp). Internal to the reference.
#pragma once

#include "host/model/flock.h"
#include "host/reference/detail/world.h"

namespace boids::reference {

// The boids model's rules with the variants: field of view, separation radius, noise, walls,
// obstacles, goal, wind, a rectangular world.
void boids_step(FlockState& state, const FlockParams& params, const StepContext& context);

// The steering model, every boid from the same snapshot.
void steering_step(FlockState& state, const FlockParams& params, const StepContext& context);

// The loop of the steering model's lab listing: boids one after the other, each seeing the new
// state of those before it, candidates from the lab's hash grid, no neighbours across the edges.
void steering_lab_step(FlockState& state, const FlockParams& params, const StepContext& context);

// In three dimensions (docs/3d.md), on the box's torus or between its walls: the boids model's
// rules with the field of view, the separation radius, the noise, the goal and the wind; Vicsek's
// model; the steering model, synchronously.
void boids_step_3d(FlockState& state, const FlockParams& params, const StepContext& context);
void vicsek_step_3d(FlockState& state, const FlockParams& params, const StepContext& context);
void steering_step_3d(FlockState& state, const FlockParams& params, const StepContext& context);

// Vicsek et al. 1995.
void vicsek_step(FlockState& state, const FlockParams& params, const StepContext& context);

// Each model's step in 2D or 3D, as the registry names it (host/model/models.h).
void boids_model_step(FlockState& state, const FlockParams& params, const StepContext& context);
void steering_model_step(FlockState& state, const FlockParams& params, const StepContext& context);
void vicsek_model_step(FlockState& state, const FlockParams& params, const StepContext& context);

// Couzin et al. 2002, in two or three dimensions (params.dimensions): zones of repulsion,
// orientation and attraction, a blind angle behind, a limited turn, Gaussian noise, constant speed.
void couzin_model_step(FlockState& state, const FlockParams& params, const StepContext& context);

}  // namespace boids::reference
