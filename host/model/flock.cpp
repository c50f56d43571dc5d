#include "host/model/flock.h"

namespace boids {

std::string to_string(Model model) {
  switch (model) {
    case Model::kBoids:
      return "boids";
    case Model::kSteering:
      return "steering";
    case Model::kVicsek:
      return "vicsek";
  }
  return "?";
}

std::string to_string(Boundary boundary) {
  return boundary == Boundary::kTorus ? "torus" : "walls";
}

std::string to_string(Update update) {
  return update == Update::kSynchronous ? "synchronous" : "in-place";
}

std::optional<Model> parse_model(const std::string& name) {
  if (name == "boids") return Model::kBoids;
  if (name == "steering") return Model::kSteering;
  if (name == "vicsek") return Model::kVicsek;
  return std::nullopt;
}

std::optional<Boundary> parse_boundary(const std::string& name) {
  if (name == "torus") return Boundary::kTorus;
  if (name == "walls") return Boundary::kWalls;
  return std::nullopt;
}

std::optional<Update> parse_update(const std::string& name) {
  if (name == "synchronous") return Update::kSynchronous;
  if (name == "in-place") return Update::kInPlace;
  return std::nullopt;
}

bool FlockParams::seed_model() const {
  return model == Model::kBoids && dimensions == 2 && world.torus() && separation_radius == 0 &&
         fov == 360 && nearest == 0 && predators == 0 && noise == 0 && wander == 0 &&
         path.empty() && !has_goal && wind.x == 0 && wind.y == 0 && obstacles.empty() &&
         update == Update::kSynchronous;
}

}  // namespace boids
