// The small benches' command line: REPEATS, then flocks as COUNT,DIMENSIONS (the count may be
// written 1e6), defaulting to a million and ten million boids in 2D and 3D.
#pragma once

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <utility>
#include <vector>

namespace boids::bench {

struct FlockCases {
  int repeats = 5;
  std::vector<std::pair<std::uint64_t, int>> flocks;  // count, dimensions
};

// The cases of `argv`; false, saying why on stderr as `program`, for one that is not a case.
inline bool read_flock_cases(int argc, char** argv, const char* program, FlockCases& out) {
  if (argc > 1) out.repeats = std::max(1, std::atoi(argv[1]));
  for (int a = 2; a < argc; ++a) {
    double count = 0;
    int dimensions = 2;
    if (std::sscanf(argv[a], "%lf,%d", &count, &dimensions) != 2 || !(count >= 1) ||
        (dimensions != 2 && dimensions != 3)) {
      std::fprintf(stderr, "%s: expected COUNT,DIMENSIONS (2 or 3), got '%s'\n", program, argv[a]);
      return false;
    }
    out.flocks.emplace_back(static_cast<std::uint64_t>(count), dimensions);
  }
  if (out.flocks.empty()) out.flocks = {{1000000, 2}, {1000000, 3}, {10000000, 2}, {10000000, 3}};
  return true;
}

}  // namespace boids::bench
