// The slabs' axis of a flock spread over ranks (host/mpi/slabs.h), as the ranks' code reads it:
// the last, y in 2D and z in 3D; the bins a rank counts its boids in to balance the slabs; and
// the order of boids by their index in the whole flock.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

#include "host/model/flock.h"
#include "host/parts/part_access.h"

namespace boids::mpi {

inline double along_of(const IndexedBoid& b, int dimensions) {
  return dimensions == 3 ? b.z : b.y;
}

inline double side_of(const FlockParams& p) {
  return p.dimensions == 3 ? p.world.depth : p.world.height;
}

// The bins of the axis a rank counts its boids in, for the balance.
inline constexpr std::size_t kBinsPerRank = 64;
inline std::vector<std::uint64_t> empty_bins(int ranks) {
  return std::vector<std::uint64_t>(kBinsPerRank * static_cast<std::size_t>(ranks), 0);
}

inline bool by_id(const IndexedBoid& a, const IndexedBoid& b) {
  return a.id < b.id;
}

}  // namespace boids::mpi
