// What the reference's models share besides the world (detail/world.h). Each model's step is
// a file of host/reference/models/, a plain gather over all pairs in ascending index order,
// written once for 2D and 3D over detail/space.h, and named by the registry
// (host/model/models.cpp); the published step itself is in seed_step.cpp. Internal to the
// reference.
#pragma once

#include "host/model/flock.h"
#include "host/reference/detail/world.h"

namespace boids::reference {

// The loop of the steering model's lab listing: boids one after the other, each seeing the new
// state of those before it, candidates from the lab's hash grid, no neighbours across the edges.
void steering_lab_step(FlockState& state, const FlockParams& params, const StepContext& context);

}  // namespace boids::reference
