// Programs busy beside the bench: `boids-bench --busy K` times the flocks beside K processes
// that each spin on a core for as long as the bench runs, as on a machine shared with builds,
// browsers or other simulations. How OpenMP's idle threads wait decides what such neighbours
// cost (host/tools/omp_waiting.cpp); the bench's report says both.
#pragma once

#include <sys/types.h>

#include <vector>

namespace boids::bench {

class BusyNeighbours {
 public:
  // Starts `count` spinning processes, each ended with the bench (or when it dies).
  explicit BusyNeighbours(int count);
  ~BusyNeighbours();
  BusyNeighbours(const BusyNeighbours&) = delete;
  BusyNeighbours& operator=(const BusyNeighbours&) = delete;

 private:
  std::vector<pid_t> children_;
};

}  // namespace boids::bench
