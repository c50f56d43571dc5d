// State files: CSV with the header `x,y,vx,vy` and one boid a line, in input order. Numbers
// are written in the shortest form that reads back as the same double. Obstacle files: CSV
// with the header `x,y,radius`, one obstacle a line.
#pragma once

#include <string>
#include <vector>

#include "host/flock.h"

namespace boids {

// Reads and validates a state file for `world`: the exact header, four finite numbers a line,
// positions in [0, width) x [0, height), at least one boid. Throws InputError naming the file
// and the line.
FlockState read_state_file(const std::string& path, const World& world);

// Parses state-file text; `name` is used in error messages.
FlockState parse_state(const std::string& text, const std::string& name, const World& world);

// The same for a square world of side `world`.
FlockState read_state_file(const std::string& path, double world);
FlockState parse_state(const std::string& text, const std::string& name, double world);

std::string format_state(const FlockState& state);

void write_state_file(const std::string& path, const FlockState& state);

// Reads and validates an obstacle file for `world`: the exact header, three finite numbers a
// line, centres in the world, radii > 0. An empty list (a header alone) is allowed.
std::vector<Obstacle> read_obstacle_file(const std::string& path, const World& world);
std::vector<Obstacle> parse_obstacles(const std::string& text, const std::string& name,
                                      const World& world);

}  // namespace boids
