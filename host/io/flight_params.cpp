#include "host/io/flight_params.h"

#include <cmath>
#include <stdexcept>
#include <string>

#include "host/base/message_text.h"
#include "host/model/param_table.h"

namespace boids {
namespace {

using Json = nlohmann::ordered_json;

Json vector_json(const Vec3& v, int dimensions) {
  return dimensions == 3 ? Json{v.x, v.y, v.z} : Json{v.x, v.y};
}

Json world_json(const World& w, int dimensions) {
  if (dimensions == 3) {
    return w.square() && w.depth == w.width ? Json(w.width) : Json{w.width, w.height, w.depth};
  }
  return w.square() ? Json(w.width) : Json{w.width, w.height};
}

// A list or choice row's value.
void write_row(const ParamSpec& row, const FlockParams& p, ParamForm form, Json& j) {
  const std::string key = row.key;
  const int d = p.dimensions;
  switch (row.kind) {
    case ParamKind::kChoice:
      j[key] = key == "model"      ? to_string(p.model)
               : key == "boundary" ? to_string(p.world.boundary)
                                   : to_string(p.update);
      return;
    case ParamKind::kDimensions:
      j[key] = d;
      return;
    case ParamKind::kWorld:
      j[key] = world_json(p.world, d);
      return;
    case ParamKind::kPoint:
      j[key] = p.has_goal ? vector_json(p.goal, d) : Json(nullptr);
      return;
    case ParamKind::kVector:
      j[key] = vector_json(p.wind, d);
      return;
    case ParamKind::kRows:
      if (key == "obstacles") {
        if (form == ParamForm::kReport) {
          j[key] = p.obstacles.size();
          return;
        }
        Json list = Json::array();
        for (const Obstacle& o : p.obstacles) {
          list.push_back(d == 3 ? Json{o.x, o.y, o.z, o.radius} : Json{o.x, o.y, o.radius});
        }
        j[key] = list;
      } else if (!p.path.empty()) {
        if (form == ParamForm::kReport) {
          j["path_points"] = p.path.size();
          j["path_closed"] = p.path_closed();
          return;
        }
        Json list = Json::array();
        for (const Vec3& v : p.path) list.push_back(vector_json(v, d));
        j[key] = list;
      }
      return;
    default:
      return;
  }
}

// Reads the header's values by kind, each refused by name when it is not of its form.
class Fields {
 public:
  Fields(const nlohmann::json& j, const std::function<void(const std::string&)>& refuse)
      : j_(j), refuse_(refuse) {}

  bool has(const std::string& key) const { return j_.contains(key); }
  const nlohmann::json& at(const std::string& key) const {
    if (!has(key)) fail("the header has no '" + key + "'");
    return j_.at(key);
  }
  double number(const std::string& key) const { return number_in(at(key), key); }
  std::uint64_t whole(const std::string& key) const {
    const nlohmann::json& v = at(key);
    if (!v.is_number_unsigned()) fail("'" + key + "' is not a count");
    return v.get<std::uint64_t>();
  }
  std::string text(const std::string& key) const {
    const nlohmann::json& v = at(key);
    if (!v.is_string()) fail("'" + key + "' is not text");
    return v.get<std::string>();
  }
  // A list of `n` numbers, or refused as not `what`.
  std::vector<double> numbers(const nlohmann::json& v, const std::string& key, std::size_t n,
                              const std::string& what) const {
    if (!v.is_array() || v.size() != n) fail("'" + key + "' is not " + what);
    std::vector<double> out;
    for (const nlohmann::json& x : v) {
      if (!x.is_number()) fail("'" + key + "' is not " + what);
      out.push_back(x.get<double>());
    }
    return out;
  }
  Vec3 vector(const std::string& key, int dimensions) const {
    const std::vector<double> v = numbers(at(key), key, static_cast<std::size_t>(dimensions),
                                          dimensions == 3 ? "three numbers" : "two numbers");
    return {v[0], v[1], dimensions == 3 ? v[2] : 0.0};
  }
  [[noreturn]] void fail(const std::string& why) const {
    refuse_(why);
    throw std::logic_error(why);  // refuse_ throws; this keeps the compiler sure of it
  }

 private:
  double number_in(const nlohmann::json& v, const std::string& key) const {
    if (!v.is_number()) fail("'" + key + "' is not a number");
    const double x = v.get<double>();
    if (!std::isfinite(x)) fail("'" + key + "' is not finite");
    return x;
  }

