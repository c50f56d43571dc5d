// What the commands report as data: the flock's metrics (`boids run --json`; its parameters
// are host/io/flight_params.h's), the machine's backends (`boids info --json`) and a
// validation (`boids validate --json`). The Python module returns the same objects as dicts,
// so both speak with the same keys.
#pragma once

#include <string>

#include <nlohmann/json.hpp>

#include "host/metrics/metrics.h"
#include "host/model/flock.h"
#include "host/validation/validation.h"

namespace boids::tools {

// polarization, order, flocks, largest_flock, mean_nn_distance, mean_neighbors; with
// predators, within_reach (boids closer than the flee radius to one).
nlohmann::ordered_json metrics_json(const FlockMetrics& metrics, bool predators = false);

// The version, and for each backend whether it can run here and on what; "auto" resolved.
nlohmann::ordered_json info_json();

// How OpenMP's idle threads wait in this process: "OMP_WAIT_POLICY=passive" (the tools'
// default, host/io/omp_waiting.h), the user's OMP_WAIT_POLICY or GOMP_SPINCOUNT, or "the
// OpenMP runtime's default".
std::string omp_wait_policy();

// The backend, its device, every case with its errors and verdict, and whether all passed.
nlohmann::ordered_json validation_json(const ValidationReport& report);

}  // namespace boids::tools
