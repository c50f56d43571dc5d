// A checkpoint's flight as its header describes it, both ways: the description written
// (flight_description), and the parameters read back from it, each checked (params_of).
#include <nlohmann/json.hpp>

#include "host/io/checkpoint.h"
#include "host/io/detail/checkpoint_source.h"

namespace boids {
namespace {

using checkpoint_detail::json;

json obstacles_json(const std::vector<Obstacle>& obstacles, int dimensions) {
  json list = json::array();
  for (const Obstacle& o : obstacles) {
    list.push_back(dimensions == 3 ? json{o.x, o.y, o.z, o.radius} : json{o.x, o.y, o.radius});
  }
  return list;
}

json path_json(const std::vector<Vec3>& path, int dimensions) {
  json list = json::array();
  for (const Vec3& v : path) list.push_back(dimensions == 3 ? json{v.x, v.y, v.z} : json{v.x, v.y});
  return list;
}

// The header's list under `key`, each item `columns` numbers, or refused with `not_numbers`.
std::vector<std::vector<double>> number_rows(const json& list, const std::string& key,
                                             std::size_t columns, const std::string& not_numbers,
                                             checkpoint_detail::Source& source) {
  if (!list.is_array()) source.refuse("'" + key + "' is not a list");
  std::vector<std::vector<double>> rows;
  for (const json& item : list) {
    bool numbers = item.is_array() && item.size() == columns;
    for (std::size_t k = 0; numbers && k < columns; ++k) numbers = item[k].is_number();
    if (!numbers) source.refuse(not_numbers);
    std::vector<double> row;
    for (const json& v : item) row.push_back(v.get<double>());
    rows.push_back(std::move(row));
  }
  return rows;
}

}  // namespace

namespace checkpoint_detail {

FlockParams params_of(const Header& h, const json& j, Source& source) {
  FlockParams p;
  // A 2D flight's description has no "dimensions" (checkpoints from before 3D read alike).
  if (j.contains("dimensions")) {
    if (h.whole("dimensions") != 3) source.refuse("'dimensions' is not 3");
    p.dimensions = 3;
  }
  const int d = p.dimensions;
  p.model = h.choice("model", {Model::kBoids, Model::kSteering, Model::kVicsek});
  p.radius = h.number("radius");
  p.separation = h.number("separation");
  p.alignment = h.number("alignment");
  p.cohesion = h.number("cohesion");
  p.max_speed = h.number("max_speed");
  const Vec3 world = h.pair(h.field("world"), "world");
  p.world = {world.x, world.y, h.choice("boundary", {Boundary::kTorus, Boundary::kWalls})};
  if (d == 3) p.world.depth = h.number("depth");
  p.separation_radius = h.number("separation_radius");
  p.fov = h.number("fov");
  p.noise = h.number("noise");
  if (h.has("wander")) p.wander = h.number("wander");
  if (h.has("nearest")) {
    const std::uint64_t k = h.whole("nearest");
    if (k < 1 || k > static_cast<std::uint64_t>(kMaxNearest)) {
      source.refuse("'nearest' is not in [1, " + std::to_string(kMaxNearest) + "]");
    }
    p.nearest = static_cast<int>(k);
  }
  if (h.has("predators")) {
    const std::uint64_t k = h.whole("predators");
    if (k < 1 || k > static_cast<std::uint64_t>(kMaxPredators)) {
      source.refuse("'predators' is not in [1, " + std::to_string(kMaxPredators) + "]");
    }
    p.predators = static_cast<int>(k);
    p.predator_speed = h.number("predator_speed");
    p.flee_radius = h.number("flee_radius");
  }
  p.dt = h.number("dt");
  p.wall_distance = h.number("wall_distance");
  p.has_goal = !h.field("goal").is_null();
  if (p.has_goal) p.goal = h.pair(h.field("goal"), "goal", d);
  p.goal_weight = h.number("goal_weight");
  if (h.has("arrival_radius")) p.arrival_radius = h.number("arrival_radius");
  p.wind = h.pair(h.field("wind"), "wind", d);
  p.update = h.choice("update", {Update::kSynchronous, Update::kInPlace});
  const bool box = d == 3;
  for (const std::vector<double>& o :
       number_rows(h.field("obstacles"), "obstacles", box ? 4 : 3,
                   box ? "an obstacle is not four numbers (x, y, z, radius)"
                       : "an obstacle is not three numbers (x, y, radius)",
                   source)) {
    p.obstacles.push_back(box ? Obstacle{o[0], o[1], o[3], o[2]} : Obstacle{o[0], o[1], o[2]});
  }
  if (h.has("path")) {
    for (const std::vector<double>& v :
         number_rows(h.field("path"), "path", box ? 3 : 2,
                     box ? "a point of the path is not three numbers (x, y, z)"
                         : "a point of the path is not two numbers (x, y)",
                     source)) {
      p.path.push_back({v[0], v[1], box ? v[2] : 0.0});
    }
    p.path_radius = h.number("path_radius");
    p.path_weight = h.number("path_weight");
  }
  return p;
}

Particles predators_of(const Header& h, const FlockParams& p, Source& source) {
  Particles out;
  out.dimensions = p.dimensions;
  if (p.predators == 0) return out;
  const bool box = p.dimensions == 3;
  const std::vector<std::vector<double>> rows =
      number_rows(h.field("predator_state"), "predator_state", box ? 6 : 4,
                  box ? "a predator is not six numbers (x, y, z, vx, vy, vz)"
                      : "a predator is not four numbers (x, y, vx, vy)",
                  source);
  if (rows.size() != static_cast<std::size_t>(p.predators)) {
    source.refuse("'predator_state' holds " + std::to_string(rows.size()) + " predators, not " +
                  std::to_string(p.predators));
  }
  out.resize(rows.size());
  for (std::size_t k = 0; k < rows.size(); ++k) {
    const std::vector<double>& r = rows[k];
    out.x[k] = r[0];
    out.y[k] = r[1];
    if (box) {
      out.z[k] = r[2];
      out.vx[k] = r[3];
      out.vy[k] = r[4];
      out.vz[k] = r[5];
    } else {
      out.vx[k] = r[2];
      out.vy[k] = r[3];
    }
  }
  return out;
}

json predator_state_json(const Particles& predators) {
  json rows = json::array();
  const bool box = predators.dimensions == 3;
  for (std::size_t k = 0; k < predators.size(); ++k) {
    rows.push_back(box ? json{predators.x[k], predators.y[k], predators.z[k], predators.vx[k],
                              predators.vy[k], predators.vz[k]}
                       : json{predators.x[k], predators.y[k], predators.vx[k], predators.vy[k]});
  }
  return rows;
}

}  // namespace checkpoint_detail

std::string flight_description(const SimulationConfig& config) {
  const FlockParams& p = config.params;
  nlohmann::ordered_json j;
  j["backend"] = to_string(config.backend);
  j["method"] = to_string(config.method);
  j["precision"] = to_string(config.precision);
  j["seed"] = config.seed;
  j["model"] = to_string(p.model);
  j["radius"] = p.radius;
  j["separation"] = p.separation;
  j["alignment"] = p.alignment;
  j["cohesion"] = p.cohesion;
  j["max_speed"] = p.max_speed;
  j["world"] = {p.world.width, p.world.height};
  j["boundary"] = to_string(p.world.boundary);
  j["separation_radius"] = p.separation_radius;
  j["fov"] = p.fov;
  j["noise"] = p.noise;
  j["dt"] = p.dt;
  j["wall_distance"] = p.wall_distance;
  // In three dimensions the goal, the wind and the obstacles have a z; a 2D flight's
  // description stays as it was, so that its checkpoints and sweep checksums do not change.
  const bool box = p.dimensions == 3;
  const json goal = box ? json{p.goal.x, p.goal.y, p.goal.z} : json{p.goal.x, p.goal.y};
  j["goal"] = p.has_goal ? goal : json(nullptr);
  j["goal_weight"] = p.goal_weight;
  // Only where it is on, as the box's fields: a flight without it is described as before.
  if (p.arrival_radius > 0) j["arrival_radius"] = p.arrival_radius;
  if (p.wander > 0) j["wander"] = p.wander;
  if (p.nearest > 0) j["nearest"] = p.nearest;
  if (p.predators > 0) {  // as given: 0 takes the default
    j["predators"] = p.predators;
    j["predator_speed"] = p.predator_speed;
    j["flee_radius"] = p.flee_radius;
  }
  j["wind"] = box ? json{p.wind.x, p.wind.y, p.wind.z} : json{p.wind.x, p.wind.y};
  j["update"] = to_string(p.update);
  j["obstacles"] = obstacles_json(p.obstacles, p.dimensions);
  if (!p.path.empty()) {  // only where there is one, as arrival and wander
    j["path"] = path_json(p.path, p.dimensions);
    j["path_radius"] = p.path_radius;
    j["path_weight"] = p.path_weight;
  }
  if (box) {
    j["dimensions"] = 3;
    j["depth"] = p.world.depth;
  }
  return j.dump();
}

}  // namespace boids
