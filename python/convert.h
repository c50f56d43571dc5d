// Between Python's values and the engine's: keyword arguments to the command line's options
// (so that both accept and refuse alike, with the same messages), JSON reports to dicts, and
// NumPy arrays to flock states.
#pragma once

#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>

#include <map>
#include <nlohmann/json.hpp>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "host/config/flock_options.h"
#include "host/core/simulation.h"
#include "host/model/flock.h"

namespace boids::python {

namespace py = pybind11;

// The flock options given by keyword, as the command line's option texts: {"radius": "5",
// "world": "100,50", ...}, with obstacles and a path given as rows kept apart. None leaves an
// option out.
struct GivenOptions {
  std::map<std::string, std::string> texts;  // keyword -> the option's value as text
  std::optional<std::vector<Obstacle>> obstacles;
  int obstacle_dimensions = 2;  // rows of (x, y, radius), or of (x, y, z, radius): 3
  std::optional<std::vector<Vec3>> path;
  int path_dimensions = 2;        // rows of (x, y), or of (x, y, z): 3
  std::set<std::string> cleared;  // keywords given as None: back to their defaults
};

// Converts keyword arguments. Throws TypeError for a keyword that names no flock option, and
// InputError for a value that cannot be an option's (a tuple of three for a pair, ...).
GivenOptions given_options(const py::dict& keywords);

// `given` with `changes` made: their options replace those given before, and the cleared
// ones are removed. Pure C++: callable without the GIL.
GivenOptions merged(GivenOptions given, const GivenOptions& changes);

// Parses the given options as `boids run` parses its command line.
FlockOptions parse_flock_options(const GivenOptions& given);

// Every flock option's keyword: count, seed, model, radius, ..., init.
std::vector<std::string> flock_keywords();

py::object to_python(const nlohmann::ordered_json& json);

// An (N, 4) array of numbers as a state, or (N, 6) in three dimensions, checked as a .npy
// file's rows; `what` names it in messages. Throws InputError for another shape or a value
// that cannot be a boid's.
FlockState state_of_array(const py::object& array, const World& world, const std::string& what,
                          int dimensions = 2);

}  // namespace boids::python
