// The one writer and reader of a flight's parameters, from the table of parameters
// (host/model/param_table.h): `boids run --json`, a checkpoint's header, H5MD's /parameters,
// the page's description of a flock and Python's Flock.params all write them here, and a
// checkpoint reads them back here. Every row in effect is written under its JSON key with its
// value in effect: the separation radius a flight flies (r / 2 where it was not given), not
// the 0 that stands for it.
#pragma once

#include <functional>
#include <nlohmann/json.hpp>
#include <string>

#include "host/core/config.h"
#include "host/model/flock.h"

namespace boids {

// For whom the parameters are written:
//   kFlight  a flight to fly again (a checkpoint's header): the lists whole (every obstacle and
//            point of the path), and a variant that is off, or a value that follows from the
//            others and was not given (the separation radius), left out, so that a flight that
//            does not use a parameter is described as before that parameter existed;
//   kReport  people and scripts (--json, H5MD, the page, Python): every value in effect, the
//            derived ones too (the separation radius r / 2), the lists counted (how many
//            obstacles, how many points of the path and whether it is closed).
// Both write what `params` holds: a value that is in effect nowhere but not at its default (a
// goal's weight without a goal) is written too, for the reader's rules to refuse.
enum class ParamForm { kFlight, kReport };

nlohmann::ordered_json params_to_json(const FlockParams& params, ParamForm form);

// A flight's changes on its way (SimulationConfig::history) as the JSON list its checkpoints,
// `boids run --json` and the records beside its outputs carry.
nlohmann::ordered_json history_json(const std::vector<FlightChange>& history);

// The parameters `j` describes (as params_to_json writes them in kFlight form, or as
// checkpoints did before it: the world's depth apart, 0 for a default that follows from the
// others). A key
// left out takes its default, but for the model and the world; `refuse(why)` is called, and
// must throw, for a value missing or of the wrong form ("'radius' is not a number"). The
// values are not checked against the flight's rules (check_flight_params does that).
FlockParams params_from_json(const nlohmann::json& j,
                             const std::function<void(const std::string&)>& refuse);

}  // namespace boids
