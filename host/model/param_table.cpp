#include "host/model/param_table.h"

#include "host/model/param_rows.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <stdexcept>
#include <string>
#include <utility>

namespace boids {
namespace param_rows {

double zero(const FlockParams&) {
  return 0;
}
double five(const FlockParams&) {
  return 5;
}
double half_side(const FlockParams& p) {
  return smaller_side(p) / 2;
}
double side_thousandth(const FlockParams& p) {
  return smaller_side(p) / 1000;
}
double the_radius(const FlockParams& p) {
  return p.radius;
}
double radius_hundredth(const FlockParams& p) {
  return p.radius / 100;
}
double radius_tenth(const FlockParams& p) {
  return p.radius / 10;
}
double largest_max_speed(const FlockParams& p) {
  const double room = smaller_side(p) / kMoveMargin * (1 - 0x1.0p-40);
  const ModelSpec& model = spec_of(p.model);
  const double step = p.time_step();
  if (model.wind_drifts) return std::max(0.0, (room - wind_length(p)) / step);
  double largest = model.timed ? room / p.dt : room;
  if (p.predators > 0 && p.predator_speed == 0) {
    FlockParams unit = p;
    unit.max_speed = 1;
    largest = std::min(largest, room / (unit.model_predator_speed() * step));
  }
  return largest;
}

}  // namespace param_rows

namespace {

using namespace param_rows;

double fastest(const FlockParams& p) {
  return largest_max_speed(p);
}
// A thousandth of the fastest, or of the perception radius a step where that is slower: a
// large world's fastest is thousands of radii a step, and the model's own speed must stay
// within the slider's reach.
double slowest(const FlockParams& p) {
  return std::min(largest_max_speed(p), p.radius / p.time_step()) / 1000;
}

// Names as a sentence lists them: "a", "a and b", "a, b and c".
std::string listed(const std::vector<std::string>& names) {
  std::string text;
  for (std::size_t k = 0; k < names.size(); ++k) {
    text += (k == 0 ? "" : k + 1 == names.size() ? " and " : ", ") + names[k];
  }
  return text;
}

// Why the weights are refused under Vicsek.
constexpr const char* kNoWeights =
    "the Vicsek model has no separation, alignment or cohesion weights (it aligns with every "
    "neighbour; see --noise)";

// Each world term's rows (host/model/terms/), after the row each names; a term may follow
// another's rows.
void insert_terms(std::vector<ParamSpec>& rows) {
  std::vector<const HostTerm*> waiting;
  for (const HostTerm& term : host_terms()) waiting.push_back(&term);
  while (!waiting.empty()) {
    const std::size_t before = waiting.size();
    for (auto it = waiting.begin(); it != waiting.end();) {
      const auto after = std::find_if(rows.begin(), rows.end(), [&](const ParamSpec& row) {
        return std::string(row.key) == (*it)->after;
      });
      if (after == rows.end()) {
        ++it;
        continue;
      }
      rows.insert(after + 1, (*it)->rows.begin(), (*it)->rows.end());
      it = waiting.erase(it);
    }
    if (waiting.size() == before) throw std::logic_error("a term's rows follow no row");
  }
}

std::vector<ParamSpec> make_table() {
  std::vector<ParamSpec> rows;
  const auto add = [&rows](ParamSpec spec) { rows.push_back(std::move(spec)); };

  // The model and its rules.
  add(Row("model", "--model", "M", K::kChoice, S::kModel, "the rules the boids follow")
          .choices(model_names()));
  add(Row("radius", "--radius", "R", K::kNumber, S::kModel, "perception radius r, a length")
          .number(&FlockParams::radius, 10)
          .positive()
          .length()
          .control(side_thousandth, half_side, true)
          .sweep());
  add(Row("separation", "--separation", "W", K::kNumber, S::kModel, "separation weight")
          .refused(kNoWeights)
          .number(&FlockParams::separation, 1.5)
          .weight()
          .control(zero, five)
          .sweep());
  add(Row("alignment", "--alignment", "W", K::kNumber, S::kModel, "alignment weight")
          .refused(kNoWeights)
          .number(&FlockParams::alignment, 1)
          .weight()
          .control(zero, five)
          .sweep());
  add(Row("cohesion", "--cohesion", "W", K::kNumber, S::kModel, "cohesion weight")
          .refused(kNoWeights)
          .number(&FlockParams::cohesion, 1)
          .weight()
          .control(zero, five)
          .sweep());
  add(Row("max_speed", "--max-speed", "V", K::kNumber, S::kModel,
          "maximum speed v_max, a length; a step (v_max times --dt under steering) below the "
          "world's smaller side")
          .refused("the Vicsek model moves at a constant --speed")
          .number(&FlockParams::max_speed, 1)
          .positive()
          .length()
          .control(slowest, fastest, true)
          .sweep());
  add(Row("max_speed", "--speed", "V", K::kNumber, S::kModel,
          "the constant speed V of the Vicsek and couzin models, a length; a step (V + |wind| "
          "under "
          "vicsek, V times --dt under couzin) below the world's smaller side")
          .refused("only the Vicsek and couzin models move at a constant speed (use --max-speed)")
          .number(&FlockParams::max_speed, 1)
          .positive()
          .length()
          .control(slowest, fastest, true)
          .sweep());
  add(Row("min_speed", "--min-speed", "V", K::kNumber, S::kModel,
          "the floor of the speed clamp: slower boids speed up to it; 0: none")
          .refused("the Vicsek model moves at a constant --speed")
          .number(&FlockParams::min_speed, 0)
          .derived([](const FlockParams& p) { return p.model_min_speed(); },
                   "max speed / 2; steering 0.35 max speed", -1)
          .non_negative()
          .below({[](const FlockParams& p) { return p.max_speed; }, "max speed"})
          .length()
          .control(zero, [](const FlockParams& p) { return p.max_speed; })
          .sweep());
  add(Row("dt", "--dt", "T", K::kNumber, S::kModel,
          "the time step of the steering and couzin models")
          .refused("only the steering and couzin models have a time step (boids and Vicsek step "
                   "by 1)")
          .number(&FlockParams::dt, 1.0 / 60)
          .default_text("1/60; couzin 0.1")
          .positive()
          .length()
          .control([](const FlockParams&) { return 1e-3; }, [](const FlockParams&) { return 0.1; },
                   true)
          .sweep());

  // Couzin et al. 2002's zones and turn.
  add(Row("repulsion_radius", "--repulsion-radius", "R", K::kNumber, S::kModel,
          "couzin: neighbours closer than R repel, before all else (r_r)")
          .number(&FlockParams::repulsion_radius, 1)
          .positive()
          .length()
          .control(radius_hundredth, half_side, true)  // a zone within the perception's reach
          .sweep());
  add(Row("orientation_width", "--orientation-width", "W", K::kNumber, S::kModel,
          "couzin: the zone of orientation, the W beyond the repulsion radius, where headings "
          "align (delta r_o)")
          .number(&FlockParams::orientation_width, 2)
          .non_negative()
          .length()
          .control(zero, half_side)
          .sweep());
  add(Row("attraction_width", "--attraction-width", "W", K::kNumber, S::kModel,
          "couzin: the zone of attraction, the W beyond the zone of orientation, whose "
          "neighbours draw one in (delta r_a); the radius of perception is r_r + delta r_o + "
          "delta r_a")
          .number(&FlockParams::attraction_width, 14)
          .non_negative()
          .length()
          .control(zero, half_side)
          .sweep());
  add(Row("turn_rate", "--turn-rate", "DEGREES", K::kNumber, S::kModel,
          "couzin: a heading turns by at most this many degrees per unit of time (theta)")
          .number(&FlockParams::turn_rate, 40)
          .range(0, 1e6, true)
          .control([](const FlockParams&) { return 1.0; },
                   [](const FlockParams& p) { return 180 / p.dt; }, true)
          .sweep());

  // The world.
  add(Row("dimensions", "--dimensions", "D", K::kDimensions, S::kWorld,
          "2, or 3: the same rules in a box (docs/3d.md)")
          .default_value(2));
  add(Row("world", "--world", "L|W,H|W,H,D", K::kWorld, S::kWorld,
          "the world: a square (a cube) of side L, a W x H rectangle or a W x H x D box")
          .length()
          .default_text("the model's example world, whatever the count (100, the published "
                        "model's; each model's in --help's list of lengths); in 3D the cube at "
                        "the published example's mean neighbour count")
          .sweep());
  add(Row("density", "--density", "RHO", K::kRunNumber, S::kWorld,
          "boids per unit area: a square world of side sqrt(count / RHO); per unit volume in "
          "three dimensions, a cube of side cbrt(count / RHO) (not with --world)")
          .positive()
          .sweep());
  add(Row("boundary", "--boundary", "B", K::kChoice, S::kWorld,
          "what lies at the world's edges: open is no edge at all, the world's sides "
          "then bounding only where the random start is drawn")
          .choices({"torus", "walls", "open"}));

  // The variants, each off by default.
  add(Row("separation_radius", "--separation-radius", "R", K::kNumber, S::kVariants,
          "separation acts closer than R")
          .rules_variant()
          .refused(kNoWeights)
          .number(&FlockParams::separation_radius, 0)
          .derived([](const FlockParams& p) { return p.model_separation_radius(); },
                   "radius / 2; steering 0.45 radius")
          .positive()
          .below({the_radius, "radius"})
          .length()
          .control(radius_hundredth, the_radius)
          .sweep());
  add(Row("fov", "--fov", "DEGREES", K::kNumber, S::kVariants,
          "field of view: neighbours count only within half of it of the heading")
          .rules_variant()
          .number(&FlockParams::fov, 360)
          .range(0, 360, true)
          .control([](const FlockParams&) { return 1.0; }, [](const FlockParams&) { return 360.0; })
          .sweep());
  add(Row("nearest", "--nearest", "K", K::kWhole, S::kVariants,
          "topological neighbours: each boid heeds the K boids nearest to it that it sees, "
          "however far, in place of all within the radius")
          .rules_variant()
          .whole(&FlockParams::nearest, 0, kMaxNearest)
          .off(0, "0: off")
          .control(zero, [](const FlockParams&) { return double(kMaxNearest); })
          .sweep());
  add(Row("update", "--update", "U", K::kChoice, S::kVariants,
          "synchronous, or in-place: the steering lab's own loop (reference backend only)")
          .choices({"synchronous", "in-place"}));

  // The start, and where the flock flies.
  add(Row("count", "--count", "N", K::kRunNumber, S::kStart, "number of boids")
          .model_default([](const ModelSpec& m) { return double(m.example_count); })
          .range(1, double(kMaxBoids))
          .sweep());
  add(Row("seed", "--seed", "S", K::kRunNumber, S::kStart,
          "random seed of the start and the noise, an unsigned 64-bit integer")
          .default_value(42)
          .range(0, 18446744073709551615.0)
          .range_text("a whole number from 0 to 2^64 - 1"));
  add(Row("init", "--init", "FILE", K::kRunFile, S::kStart,
          "start from a state file (CSV x,y,vx,vy, or NumPy float64 of shape (N, 4) when FILE "
          "ends in .npy; x,y,z,vx,vy,vz or (N, 6) fly in three dimensions), velocities up to "
          "1e250 (1e20 under --precision float); overrides --count"));
  add(Row("backend", "--backend", "B", K::kRunChoice, S::kBackend,
          "where the flock flies: auto is cuda if usable, else cpu")
          .choices({"auto", "reference", "cpu", "cuda"}));
  add(Row("method", "--method", "M", K::kRunChoice, S::kBackend,
          "naive (all pairs) or hashed (a sorted cell grid); the reference is naive")
          .choices({"naive", "hashed"}));
  add(Row("precision", "--precision", "P", K::kRunChoice, S::kBackend,
          "float or double; the reference is double")
          .choices({"float", "double"}));
  insert_terms(rows);
  return rows;
}

}  // namespace

std::string ParamSpec::keyword() const {
  std::string name = std::string(flag).substr(2);
  std::replace(name.begin(), name.end(), '-', '_');
  return name;
}

bool ParamSpec::per_model() const {
  return (section == ParamSection::kModel || section == ParamSection::kVariants) &&
         kind != ParamKind::kChoice;
}

bool ParamSpec::applies(Model model, int d) const {
  return (!per_model() || spec_of(model).takes_flag(flag)) && (dimensions >> d & 1u) != 0;
}

std::string ParamSpec::refusal_under(Model model) const {
  const ModelSpec& spec = spec_of(model);
  if (!spec.refusal) return refusal ? refusal : "";
  return std::string(spec.refusal) + " (" + listed({spec.takes.begin(), spec.takes.end()}) + ")";
}

double ParamSpec::default_of(Model model) const {
  const ModelSpec& spec = spec_of(model);
  if (model_default) return model_default(spec);
  return spec.default_of(flag).value_or(common_default);
}

bool ParamSpec::names_field(Model model) const {
  return flag == std::string(flag_of(key, model));
}

bool ParamSpec::foreign_to(Model model, int d) const {
  const ModelSpec& spec = spec_of(model);
  if (applies(model, d) || std::find_if(spec.derives.begin(), spec.derives.end(), [&](auto f) {
                             return std::string(f) == flag;
                           }) != spec.derives.end()) {
    return false;
  }
  return section != ParamSection::kVariants || refusal_under(model).empty();
}

bool ParamSpec::in_effect(const FlockParams& p) const {
  return applies(p.model, p.dimensions) && (!needs.on || needs.on(p));
}

double ParamSpec::value(const FlockParams& p) const {
  if (whole) return p.*whole;
  const double v = p.*number;
  return derived && v == unset ? derived(p) : v;
}

bool ParamSpec::at_default(const FlockParams& p) const {
  switch (kind) {
    case ParamKind::kNumber:
      return p.*number == (has_unset ? unset : default_of(p.model));
    case ParamKind::kWhole:
      return p.*whole == (has_unset ? unset : default_of(p.model));
    case ParamKind::kPoint:
      return !p.has_goal;
    case ParamKind::kVector:
      return p.wind.x == 0 && p.wind.y == 0 && p.wind.z == 0;
    case ParamKind::kRows:
      return std::string(key) == "path" ? p.path.empty() : p.obstacles.empty();
    case ParamKind::kChoice:
      if (std::string(key) == "boundary") return p.world.torus();
      if (std::string(key) == "update") return p.update == Update::kSynchronous;
      return p.model == model_registry().front().id;
    case ParamKind::kDimensions:
      return p.dimensions == 2;
    default:
      return true;
  }
}

const std::vector<ParamSpec>& param_table() {
  static const std::vector<ParamSpec> table = make_table();
  return table;
}

const ParamSpec* find_param_by_key(const std::string& key) {
  for (const ParamSpec& row : param_table()) {
    if (key == row.key) return &row;
  }
  return nullptr;
}

const ParamSpec* find_param_by_flag(const std::string& flag) {
  for (const ParamSpec& row : param_table()) {
    if (flag == row.flag) return &row;
  }
  return nullptr;
}

const char* flag_of(const std::string& key, Model model) {
  for (const ParamSpec& row : param_table()) {
    if (key == row.key && row.applies(model, 2)) return row.flag;
  }
  const ParamSpec* row = find_param_by_key(key);
  return row ? row->flag : "";
}

void reset_unneeded(FlockParams& p) {
  for (const ParamSpec& row : param_table()) {
    if (!row.needs.on || row.needs.on(p)) continue;
    if (row.kind == ParamKind::kNumber) {
      p.*row.number = row.has_unset ? row.unset : row.default_of(p.model);
    }
    if (row.kind == ParamKind::kWhole) p.*row.whole = static_cast<int>(row.default_of(p.model));
  }
}

std::uint64_t default_count(Model model) {
  return spec_of(model).example_count;
}

World example_world(Model model) {
  const ModelSpec& e = spec_of(model);
  return World{e.example_width, e.example_height, Boundary::kTorus};
}

FlockParams model_defaults(Model model, std::uint64_t count) {
  FlockParams p;
  p.model = model;
  for (const ParamSpec& row : param_table()) {
    // Of two rows of one field (--max-speed, --speed), the model's sets it.
    if (row.kind == ParamKind::kNumber && row.names_field(model)) {
      p.*row.number = row.has_unset ? row.unset : row.default_of(model);
    }
  }
  const ModelSpec& e = spec_of(model);
  const double scale = std::sqrt(static_cast<double>(count) / static_cast<double>(e.example_count));
  p.world = World{e.example_width * scale, e.example_height * scale, Boundary::kTorus};
  if (e.settle) e.settle(p);
  return p;
}

namespace {

// A number as people write it: 0.03, 1e+06, 360, 2147483647.
std::string short_number(double v) {
  char text[32];
  const bool whole = v == std::floor(v) && std::fabs(v) < 1e16;
  std::snprintf(text, sizeof text, whole && std::fabs(v) >= 1e6 ? "%.0f" : "%g", v);
  return text;
}

std::string joined(const std::vector<std::string>& names) {
  std::string list;
  for (const std::string& n : names) list += (list.empty() ? "" : ", ") + n;
  return list;
}

}  // namespace

std::string describe_values(const ParamSpec& row) {
  if (row.range_text) return row.range_text;
  switch (row.kind) {
    case ParamKind::kChoice:
    case ParamKind::kRunChoice:
      return "one of " + joined(row.choices);
    case ParamKind::kDimensions:
      return "2 or 3";
    case ParamKind::kWhole:
      return "a whole number from " + short_number(row.low) + " to " + short_number(row.high);
    case ParamKind::kNumber:
    case ParamKind::kRunNumber:
      break;
    default:
      return "";
  }
  const std::string high = row.below.name                ? row.below.name
                           : row.scale == Scale::kWeight ? "1e6"
                                                         : short_number(row.high);
  if (row.kind == ParamKind::kRunNumber && row.high < HUGE_VAL) {
    return "a whole number from " + short_number(row.low) + " to " + high;
  }
  if (row.high == HUGE_VAL && !row.below.name && row.scale != Scale::kWeight) {
    return row.low_open ? "a number > " + short_number(row.low)
                        : "a number >= " + short_number(row.low);
  }
  return std::string("a number in ") + (row.low_open ? "(" : "[") + short_number(row.low) + ", " +
         high + "]";
}

std::string describe_models(const ParamSpec& row) {
  std::vector<std::string> names;
  for (const ModelSpec& m : model_registry()) {
    if (row.applies(m.id, 2) || row.applies(m.id, 3)) names.push_back(m.name);
  }
  if (names.size() == model_registry().size()) return "";
  return listed(names) + (names.size() == 1 ? " model" : " models");
}

std::string describe_default(const ParamSpec& row) {
  if (row.default_text) return row.default_text;
  switch (row.kind) {
    case ParamKind::kChoice:
      return row.choices.front();
    case ParamKind::kNumber:
    case ParamKind::kWhole:
    case ParamKind::kRunNumber:
    case ParamKind::kDimensions:
      break;
    default:
      return "";
  }
  if (row.kind == ParamKind::kRunNumber && row.default_of(model_registry().front().id) == 0)
    return "";
  // The models' defaults where it applies, the first model's first.
  std::string text;
  const ModelSpec* first = nullptr;
  for (const ModelSpec& m : model_registry()) {
    if (!row.applies(m.id, 2) && !row.applies(m.id, 3)) continue;
    if (!first) {
      first = &m;
      text = short_number(row.default_of(m.id));
    } else if (row.default_of(m.id) != row.default_of(first->id)) {
      text += (text.find(';') == std::string::npos ? "; " : ", ") + std::string(m.name) + " " +
              short_number(row.default_of(m.id));
    }
  }
  return text;
}

std::string describe(const ParamSpec& row) {
  std::string text = row.doc;
  const std::string values = describe_values(row);
  if (!values.empty()) text += "; " + values;
  std::string notes = describe_models(row);
  const std::string by_default = describe_default(row);
  if (!by_default.empty()) notes += (notes.empty() ? "" : "; ") + ("default " + by_default);
  if (!notes.empty()) text += " (" + notes + ")";
  return text;
}

}  // namespace boids
