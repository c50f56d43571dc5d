// What a sweep reports: a table on stdout (row by row as they finish), a CSV file and a JSON
// file with the rows, the machine and the fits.
#pragma once

#include <nlohmann/json.hpp>
#include <string>

#include "bench/fit.h"
#include "bench/sweep.h"

namespace boids::bench {

struct RunInfo {
  std::string date;         // UTC, ISO 8601
  std::string commit;       // the source tree's commit (host/base/version.h), or empty
  std::string version;      // boids' version
  int busy = 0;             // processes spinning beside the bench (--busy)
  std::string wait_policy;  // how idle OpenMP threads wait (tools::omp_wait_policy)
};

std::string describe_limits(Backend backend, const Limits& limits);
std::string table_header();
std::string table_row(const Row& row);
std::string table_skip(const Skip& skip);

// Least-squares fits of log time against log count: one per method over all its series
// (a common exponent, each backend/precision/state series with its own intercept), and one
// per series.
struct SeriesFit {
  Backend backend;
  Method method;
  Precision precision;
  StartState state;
  std::string variant;
  PowerFit fit;
};
std::map<Method, PowerFit> method_fits(const std::vector<Row>& rows);
std::vector<SeriesFit> series_fits(const std::vector<Row>& rows);
std::string describe_fits(const std::vector<Row>& rows);

// Each variant's step against the published step, row by row (same backend, method, precision,
// start and size): a table of time ratios, empty when only the published step was timed.
std::string describe_variant_costs(const std::vector<Row>& rows);

std::string csv_text(const SweepResult& result);
nlohmann::ordered_json json_report(const SweepSettings& settings, const SweepResult& result,
                                   const RunInfo& info);

}  // namespace boids::bench
