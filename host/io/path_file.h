// Path files (Reynolds' path following, --path): CSV with the header `x,y` (`x,y,z` in three
// dimensions), one point of the polyline a line, closed when the last point repeats the first.
#pragma once

#include <string>
#include <vector>

#include "host/core/config.h"
#include "host/model/flock.h"

namespace boids {

// Reads and validates a path file for `world` in `dimensions`: the exact header, two (three)
// finite numbers a line, every point in the world and none the same as the one before it in
// the flight's `precision` (a segment keeps a length), at least two points. A refusal names
// the file and the line.
std::vector<Vec3> read_path_file(const std::string& path, const World& world, int dimensions = 2,
                                 Precision precision = Precision::kDouble);
std::vector<Vec3> parse_path(const std::string& text, const std::string& name, const World& world,
                             int dimensions = 2, Precision precision = Precision::kDouble);

// A path given in memory, checked as a file's lines; a refusal names `what` and the row
// (0-based).
std::vector<Vec3> checked_path(std::vector<Vec3> points, const World& world,
                               const std::string& what, int dimensions = 2,
                               Precision precision = Precision::kDouble);

}  // namespace boids
