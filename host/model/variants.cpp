#include "host/model/variants.h"

#include <algorithm>
#include <stdexcept>

#include "host/model/param_rows.h"
#include "host/model/param_table.h"

namespace boids {
namespace variant_kit {

// A point at fractions of the world's sides (z read in three dimensions only).
Vec3 at(const FlockParams& p, double fx, double fy, double fz) {
  return {fx * p.world.width, fy * p.world.height, p.dimensions == 3 ? fz * p.world.depth : 0.0};
}

// A disc (a sphere) at fractions of the sides, its radius a fraction of the smaller side.
Obstacle disc(const FlockParams& p, double fx, double fy, double fz, double size) {
  const Vec3 c = at(p, fx, fy, fz);
  return Obstacle{c.x, c.y, size * smaller_side(p), c.z};
}

// Three obstacles of different sizes, the last across the world's corner.
void three_obstacles(FlockParams& p) {
  p.obstacles = {disc(p, 0.3, 0.3, 0.5, 0.08), disc(p, 0.7, 0.55, 0.3, 0.12),
                 disc(p, 0.02, 0.98, 0.98, 0.06)};
}

void goal_at(FlockParams& p, double fx, double fy, double fz, double weight) {
  p.has_goal = true;
  p.goal = at(p, fx, fy, fz);
  p.goal_weight = weight;
}

void walls(FlockParams& p) {
  p.world.boundary = Boundary::kWalls;
}

void open_space(FlockParams& p) {
  p.world.boundary = Boundary::kOpen;
}

}  // namespace variant_kit

namespace {

// Every model's and every world term's variants at their places, each place once.
std::vector<Variant> make_catalogue() {
  std::vector<Variant> catalogue;
  const auto place = [&catalogue](Model model, const ModelVariant& v) {
    const auto at = static_cast<std::size_t>(v.place);
    if (at >= catalogue.size()) catalogue.resize(at + 1, Variant{});
    if (catalogue[at].name) throw std::logic_error("two variants at one place");
    catalogue[at] = {v.name, model, v.summary, v.apply};
  };
  for (const ModelSpec& m : model_registry()) {
    for (const ModelVariant& v : m.variants) place(m.id, v);
  }
  for (const HostTerm& term : host_terms()) {
    for (const TermVariant& v : term.variants) place(v.model, v.variant);
  }
  for (const Variant& v : catalogue) {
    if (!v.name) throw std::logic_error("a place in the variants' catalogue left empty");
  }
  return catalogue;
}

}  // namespace

const std::vector<Variant>& variant_catalogue() {
  static const std::vector<Variant> catalogue = make_catalogue();
  return catalogue;
}

const Variant* find_variant(const std::string& name) {
  for (const Variant& v : variant_catalogue()) {
    if (name == v.name) return &v;
  }
  return nullptr;
}

std::string variant_names() {
  std::string names;
  for (const Variant& v : variant_catalogue())
    names += (names.empty() ? "" : ", ") + std::string(v.name);
  return names;
}

FlockParams variant_params(const Variant& variant, const FlockParams& base) {
  FlockParams p = base;
  p.model = variant.model;
  if (const auto flock = spec_of(variant.model).validation_flock) flock(p, base);
  variant.apply(p);
  settle_model(p);
  return p;
}

}  // namespace boids
