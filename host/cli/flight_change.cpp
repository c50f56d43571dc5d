#include "host/cli/flight_change.h"

#include <algorithm>
#include <nlohmann/json.hpp>

#include "host/base/errors.h"
#include "host/base/message_text.h"
#include "host/core/flight_rules.h"
#include "host/io/flight_params.h"
#include "host/model/param_table.h"

namespace boids {
namespace {

// The flags that name a control: a row of the table a flying flock takes.
std::string changeable_flags() {
  std::string list;
  for (const ParamSpec& row : param_table()) {
    if (row.control.low) list += (list.empty() ? "" : ", ") + std::string(row.flag);
  }
  return list;
}

}  // namespace

SimulationConfig changed_flight(const SimulationConfig& flight, std::uint64_t step,
                                const FlockOptions& options, const std::vector<std::string>& given,
                                const nlohmann::ordered_json& by) {
  // The values given, set at once and then checked as the command line checks a flight's (a
  // steering flock's maximum and minimum speeds lowered together, whichever comes first).
  SimulationConfig next = flight;
  std::vector<const ParamSpec*> rows;
  for (const std::string& flag : given) {
    if (!options.given(flag)) continue;  // not a parameter of the flock (--steps, --json, ...)
    const ParamSpec* row = find_param_by_flag(flag);
    if (!row || !row->control.low) {
      throw InputError(flag + " cannot change a flight on its way: --new-flight changes what a " +
                       "flying flock takes (" + changeable_flags() + ")");
    }
    if (!row->in_effect(flight.params)) {
      throw InputError(flag + " does not apply to the checkpoint's flight (the " +
                       to_string(flight.params.model) + " model" +
                       (row->needs.as_given ? std::string(", with ") + row->needs.as_given : "") +
                       ")");
    }
    if (row->kind == ParamKind::kVector) {
      // As many coordinates as the flight has dimensions, as a fresh flight's must be.
      const int dimensions = flight.params.dimensions;
      if (dimensions == 2 && options.wind_values == 3) {
        throw InputError(flag + " X,Y,Z needs --dimensions 3: the checkpoint's flight is in 2");
      }
      if (dimensions == 3 && options.wind_values == 2) {
        throw InputError(flag + ": in three dimensions expected X,Y,Z");
      }
      next.params.wind = options.values.wind;
    } else if (row->kind == ParamKind::kWhole) {
      next.params.*(row->whole) = options.values.*(row->whole);
    } else {
      next.params.*(row->number) = options.values.*(row->number);
    }
    rows.push_back(row);
  }
  if (rows.empty()) {
    throw InputError("--new-flight needs the options to change (" + changeable_flags() + ")");
  }
  settle_model(next.params);
  check_flight_params(next.params, next.precision);
  // What changed, as the one writer of a flight's parameters says each (its keys sorted, as a
  // checkpoint's reader keeps them: the record reads back as written).
  const auto report = [](const FlockParams& p) {
    return nlohmann::json::parse(params_to_json(p, ParamForm::kReport).dump());
  };
  const nlohmann::json before = report(flight.params), after = report(next.params);
  nlohmann::json changed = nlohmann::json::object();
  for (const ParamSpec* row : rows) {
    changed[row->key] = {{"from", before.value(row->key, nlohmann::json())},
                         {"to", after.value(row->key, nlohmann::json())}};
  }
  nlohmann::json record;
  record["step"] = step;
  record["changed"] = changed;
  // An argument need not be UTF-8: its bytes are replaced, not refused.
  record["by"] = nlohmann::json::parse(
      by.dump(-1, ' ', false, nlohmann::ordered_json::error_handler_t::replace));
  next.history.push_back({step, record.dump()});
  return next;
}

std::string describe_change(const FlightChange& change) {
  const nlohmann::ordered_json record = nlohmann::ordered_json::parse(change.record);
  std::string text;
  for (const auto& [key, values] : record["changed"].items()) {
    const auto said = [](const nlohmann::ordered_json& v) {
      return v.is_number() ? number_text(v.get<double>()) : v.dump();
    };
    text +=
        (text.empty() ? "" : ", ") + key + " " + said(values["from"]) + " -> " + said(values["to"]);
  }
  return text;
}

}  // namespace boids
