// A long run's progress as LAMMPS prints its thermo output: a header, then a line every few
// seconds, on stderr (stdout keeps the summary or the --json object): the step, the steps a
// second since the last line, the observables measured at that step, the time taken and the
// time left. A run shorter than one interval prints nothing. Before any run, say_if_slow.
#pragma once

#include <chrono>
#include <cstdint>

#include "host/core/config.h"
#include "host/metrics/metrics.h"

namespace boids::tools {

// Says on stderr, before a flight starts, that its steps will take seconds each
// (host/core/flight_cost.h): `TOOL: N boids at ... have about K neighbours each ...`.
void say_if_slow(const char* tool, const SimulationConfig& config, std::uint64_t count);

class ProgressLines {
 public:
  // A flight from step `first` to `last`, a line every `seconds` of it (0: none).
  ProgressLines(std::uint64_t first, std::uint64_t last, double seconds, bool predators);

  bool due() const;
  // The line of `step`, whose observables `m` took `measuring` seconds to measure: the
  // interval grows to ten times that, so that the lines cost at most a tenth of the run.
  void print(std::uint64_t step, const FlockMetrics& m, double measuring);

 private:
  using Clock = std::chrono::steady_clock;
  void print_header() const;

  std::uint64_t first_, last_;
  double seconds_;
  bool predators_;
  bool headed_ = false;
  Clock::time_point start_ = Clock::now();
  Clock::time_point next_;
  Clock::time_point last_line_ = start_;
  std::uint64_t last_step_;
};

}  // namespace boids::tools
