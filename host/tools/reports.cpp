#include "host/tools/reports.h"

#include <omp.h>

#include <cstdlib>

#include "host/base/version.h"
#include "host/core/backends.h"
#include "host/core/simulation.h"

namespace boids::tools {

using Json = nlohmann::ordered_json;

Json metrics_json(const FlockMetrics& m, bool predators) {
  Json j;
  j["polarization"] = m.polarization;
  j["order"] = m.order;
  j["milling"] = m.milling;
  j["flocks"] = m.flocks;
  j["largest_flock"] = m.largest_flock;
  j["mean_nn_distance"] = m.mean_nn_distance;
  j["mean_neighbors"] = m.mean_neighbors;
  if (predators) j["within_reach"] = m.within_reach;
  return j;
}

std::string omp_wait_policy() {
  const char* policy = std::getenv("OMP_WAIT_POLICY");
  const char* spins = std::getenv("GOMP_SPINCOUNT");
  if (policy) return std::string("OMP_WAIT_POLICY=") + policy;
  if (spins) return std::string("GOMP_SPINCOUNT=") + spins;
  return "the OpenMP runtime's default";
}

Json info_json() {
  Json j;
  j["version"] = version();
  j["commit"] = source_commit();
  const Json both_methods = {"naive", "hashed"};
  Json reference;
  reference["available"] = true;
  reference["device"] = "the published algorithm, one CPU thread";
  reference["methods"] = {"naive"};
  reference["precisions"] = {"double"};
  Json cpu;
  cpu["available"] = true;
  cpu["device"] = std::to_string(omp_get_max_threads()) + " OpenMP threads";
  cpu["threads"] = omp_get_max_threads();
  cpu["methods"] = both_methods;
  cpu["precisions"] = {"float", "double"};
  cpu["wait_policy"] = omp_wait_policy();
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
    row["neighbor_mismatches"] = c.neighbor_mismatches;
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