  const nlohmann::json& j_;
  const std::function<void(const std::string&)>& refuse_;
};

template <typename E>
E choice_of(const Fields& f, const std::string& key, std::initializer_list<E> values) {
  const std::string name = f.text(key);
  for (E value : values) {
    if (to_string(value) == name) return value;
  }
  f.fail("'" + key + "' is " + quoted(name) + ", not a known value");
}

World world_of(const Fields& f, int d) {
  const nlohmann::json& w = f.at("world");
  World world;
  if (w.is_number()) {
    world.width = world.height = world.depth = f.number("world");
  } else {
    // Checkpoints before this form give a 3D box's depth apart.
    const bool depth_apart = d == 3 && w.is_array() && w.size() == 2 && f.has("depth");
    const std::size_t sides = d == 3 && !depth_apart ? 3 : 2;
    const std::vector<double> v =
        f.numbers(w, "world", sides, sides == 3 ? "three numbers" : "two numbers");
    world.width = v[0];
    world.height = v[1];
    world.depth = sides == 3 ? v[2] : depth_apart ? f.number("depth") : v[0];
  }
  return world;
}

void read_rows(const Fields& f, const std::string& key, FlockParams& p) {
  const bool box = p.dimensions == 3;
  if (key == "obstacles") {
    const std::string form =
        box ? "four numbers (x, y, z, radius)" : "three numbers (x, y, radius)";
    const nlohmann::json& list = f.at(key);
    if (!list.is_array()) f.fail("'obstacles' is not a list");
    for (const nlohmann::json& item : list) {
      if (!item.is_array() || item.size() != (box ? 4u : 3u)) f.fail("an obstacle is not " + form);
      const std::vector<double> o = f.numbers(item, "obstacles", box ? 4 : 3, form);
      p.obstacles.push_back(box ? Obstacle{o[0], o[1], o[3], o[2]} : Obstacle{o[0], o[1], o[2]});
    }
    return;
  }
  const std::string form = box ? "three numbers (x, y, z)" : "two numbers (x, y)";
  const nlohmann::json& list = f.at(key);
  if (!list.is_array()) f.fail("'path' is not a list");
  for (const nlohmann::json& item : list) {
    if (!item.is_array() || item.size() != (box ? 3u : 2u)) {
      f.fail("a point of the path is not " + form);
    }
    const std::vector<double> v = f.numbers(item, "path", box ? 3 : 2, form);
    p.path.push_back({v[0], v[1], box ? v[2] : 0.0});
  }
}

}  // namespace

nlohmann::ordered_json params_to_json(const FlockParams& p, ParamForm form) {
  Json j;
  for (const ParamSpec& row : param_table()) {
    if (row.kind > ParamKind::kRows || !row.names_field(p.model)) continue;  // the run's own
    if (row.foreign_to(p.model, p.dimensions)) continue;
    if (!row.in_effect(p) && row.at_default(p)) continue;
    const bool number = row.kind == ParamKind::kNumber || row.kind == ParamKind::kWhole;
    if (number && form == ParamForm::kFlight && row.has_unset && row.at_default(p)) continue;
    if (row.kind == ParamKind::kNumber) {
      j[row.key] = form == ParamForm::kReport ? row.value(p) : p.*row.number;
    } else if (row.kind == ParamKind::kWhole) {
      j[row.key] = p.*row.whole;
    } else {
      write_row(row, p, form, j);
    }
  }
  return j;
}

FlockParams params_from_json(const nlohmann::json& j,
                             const std::function<void(const std::string&)>& refuse) {
  const Fields f(j, refuse);
  const std::optional<Model> named = parse_model(f.text("model"));
  if (!named) f.fail("'model' is " + quoted(f.text("model")) + ", not a known value");
  const Model model = *named;
  FlockParams p = model_defaults(model, default_count(model));
  if (f.has("dimensions")) {
    const std::uint64_t d = f.whole("dimensions");
    if (d != 2 && d != 3) f.fail("'dimensions' is not 2 or 3");
    p.dimensions = static_cast<int>(d);
  }
  p.world = world_of(f, p.dimensions);
  // A key of an option the flight does not take is refused, as the command line refuses the
  // option: the writer leaves such rows out, so the header was edited or written for another.
  for (const ParamSpec& row : param_table()) {
    if (!f.has(row.key) || !row.foreign_to(model, p.dimensions)) continue;
    bool twin_taken = false;  // a row of the same key that the flight takes (--speed's v_max)
    for (const ParamSpec& twin : param_table()) {
      twin_taken =
          twin_taken || (std::string(twin.key) == row.key && !twin.foreign_to(model, p.dimensions));
    }
    if (twin_taken) continue;
    f.fail("'" + std::string(row.key) + "' is not an option of the " + to_string(model) + " model" +
           (spec_of(model).takes_flag(row.flag)
                ? " in " + std::to_string(p.dimensions) + " dimensions"
                : ""));
  }
  for (const ParamSpec& row : param_table()) {
    const std::string key = row.key;
    if (!f.has(key) || !row.names_field(model)) continue;
    switch (row.kind) {
      case ParamKind::kNumber:
        p.*row.number = f.number(key);
        break;
      case ParamKind::kWhole: {
        const std::uint64_t k = f.whole(key);
        if (k > static_cast<std::uint64_t>(row.high)) {
          f.fail("'" + key + "' is not in [0, " + number_text(row.high) + "]");
        }
        p.*row.whole = static_cast<int>(k);
        break;
      }
      case ParamKind::kChoice:
        if (key == "boundary") {
          p.world.boundary =
              choice_of(f, key, {Boundary::kTorus, Boundary::kWalls, Boundary::kOpen});
        }
        if (key == "update") p.update = choice_of(f, key, {Update::kSynchronous, Update::kInPlace});
        break;
      case ParamKind::kPoint:
        p.has_goal = !f.at(key).is_null();
        if (p.has_goal) p.goal = f.vector(key, p.dimensions);
        break;
      case ParamKind::kVector:
        p.wind = f.vector(key, p.dimensions);
        break;
      case ParamKind::kRows:
        read_rows(f, key, p);
        break;
      default:
        break;
    }
  }
  // A value equal to the default that follows from the others is that default: the flight is
  // the same, and one described before this writer wrote values in effect reads alike.
  for (const ParamSpec& row : param_table()) {
    if (row.derived && row.kind == ParamKind::kNumber && p.*row.number == row.derived(p)) {
      p.*row.number = row.unset;
    }
  }
  return p;
}

nlohmann::ordered_json history_json(const std::vector<FlightChange>& history) {
  nlohmann::ordered_json list = nlohmann::ordered_json::array();
  for (const FlightChange& change : history) {
    list.push_back(nlohmann::ordered_json::parse(change.record));
  }
  return list;
}

}  // namespace boids
