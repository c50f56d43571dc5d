#include "host/mpi/slabs.h"

#include <algorithm>
#include <cmath>

namespace boids::mpi {

int Slabs::owner(double s) const {
  const auto above = std::upper_bound(bounds.begin() + 1, bounds.end() - 1, s);
  return static_cast<int>(above - bounds.begin()) - 1;
}

void Slabs::ranks_within(double s, double reach, int rank, std::vector<int>& out) const {
  // The distance from s to slab k along the axis: 0 inside it, else to its nearer edge (the
  // shorter way round on the torus).
  const auto distance = [&](int k) {
    const double below = bounds[k] - s, above = s - bounds[k + 1];
    double d = std::max({below, above, 0.0});
    if (torus)
      d = std::min(
          {d, std::max(0.0, bounds[k] - (s - side)), std::max(0.0, (s + side) - bounds[k + 1])});
    return d;
  };
  for (int k = 0; k < ranks(); ++k) {
    if (k != rank && distance(k) <= reach) out.push_back(k);
  }
}

Slabs balanced_slabs(double side, bool torus, int ranks, const std::vector<std::uint64_t>& bins) {
  Slabs slabs = equal_slabs(side, torus, ranks);
  const std::size_t n = bins.size();
  std::uint64_t total = 0;
  for (const std::uint64_t b : bins) total += b;
  if (total == 0 || n < static_cast<std::size_t>(ranks)) return slabs;
  // Bound k on the first bin edge with at least k / ranks of the boids below it, a bin above
  // the bound before it at least, and below the top by a bin for each slab above it.
  std::vector<std::uint64_t> below(n + 1, 0);  // below[e]: the boids in the bins under edge e
  for (std::size_t i = 0; i < n; ++i) below[i + 1] = below[i] + bins[i];
  std::size_t previous = 0;
  for (int k = 1; k < ranks; ++k) {
    const double target = static_cast<double>(total) * k / ranks;
    std::size_t e = previous + 1;
    while (e < n && static_cast<double>(below[e]) < target) ++e;
    e = std::min(e, n - static_cast<std::size_t>(ranks - k));
    slabs.bounds[k] = side * static_cast<double>(e) / static_cast<double>(n);
    previous = e;
  }
  return slabs;
}

std::size_t bin_of(double s, double side, std::size_t bins) {
  const double scaled = s / side * static_cast<double>(bins);
  if (!(scaled >= 0)) return 0;
  return std::min(static_cast<std::size_t>(scaled), bins - 1);
}

Slabs equal_slabs(double side, bool torus, int ranks) {
  Slabs slabs;
  slabs.side = side;
  slabs.torus = torus;
  for (int k = 0; k <= ranks; ++k) slabs.bounds.push_back(side * k / ranks);
  slabs.bounds.back() = side;
  return slabs;
}

}  // namespace boids::mpi
