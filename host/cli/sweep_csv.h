// A sweep's CSV file: a header naming the swept parameters and the statistics, then a row a
// point, appended and synced as each point finishes, so that a killed sweep keeps every point
// it finished and a resumed one knows which they are.
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "host/core/ensemble.h"

namespace boids::cli {

std::string sweep_csv_header(const std::vector<std::string>& params);

// The `flight` of a point: a checksum, as 16 hex digits, of everything that shapes its flights
// beside the replicas and samples (the configuration with its backend, method, precision and
// first seed, and the plan), so that --resume keeps only points this sweep would fly alike.
std::string sweep_flight(const SimulationConfig& config, const EnsemblePlan& plan);

// A point's row: its values (as given), the flocks' size, the statistics, its flight and the
// seconds since the sweep started.
std::string sweep_csv_row(const std::vector<std::string>& point, std::uint64_t count,
                          const EnsembleStatistics& s, const std::string& flight, double seconds);

// The fields of a finished point's row after its values.
enum FinishedField { kBoidsField = 0, kReplicasField = 1, kSamplesField = 2, kFlightField = 11 };

// The points an earlier run of the sweep over `params` wrote to `path` (none when it is missing
// or holds no whole line), each with the rest of its row (boids, replicas, samples, ...).
// Throws InputError for another sweep's file or a row not its own; a last line cut by a kill is
// cut from the file, and its point flies again.
using FinishedPoints = std::map<std::vector<std::string>, std::vector<std::string>>;
FinishedPoints finished_sweep_points(const std::string& path,
                                     const std::vector<std::string>& params);

// Whether `path` holds a whole first line (the header).
bool sweep_csv_started(const std::string& path);

// Appends `line` (or starts the file with it, when `truncate`) and waits for the disk.
void append_synced_line(const std::string& path, const std::string& line, bool truncate);

}  // namespace boids::cli
