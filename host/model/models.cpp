#include "host/model/models.h"

#include <cstring>

#include "host/model/flock.h"
#include "host/model/param_table.h"
#include "host/model/variants.h"

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

using namespace variant_kit;  // what the models' variants set

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
  // Each model's validation flocks. A variant's place in the catalogue keys its flock's seed:
  // a new one, of any model, takes the place after the last.
  boids.variants = {
      {0, "seed", "the published step", [](FlockParams&) {}},
      {1, "fov", "--fov 240", [](FlockParams& p) { p.fov = 240; }},
      {2, "separation-radius", "--separation-radius 0.8 r",
       [](FlockParams& p) { p.separation_radius = 0.8 * p.radius; }},
      {6, "goal-wind", "a goal of weight 2 and a wind of 0.05 v_max",
       [](FlockParams& p) {
         goal_at(p, 0.2, 0.8, 0.5, 2);
         p.wind = {0.05 * p.max_speed, -0.03 * p.max_speed, 0.02 * p.max_speed};
       }},
      {7, "rectangle", "a world 1.3 times as wide and 0.7 times as high",
       [](FlockParams& p) {
         p.world.width *= 1.3;
         p.world.height *= 0.7;
       }},
      {10, "nearest-7-fov", "--nearest 7 --fov 300",
       [](FlockParams& p) {
         p.nearest = 7;
         p.fov = 300;
       }},
      {12, "all", "fov, noise, walls, obstacles, goal and wind at once",
       [](FlockParams& p) {
         p.fov = 270;
         p.noise = 1;
         walls(p);
         three_obstacles(p);
         goal_at(p, 1.0 / 3, 1.0 / 3, 1.0 / 3, 1);
         p.wind = {0.05 * p.max_speed, 0.02 * p.max_speed, 0};
       }},
      {22, "min-speed", "--min-speed 0.1 v_max and --noise 2: slow boids kept slow",
       [](FlockParams& p) {
         p.min_speed = 0.1 * p.max_speed;
         p.noise = 2;
       }},
      {27, "open", "--boundary open: no edges, the start drawn in the world's region", open_space},
      {28, "open-obstacles-goal", "open space around an obstacle, a goal and --noise 1",
       [](FlockParams& p) {
         open_space(p);
         p.obstacles = {disc(p, 0.5, 0.5, 0.5, 0.1)};
         goal_at(p, 1.5, -0.5, 0.5, 1);
         p.noise = 1;
       }},
  };
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
  // The lab's weights, at 30 times the speed: half a unit of r = 1 a step at its dt of 1/60.
  steering.validation_flock = [](FlockParams& p, const FlockParams& base) {
    p.separation = 1.6;
    p.cohesion = 0.9;
    p.max_speed = 30 * base.max_speed;
  };
  steering.variants = {
      {13, "steering", "the steering model", [](FlockParams&) {}},
      {14, "steering-walls-fov-noise", "walls, --fov 270, --noise 0.5 and an obstacle",
       [](FlockParams& p) {
         walls(p);
         p.fov = 270;
         p.noise = 0.5;
         p.obstacles = {disc(p, 0.5, 0.5, 0.5, 0.1)};
       }},
      {23, "steering-min-speed", "--min-speed 0 (no floor) between walls",
       [](FlockParams& p) {
         p.min_speed = 0;
         walls(p);
       }},
      {29, "steering-open-wander", "open space with --wander 1.5",
       [](FlockParams& p) {
         open_space(p);
         p.wander = 1.5;
       }},
  };
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
  vicsek.validation_flock = [](FlockParams& p, const FlockParams& base) {
    p.max_speed = base.max_speed / 2;
  };
  vicsek.variants = {
      {19, "vicsek", "the Vicsek model with --noise 2", [](FlockParams& p) { p.noise = 2; }},
      {20, "vicsek-walls-goal", "walls and a goal of weight 0.5",
       [](FlockParams& p) {
         walls(p);
         goal_at(p, 0.6, 0.4, 0.25, 0.5);
       }},
      {21, "vicsek-nearest-3-walls", "--nearest 3 --noise 0.5 between walls",
       [](FlockParams& p) {
         walls(p);
         p.noise = 0.5;
         p.nearest = 3;
       }},
      {30, "vicsek-open", "open space with --noise 1",
       [](FlockParams& p) {
         open_space(p);
         p.noise = 1;
       }},
  };
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
  // The published turn, blind angle and noise, its zones within the validation's radius.
  couzin.validation_flock = [](FlockParams& p, const FlockParams& base) {
    const FlockParams published = model_defaults(Model::kCouzin, 1);
    p.repulsion_radius = base.radius / 5;
    p.orientation_width = 0.3 * base.radius;
    p.attraction_width = 0.5 * base.radius;
    p.max_speed = published.max_speed;
    p.dt = published.dt;
    p.turn_rate = published.turn_rate;
    p.fov = published.fov;
    p.noise = published.noise;
  };
  couzin.variants = {
      {24, "couzin", "the couzin model's published zones, turn, blind angle and noise",
       [](FlockParams&) {}},
      {25, "couzin-walls-turn", "between walls, --noise 0.4 --turn-rate 300 --fov 360",
       [](FlockParams& p) {
         walls(p);
         p.noise = 0.4;
         p.turn_rate = 300;
         p.fov = 360;
       }},
      {26, "couzin-no-orientation", "--orientation-width 0: repulsion and attraction alone",
       [](FlockParams& p) {
         p.attraction_width += p.orientation_width;
         p.orientation_width = 0;
       }},
      {31, "couzin-open", "open space, the published zones", open_space},
  };
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
