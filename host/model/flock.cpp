#include "host/model/flock.h"

#include <algorithm>
#include <cmath>

#include "host/model/param_table.h"

namespace boids {

std::string to_string(Boundary boundary) {
  return boundary == Boundary::kTorus ? "torus" : boundary == Boundary::kWalls ? "walls" : "open";
}

std::string to_string(Update update) {
  return update == Update::kSynchronous ? "synchronous" : "in-place";
}

std::optional<Boundary> parse_boundary(const std::string& name) {
  if (name == "torus") return Boundary::kTorus;
  if (name == "walls") return Boundary::kWalls;
  if (name == "open") return Boundary::kOpen;
  return std::nullopt;
}

bool World::holds(int axis, double x) const {
  return open() ? std::isfinite(x) : x >= 0 && x < side(axis);
}

std::optional<Update> parse_update(const std::string& name) {
  if (name == "synchronous") return Update::kSynchronous;
  if (name == "in-place") return Update::kInPlace;
  return std::nullopt;
}

double smaller_side(const FlockParams& p) {
  const double side = std::min(p.world.width, p.world.height);
  return p.dimensions == 3 ? std::min(side, p.world.depth) : side;
}

double wind_length(const FlockParams& p) {
  return p.dimensions == 3 ? std::hypot(p.wind.x, p.wind.y, p.wind.z)
                           : std::hypot(p.wind.x, p.wind.y);
}

double furthest_move(const FlockParams& p) {
  const ModelSpec& model = spec_of(p.model);
  const double run = model.timed ? p.max_speed * p.dt : p.max_speed;
  return model.wind_drifts ? run + wind_length(p) : run;
}

bool FlockParams::seed_model() const {
  if (model != Model::kBoids || dimensions != 2) return false;
  // Every switch off: the variants', the choices' (the boundary, the update) and each value
  // that follows from others, as the rows of the table say them (what needs another switch
  // on is off with it).
  for (const ParamSpec& row : param_table()) {
    const bool switch_row =
        row.section == ParamSection::kVariants || row.kind == ParamKind::kChoice || row.has_unset;
    if (switch_row && !row.needs.on && !row.at_default(*this)) return false;
  }
  return true;
}

}  // namespace boids
