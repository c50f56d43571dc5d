// The slabs' axis of a flock spread over ranks (host/mpi/slabs.h), as the ranks' code reads it:
// the last, y in 2D and z in 3D; the bins a rank counts its boids in to balance the slabs; the
// order of boids by their index in the whole flock; and the stripes of those indices by which
// the ranks draw and read a start and write a file.
#pragma once

#include <algorithm>
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

// Rank k's stripe of the input indices of a flock of `whole` boids over `ranks`:
// [k whole / ranks, (k + 1) whole / ranks).
struct Stripe {
  std::uint64_t first = 0, last = 0;
};
inline Stripe stripe_of(std::uint64_t whole, int rank, int ranks) {
  const auto k = static_cast<std::uint64_t>(rank), n = static_cast<std::uint64_t>(ranks);
  return {whole * k / n, whole * (k + 1) / n};
}

// The rank whose stripe holds input index `id` (below `whole`).
inline std::size_t stripe_holding(std::uint64_t id, std::uint64_t whole, int ranks) {
  const auto n = static_cast<std::uint64_t>(ranks);
  std::uint64_t k = id * n / whole;  // near it: the bounds round down
  while (k + 1 < n && whole * (k + 1) / n <= id) ++k;
  while (k > 0 && whole * k / n > id) --k;
  return static_cast<std::size_t>(k);
}

// The same in whole units of `unit` boids (a trajectory's chunks): rank k's stripe of the units.
inline Stripe stripe_of(std::uint64_t whole, int rank, int ranks, std::uint64_t unit) {
  const Stripe units = stripe_of((whole + unit - 1) / unit, rank, ranks);
  return {std::min(whole, units.first * unit), std::min(whole, units.last * unit)};
}
inline std::size_t stripe_holding(std::uint64_t id, std::uint64_t whole, int ranks,
                                  std::uint64_t unit) {
  return stripe_holding(id / unit, (whole + unit - 1) / unit, ranks);
}

}  // namespace boids::mpi
