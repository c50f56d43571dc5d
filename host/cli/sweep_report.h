// What `boids sweep` reports: every point of its grid, kept from --csv under --resume or flown,
// as a table, as JSON, or drawn.
#pragma once

#include <cstdint>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "host/cli/sweep_grid.h"
#include "host/core/ensemble.h"
#include "host/io/output_file.h"

namespace boids::cli {

// A point of the grid and what it is to fly: resolved before any flies, so that a bad value stops
// the sweep at once.
struct GridPoint {
  SweepPoint point;
  SimulationConfig config;
  std::uint64_t count = 0;
  std::string flight;  // sweep_flight
};

struct PointResult {
  std::size_t index = 0;  // in the grid
  std::uint64_t count = 0;
  EnsembleStatistics statistics;
  std::string flight;
  double seconds = 0;  // since the sweep started, when the point finished
  bool kept = false;   // read back from --csv under --resume, not flown
};

// One JSON object: `head` (which boids made it, with what command, and the sweep), then
// "points", a row a point.
void print_sweep_json(const nlohmann::ordered_json& head, const std::vector<SweepParam>& params,
                      const std::vector<GridPoint>& grid, const std::vector<PointResult>& results);

// The points as a table, those kept from `csv_file` marked.
void print_sweep_table(const std::vector<SweepParam>& params, const std::vector<GridPoint>& grid,
                       const std::vector<PointResult>& results, const std::string& csv_file);

// Draws the points with host/cli/plot_sweep.py into the output --plot of `outputs`.
void plot_sweep(const std::vector<SweepParam>& params, const std::string& title,
                const std::vector<GridPoint>& grid, const std::vector<PointResult>& results,
                OutputFiles& outputs);

}  // namespace boids::cli
