// One catalogue of the variants: each a name, the model it flies, and what it sets, in 2D and
// in 3D alike. `boids validate` flies every one against the reference, `boids-bench
// --variants` times them by name, and the variant tests fly them on every backend; a new
// variant is a row here. Positions and sizes are fractions of the world's sides and multiples
// of the radius and the speed, so that a variant flies in any world it is given.
#pragma once

#include <string>
#include <vector>

#include "host/model/flock.h"

namespace boids {

struct Variant {
  const char* name;     // "steering-walls-fov-noise"
  Model model;          // the model it flies
  const char* summary;  // what it sets, for people
  // Sets the variant's parameters on a flock of its model (see variant_params).
  void (*apply)(FlockParams& params);
};

// Every variant, the published step ("seed") first; a new one goes last, since the validation
// flies each from its place's seed (11, 12, ...).
const std::vector<Variant>& variant_catalogue();

// The variant named `name`, or nullptr.
const Variant* find_variant(const std::string& name);

// The names, for people: "seed, fov, ...".
std::string variant_names();

// `base` (its world, radius and speed set, every variant off) flown as `variant`: its model
// (steering at 30 times the speed with the lab's weights, Vicsek at half the speed), then the
// variant's own settings.
FlockParams variant_params(const Variant& variant, const FlockParams& base);

}  // namespace boids
