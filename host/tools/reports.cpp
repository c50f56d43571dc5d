#include "host/tools/reports.h"

#include <omp.h>

#include "host/core/backends.h"
#include "host/core/simulation.h"

namespace boids::tools {

using Json = nlohmann::ordered_json;

Json params_json(const FlockParams& p) {
  Json j;
  j["model"] = to_string(p.model);
  j["radius"] = p.radius;
  j["separation"] = p.separation;
  j["alignment"] = p.alignment;
  j["cohesion"] = p.cohesion;
  j["max_speed"] = p.max_speed;
  if (p.model == Model::kSteering) j["dt"] = p.dt;
  if (p.dimensions == 3) {
    j["dimensions"] = 3;
    j["world"] = p.world.square() && p.world.depth == p.world.width
                     ? Json(p.world.width)
                     : Json({p.world.width, p.world.height, p.world.depth});
  } else {
    j["world"] = p.world.square() ? Json(p.world.width) : Json({p.world.width, p.world.height});
  }
  j["boundary"] = to_string(p.world.boundary);
  j["separation_radius"] = p.effective_separation_radius();
  j["fov"] = p.fov;
  if (p.nearest > 0) j["nearest"] = p.nearest;
  if (p.predators > 0) {
    j["predators"] = p.predators;
    j["predator_speed"] = p.effective_predator_speed();
    j["flee_radius"] = p.effective_flee_radius();
  }
  j["noise"] = p.noise;
  if (p.wander > 0) j["wander"] = p.wander;
  if (!p.world.torus()) j["wall_distance"] = p.effective_wall_distance();
  const bool box = p.dimensions == 3;
  const Json goal = box ? Json({p.goal.x, p.goal.y, p.goal.z}) : Json({p.goal.x, p.goal.y});
  j["goal"] = p.has_goal ? goal : Json(nullptr);
  if (p.has_goal) j["goal_weight"] = p.goal_weight;
  if (p.arrival_radius > 0) j["arrival_radius"] = p.arrival_radius;
  j["wind"] = box ? Json({p.wind.x, p.wind.y, p.wind.z}) : Json({p.wind.x, p.wind.y});
  j["obstacles"] = p.obstacles.size();
  if (!p.path.empty()) {
    j["path_points"] = p.path.size();
    j["path_closed"] = p.path_closed();
    j["path_radius"] = p.effective_path_radius();
    j["path_weight"] = p.path_weight;
  }
  j["update"] = to_string(p.update);
  return j;
}

Json metrics_json(const FlockMetrics& m, bool predators) {
  Json j;
  j["polarization"] = m.polarization;
  j["order"] = m.order;
  j["flocks"] = m.groups;
  j["largest_flock"] = m.largest_group;
  j["mean_nn_distance"] = m.mean_nn_distance;
  j["mean_neighbors"] = m.mean_neighbours;
  if (predators) j["within_reach"] = m.within_reach;
  return j;
}

Json info_json() {
  Json j;
  j["version"] = BOIDS_VERSION;
  const Json both_methods = {"naive", "hashed"};
  Json reference;
  reference["available"] = true;
  reference["device"] = "the seed's algorithm, one CPU thread";
  reference["methods"] = {"naive"};
  reference["precisions"] = {"double"};
  Json cpu;
  cpu["available"] = true;
  cpu["device"] = std::to_string(omp_get_max_threads()) + " OpenMP threads";
  cpu["threads"] = omp_get_max_threads();
  cpu["methods"] = both_methods;
  cpu["precisions"] = {"float", "double"};
  const CudaAvailability a = cuda_availability();
  Json cuda;
  cuda["available"] = a.usable;
  cuda["compiled"] = a.compiled;
  cuda["check_only"] = a.check_only;
  cuda["reason"] = a.usable ? Json(nullptr) : Json(a.reason);
  cuda["device"] = a.usable ? Json(a.device_name) : Json(nullptr);
  if (a.usable) {
    cuda["compute_capability"] =
        std::to_string(a.compute_capability / 10) + "." + std::to_string(a.compute_capability % 10);
    cuda["total_memory"] = a.total_memory;
    cuda["free_memory"] = a.free_memory;
  }
  cuda["methods"] = both_methods;
  cuda["precisions"] = {"float", "double"};
  j["backends"] = {{"reference", reference}, {"cpu", cpu}, {"cuda", cuda}};
  j["auto"] = to_string(resolve_auto_backend());
  return j;
}

Json validation_json(const ValidationReport& report) {
  Json j;
  j["backend"] = to_string(report.backend);
  j["dimensions"] = report.dimensions;
  j["device"] = report.device;
  j["cases"] = Json::array();
  for (const ValidationCase& c : report.cases) {
    Json row;
    row["method"] = to_string(c.method);
    row["precision"] = to_string(c.precision);
    row["state"] = c.state;
    row["count"] = c.count;
    row["steps"] = c.steps;
    row["tolerance"] = c.tolerance.bitwise ? Json("exact") : Json(c.tolerance.max_error);
    row["max_position_error"] = c.max_position_error;
    row["max_velocity_error"] = c.max_velocity_error;
    row["differing_values"] = c.differing_values;
    row["neighbour_mismatches"] = c.neighbour_mismatches;
    row["rounding_boids"] = c.rounding_boids;
    row["unexplained_boids"] = c.unexplained_boids;
    row["verdict"] = c.pass ? "PASS" : "FAIL";
    row["failure"] = c.pass ? Json(nullptr) : Json(c.failure);
    j["cases"].push_back(row);
  }
  j["pass"] = report.pass();
  return j;
}

}  // namespace boids::tools
