// The variants boids-bench can time beside the seed's step, by name: each changes the seed's
// parameters as a user would, at the same radius and world, so that rows compare step for step.
#pragma once

#include <string>
#include <vector>

#include "host/model/flock.h"

namespace boids::bench {

// "seed", "fov", "separation-radius", "noise", "walls", "obstacles", "goal", "wind", "steering",
// "vicsek", "all" (fov, noise, walls, obstacles, goal and wind at once).
const std::vector<std::string>& variant_names();

// Applies variant `name` to the seed's parameters `p` (radius and world already set); throws
// InputError for an unknown name.
void apply_variant(const std::string& name, FlockParams& p);

// What a variant sets, for people.
std::string describe_variant(const std::string& name);

}  // namespace boids::bench
