// Obstacle files: CSV with the header `x,y,radius` (spheres `x,y,z,radius` in three
// dimensions), one obstacle a line, checked as a state file's rows are (host/io/state_file.h).
#pragma once

#include <string>
#include <vector>

#include "host/model/flock.h"

namespace boids {

// Reads and validates an obstacle file for `world` in `dimensions`: the exact header, three
// (four) finite numbers a line, centres in the world, radii > 0. An empty list (a header
// alone) is allowed.
std::vector<Obstacle> read_obstacle_file(const std::string& path, const World& world,
                                         int dimensions = 2);
std::vector<Obstacle> parse_obstacles(const std::string& text, const std::string& name,
                                      const World& world, int dimensions = 2);

// Obstacles given in memory, checked as a file's rows; a refusal names `what` and the row
// (0-based).
std::vector<Obstacle> checked_obstacles(std::vector<Obstacle> obstacles, const World& world,
                                        const std::string& what, int dimensions = 2);

}  // namespace boids
