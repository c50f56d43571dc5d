// Which boids this is: the project's version (one place, CMakeLists.txt) and the commit of the
// checkout it was built from. `boids --version`, `boids info`, Python's `boids.__version__`,
// the installed CMake package and every output's metadata read them here.
#pragma once

#include <string>

namespace boids {

// "MAJOR.MINOR.PATCH".
const char* version();
// The checkout's commit, 12 hex digits, "-dirty" after it when tracked files had changed; ""
// when built from a source archive.
const char* source_commit();

// "0.1.0", or "0.1.0 (commit 0123456789ab)" when the commit is known.
inline std::string version_text() {
  const std::string commit = source_commit();
  return commit.empty() ? version() : std::string(version()) + " (commit " + commit + ")";
}

// Whether version `a` is later than `b` (both "MAJOR.MINOR.PATCH"; a part that is not a
// number counts as 0).
bool later_version(const std::string& a, const std::string& b);

}  // namespace boids
