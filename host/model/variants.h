// One catalogue of the variants: each a name, the model it flies, and what it sets, in 2D and
// in 3D alike. `boids validate` flies every one against the reference, `boids-bench
// --variants` times them by name, and the variant tests fly them on every backend. Each model's
// variants are its registry entry's (host/model/models.cpp), each at its place here: a new
// variant is a row there. Positions and sizes are fractions of the world's sides and multiples
// of the radius and the speed (the helpers below), so that a variant flies in any world.
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

// Every model's variants by their places, the published step ("seed") first; a new one goes
// last, since the validation flies each from its place's seed (11, 12, ...).
const std::vector<Variant>& variant_catalogue();

// The variant named `name`, or nullptr.
const Variant* find_variant(const std::string& name);

// The names, for people: "seed, fov, ...".
std::string variant_names();

// `base` (its world, radius and speed set, every variant off) flown as `variant`: its model's
// validation flock (ModelSpec::validation_flock), then the variant's own settings.
FlockParams variant_params(const Variant& variant, const FlockParams& base);

// What a variant sets, in any world.
namespace variant_kit {
// A point at fractions of the world's sides (z read in three dimensions only).
Vec3 at(const FlockParams& p, double fx, double fy, double fz);
// A disc (a sphere) at fractions of the sides, its radius a fraction of the smaller side.
Obstacle disc(const FlockParams& p, double fx, double fy, double fz, double size);
// Three obstacles of different sizes, the last across the world's corner.
void three_obstacles(FlockParams& p);
void goal_at(FlockParams& p, double fx, double fy, double fz, double weight);
void walls(FlockParams& p);
void open_space(FlockParams& p);
}  // namespace variant_kit

}  // namespace boids
