// Where the tests find the `boids` executable: beside the test binary when it is there (a
// build directory carried to another machine), else where CMake built it.
#pragma once

#include <unistd.h>

#include <string>

namespace boids::test_support {

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

}  // namespace boids::test_support
