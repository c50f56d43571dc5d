// A resumed flight changed on its way: `boids run --resume FILE --new-flight --noise 1.0` takes
// the checkpoint's flight from its step with the model's parameters given changed, as a quench
// or an anneal needs. Only what a flying flock takes may change (the controls of
// host/core/controls.h: weights, radii, speeds, noise, ...), set together and checked as the
// command line checks a flight; the flight is then a new one, the change recorded in its history
// (host/core/config.h), which every checkpoint of it carries.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "host/config/flock_options.h"
#include "host/core/config.h"

namespace boids {

// `flight` at `step` with the options `given` (their flags, as the command line named them)
// changed to their values in `options`. Throws InputError naming an option that cannot change
// a flight on its way, or a value the flight refuses. `by`: what made the change (the
// version and the command, host/tools/output_record.h), for the record.
SimulationConfig changed_flight(const SimulationConfig& flight, std::uint64_t step,
                                const FlockOptions& options, const std::vector<std::string>& given,
                                const nlohmann::ordered_json& by);

// "noise 0.1 -> 1, alignment 1 -> 0.5": a change, for people.
std::string describe_change(const FlightChange& change);

}  // namespace boids
