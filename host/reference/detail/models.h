// The reference's steps for every model and variant, each a plain gather over all pairs in
// ascending index order, written once for 2D and 3D over detail/space.h (the published step
// itself is in seed_step.cpp). Internal to the reference.
#pragma once

#include "host/model/flock.h"
#include "host/reference/detail/world.h"

namespace boids::reference {

// The loop of the steering model's lab listing: boids one after the other, each seeing the new
// state of those before it, candidates from the lab's hash grid, no neighbours across the edges.
void steering_lab_step(FlockState& state, const FlockParams& params, const StepContext& context);

// Each model's step in 2D or 3D (params.dimensions), as the registry names it
// (host/model/models.h):
// - the boids model's rules with the variants (field of view, separation radius, noise, walls,
//   obstacles, goal, wind, wander, path, predators, a rectangular world);
// - the steering model, every boid from the same snapshot;
// - Vicsek et al. 1995;
// - Couzin et al. 2002: zones of repulsion, orientation and attraction, a blind angle behind, a
//   limited turn, Gaussian noise, constant speed.
void boids_model_step(FlockState& state, const FlockParams& params, const StepContext& context);
void steering_model_step(FlockState& state, const FlockParams& params, const StepContext& context);
void vicsek_model_step(FlockState& state, const FlockParams& params, const StepContext& context);
void couzin_model_step(FlockState& state, const FlockParams& params, const StepContext& context);

}  // namespace boids::reference
