// What made an output, written beside it: FILE.json for FILE. A CSV or .npy file keeps the form
// its readers (pandas, NumPy, boids itself) expect, and its record says which boids wrote it,
// the command line, and the flight or the sweep, its parameters as the one writer of a
// flight's parameters gives them (host/io/flight_params.h). A record is an output like any
// other: added before any work, committed with its file.
#pragma once

#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "host/io/output_file.h"

namespace boids::tools {

// The record's name for `output`: "history.csv" -> "history.csv.json".
std::string record_path(const std::string& output);

// Whether `output` gets a record: a file a user names, not a device or a FIFO (/dev/stdout).
bool gets_record(const std::string& output);

// {"boids_version", "boids_commit"}: which boids made an output (the commit null where the
// build knew none).
nlohmann::ordered_json provenance();

// provenance() and "command": ["boids", COMMAND, ARGS...].
nlohmann::ordered_json made_by(const std::string& command, const std::vector<std::string>& args);

// Adds the record of the output `option` (at `path`) to `outputs`, when it gets one.
void add_record(OutputFiles& outputs, const std::string& option, const std::string& path);

// A record's text: {"file": `path`, "made_by": made, then `what`'s keys}.
std::string record_text(const std::string& path, const nlohmann::ordered_json& made,
                        const nlohmann::ordered_json& what);

// Writes the record of `option` (record_text), when it was added.
void write_record(OutputFiles& outputs, const std::string& option, const std::string& path,
                  const nlohmann::ordered_json& made, const nlohmann::ordered_json& what);

}  // namespace boids::tools
