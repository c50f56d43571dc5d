// What several test suites share: where to find the `boids` executable, and flocks written
// out boid by boid.
#pragma once

#include <unistd.h>

#include <array>
#include <initializer_list>
#include <string>

#include "host/flock.h"

namespace boids::test_support {

// Where the tests find `boids`: beside the test binary when it is there (a build directory
// carried to another machine), else where CMake built it.
inline std::string boids_executable() {
  char self[4096];
  const ssize_t length = readlink("/proc/self/exe", self, sizeof self - 1);
  if (length > 0) {
    std::string beside(self, static_cast<std::size_t>(length));
    beside = beside.substr(0, beside.find_last_of('/') + 1) + "boids";
    if (access(beside.c_str(), X_OK) == 0) return beside;
  }
  return BOIDS_EXECUTABLE;
}

// A flock from {x, y, vx, vy} per boid.
inline FlockState make_state(std::initializer_list<std::array<double, 4>> boids) {
  FlockState s;
  for (const auto& b : boids) {
    s.x.push_back(b[0]);
    s.y.push_back(b[1]);
    s.vx.push_back(b[2]);
    s.vy.push_back(b[3]);
  }
  return s;
}

}  // namespace boids::test_support
