// State files: CSV with the header `x,y,vx,vy` and one boid a line, in input order. Numbers
// are written in the shortest form that reads back as the same double.
#pragma once

#include <string>

#include "host/flock.h"

namespace boids {

// Reads and validates a state file for a world of side `world`: the exact header, four
// finite numbers a line, positions in [0, world), at least one boid. Throws InputError
// naming the file and the line.
FlockState read_state_file(const std::string& path, double world);

// Parses state-file text; `name` is used in error messages.
FlockState parse_state(const std::string& text, const std::string& name, double world);

std::string format_state(const FlockState& state);

void write_state_file(const std::string& path, const FlockState& state);

}  // namespace boids
