// A checkpoint's flight as its header describes it, both ways: the description written
// (flight_description), and the parameters read back from it (params_of), through the one
// writer and reader of a flight's parameters (host/io/flight_params.h).
#include <nlohmann/json.hpp>

#include "host/io/checkpoint.h"
#include "host/io/detail/checkpoint_source.h"
#include "host/io/flight_params.h"

namespace boids {
namespace {

using checkpoint_detail::json;

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

FlockParams params_of(const Header&, const json& j, Source& source) {
  return params_from_json(j, [&source](const std::string& why) { source.refuse(why); });
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

std::vector<FlightChange> history_of(const json& j, std::uint64_t step, Source& source) {
  std::vector<FlightChange> history;
  if (!j.contains("history")) return history;
  const json& list = j.at("history");
  if (!list.is_array()) source.refuse("'history' is not a list");
  std::uint64_t after = 0;
  for (const json& change : list) {
    const bool whole = change.is_object() && change.contains("step") &&
                       change["step"].is_number_unsigned() && change.contains("changed") &&
                       change["changed"].is_object();
    if (!whole) source.refuse("a change of its 'history' is not {\"step\": S, \"changed\": {...}}");
    // Each change says what a parameter was and became, as the run that resumes it prints: a
    // damaged one is refused here, before anything flies.
    for (const auto& [key, values] : change["changed"].items()) {
      if (!values.is_object() || !values.contains("from") || !values.contains("to")) {
        source.refuse("its 'history' changes '" + key + "' without {\"from\": ..., \"to\": ...}");
      }
    }
    const auto at = change["step"].get<std::uint64_t>();
    if (at < after || at > step) {
      source.refuse("its 'history' changes the flight at step " + std::to_string(at) +
                    ", out of order or after the checkpoint's step " + std::to_string(step));
    }
    after = at;
    history.push_back({at, change.dump()});
  }
  return history;
}

}  // namespace checkpoint_detail

std::string flight_description(const SimulationConfig& config) {
  nlohmann::ordered_json j;
  j["backend"] = to_string(config.backend);
  j["method"] = to_string(config.method);
  j["precision"] = to_string(config.precision);
  j["seed"] = config.seed;
  j.update(params_to_json(config.params, ParamForm::kFlight));
  if (!config.history.empty()) j["history"] = history_json(config.history);  // none: as ever
  return j.dump();
}

}  // namespace boids
