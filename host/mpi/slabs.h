// A world cut into slabs along its last axis (y in 2D, z in 3D), one a rank: rank k owns the
// boids whose coordinate along it lies in [bounds[k], bounds[k + 1]). Slabs keep each rank's
// boids together in the cell keys' slowest axis, and a rank's neighbours are the ranks
// before and after it (around the torus).
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

namespace boids::mpi {

struct Slabs {
  double side = 0;             // the world's extent along the axis
  bool torus = true;           // whether the axis wraps
  std::vector<double> bounds;  // ranks + 1 of them, from 0 to side

  int ranks() const { return static_cast<int>(bounds.size()) - 1; }

  // The rank that owns coordinate s (a coordinate at or past the side, the last).
  int owner(double s) const;

  // Appends to `out` the ranks other than `rank` whose slab lies within `reach` of s, across
  // the torus's edge too: those for which a boid at s may be a neighbour (a ghost).
  void ranks_within(double s, double reach, int rank, std::vector<int>& out) const;
};

// `ranks` slabs of equal width.
Slabs equal_slabs(double side, bool torus, int ranks);

// `ranks` slabs that hold about as many boids each, from the boids' count in each of the
// equal bins of [0, side) (`bins`, at least `ranks` of them): each bound lies on the edge of a
// bin, every slab at least one bin wide.
Slabs balanced_slabs(double side, bool torus, int ranks, const std::vector<std::uint64_t>& bins);

// The bin of [0, side) cut in `bins` that holds coordinate s.
std::size_t bin_of(double s, double side, std::size_t bins);

}  // namespace boids::mpi
