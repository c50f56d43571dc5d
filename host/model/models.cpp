#include "host/model/models.h"

#include <cstring>

#include "host/model/flock.h"
#include "host/model/param_table.h"

namespace boids {
namespace reference {
// Each model's reference step, in host/reference/models/ (a file a model). The registry names
// them here by declaration: the reference includes the registry, never the other way.
void boids_model_step(FlockState&, const FlockParams&, const StepContext&);
void steering_model_step(FlockState&, const FlockParams&, const StepContext&);
void vicsek_model_step(FlockState&, const FlockParams&, const StepContext&);
void couzin_model_step(FlockState&, const FlockParams&, const StepContext&);
}  // namespace reference

namespace {

double separation_radius(const FlockParams& p) {
  return p.effective_separation_radius();
}
double repulsion_radius(const FlockParams& p) {
  return p.repulsion_radius;
}

// Couzin's perception reaches to the attraction zone's edge.
void settle_couzin(FlockParams& p) {
  p.radius = p.repulsion_radius + p.orientation_width + p.attraction_width;
}

std::vector<ModelSpec> make_registry() {
  std::vector<ModelSpec> models;

  ModelSpec boids{Model::kBoids,
                  "boids",
                  "separation, alignment and cohesion as velocity changes, the speed kept in "
                  "[v_max / 2, v_max]",
                  "the published step (the boids model)",
                  120,
                  100,
                  100};
  boids.takes = {"--radius",   "--separation", "--alignment",
                 "--cohesion", "--max-speed",  "--min-speed"};
  boids.takes_rules_variants = true;
  boids.pairs.pushing_radius = separation_radius;
  boids.reference_step = reference::boids_model_step;
  models.push_back(boids);

  ModelSpec steering{Model::kSteering,
                     "steering",
                     "Reynolds' steering behaviours: each rule a desired velocity steered "
                     "towards, a maximum force, a time step",
                     "Reynolds' steering model, its lab listing",
                     220,
                     800,
                     600};
  steering.takes = {"--radius",    "--separation", "--alignment", "--cohesion",
                    "--max-speed", "--min-speed",  "--dt",        "--arrival-radius"};
  steering.takes_rules_variants = true;
  steering.defaults = {
      {"--radius", 44}, {"--separation", 1.6}, {"--cohesion", 0.9}, {"--max-speed", 110}};
  steering.timed = true;
  // The listing's r is inclusive, and its separation ignores neighbours within 1e-3.
  steering.pairs = {true, true, 1e-6, separation_radius};
  steering.reference_step = reference::steering_model_step;
  models.push_back(steering);

  ModelSpec vicsek{Model::kVicsek,
                   "vicsek",
                   "constant speed, the mean heading of the neighbours (the particle's own "
                   "included), plus noise",
                   "Vicsek et al. 1995, Phys. Rev. Lett. 75, 1226",
                   400,
                   10,
                   10};
  vicsek.takes = {
      "--radius",         "--speed",       "--fov",       "--nearest",     "--noise",
      "--goal",           "--goal-weight", "--obstacles", "--path-radius", "--path-weight",
      "--predator-speed", "--flee-radius", "--wind"};
  // The weights it has not are 0 in its records.
  vicsek.defaults = {{"--radius", 1},
                     {"--separation", 0},
                     {"--alignment", 0},
                     {"--cohesion", 0},
                     {"--speed", 0.03}};
  vicsek.constant_speed = true;
  vicsek.wind_drifts = true;
  vicsek.reference_step = reference::vicsek_model_step;
  models.push_back(vicsek);

  ModelSpec couzin{Model::kCouzin,
                   "couzin",
                   "zones of repulsion, orientation and attraction, a blind angle behind, a "
                   "limited turn, constant speed",
                   "Couzin, Krause, James, Ruxton & Franks 2002, J. Theor. Biol. 218, 1",
                   100,
                   100,
                   100};
  couzin.takes = {"--repulsion-radius",
                  "--orientation-width",
                  "--attraction-width",
                  "--turn-rate",
                  "--fov",
                  "--speed",
                  "--dt",
                  "--noise"};
  // Its radius's default is what its zones' defaults settle it to (1 + 2 + 14), so that a
  // record leaves out a radius its zones give and reads back whole.
  couzin.defaults = {{"--radius", 17}, {"--separation", 0}, {"--alignment", 0}, {"--cohesion", 0},
                     {"--speed", 3},   {"--dt", 0.1},       {"--fov", 270},     {"--noise", 0.05}};
  couzin.refusal = "the couzin model steers by its zones alone";
  couzin.constant_speed = true;
  couzin.timed = true;
  couzin.settle = settle_couzin;
  couzin.derives = {"--radius"};
  // Its repulsion is its push, and a coincident boid is none of its neighbours.
  couzin.pairs = {false, false, 0, repulsion_radius};
  couzin.reference_step = reference::couzin_model_step;
  models.push_back(couzin);
  return models;
}

}  // namespace

bool ModelSpec::takes_flag(const std::string& flag) const {
  for (const char* f : takes) {
    if (flag == f) return true;
  }
  if (!takes_rules_variants) return false;
  for (const ParamSpec& row : param_table()) {
    if (row.rules_variant && flag == row.flag) return true;
  }
  return false;
}

std::optional<double> ModelSpec::default_of(const std::string& flag) const {
  for (const ModelDefault& d : defaults) {
    if (flag == d.flag) return d.value;
  }
  return std::nullopt;
}

const std::vector<ModelSpec>& model_registry() {
  static const std::vector<ModelSpec> registry = make_registry();
  return registry;
}

const ModelSpec& spec_of(Model model) {
  return model_registry()[static_cast<std::size_t>(model)];
}

std::vector<std::string> model_names() {
  std::vector<std::string> names;
  for (const ModelSpec& m : model_registry()) names.push_back(m.name);
  return names;
}

void settle_model(FlockParams& params) {
  const ModelSpec& model = spec_of(params.model);
  if (model.settle) model.settle(params);
}

std::string to_string(Model model) {
  return spec_of(model).name;
}

std::optional<Model> parse_model(const std::string& name) {
  for (const ModelSpec& m : model_registry()) {
    if (name == m.name) return m.id;
  }
  return std::nullopt;
}

}  // namespace boids
