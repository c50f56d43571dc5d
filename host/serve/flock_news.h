// What a flying flock tells its pages, whoever steps it (boids serve's own thread,
// host/serve/live_flock.h, or a Python script, host/serve/watched_flock.h): snapshots made
// in memory used again, its description, and its metrics for the charts.
#pragma once

#include <chrono>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "host/core/simulation.h"
#include "host/serve/frame.h"

namespace boids::serve {

// Snapshots of a simulation, each made in memory that no page holds any more: fresh pages of
// memory cost more than the quantisation (host/serve/frame.h).
class SnapshotMaker {
 public:
  // The flock now, numbered after the last.
  std::shared_ptr<const Snapshot> make(const Simulation& sim, bool paused);

 private:
  std::shared_ptr<Snapshot> unused();

  std::vector<std::shared_ptr<Snapshot>> pool_;
  std::uint64_t made_ = 0;
};

// When the charts get their next point: every half second, or ten times as long as measuring
// takes (a million flocked boids take a tenth of a second), so that they cost the flock a
// tenth of its time.
class MetricsClock {
 public:
  bool due() const { return std::chrono::steady_clock::now() >= next_; }
  // The "metrics" message of the flock now; the next is due after it.
  std::string measure(Simulation& sim);

 private:
  std::chrono::steady_clock::time_point next_ = std::chrono::steady_clock::now();
};

// The description's fields of every flock: {"type": "flock", "mode", count, dimensions, world,
// model, radius, backend, method, precision, device, seed, params}, params as the one writer
// of a flight's parameters reports them (host/io/flight_params.h).
nlohmann::json flock_description(const SimulationConfig& config, std::uint64_t count,
                                 const std::string& device, const std::string& mode);

// A message's text for a page: its JSON, any byte that is not UTF-8 (a file's name need not be)
// replaced, so that no name can fail a description.
std::string page_text(const nlohmann::json& message);

}  // namespace boids::serve
