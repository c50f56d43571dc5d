// The two kinds of failure: bad input from the user (exit code 2) and everything else.
#pragma once

#include <stdexcept>
#include <string>

namespace boids {

/// An option, value or file that the user gave and that is not acceptable.
class InputError : public std::runtime_error {
 public:
  explicit InputError(const std::string& message) : std::runtime_error(message) {}
};

/// What every tool, and the Python module, says when an allocation fails (std::bad_alloc).
inline constexpr const char* kOutOfMemory =
    "not enough memory on this machine for a flock this large";

/// A failure of the machine or the environment: a device error, a file that cannot be written.
class RuntimeError : public std::runtime_error {
 public:
  explicit RuntimeError(const std::string& message) : std::runtime_error(message) {}
};

}  // namespace boids
