// Union-find roots with path halving, for the host's flock counts (metrics.cpp, metrics_3d.cpp).
#pragma once

#include <cstddef>
#include <vector>

namespace boids {

inline std::size_t find_root(std::vector<std::size_t>& parent, std::size_t i) {
  while (parent[i] != i) {
    parent[i] = parent[parent[i]];
    i = parent[i];
  }
  return i;
}

}  // namespace boids
