#include "host/metrics/boid_measures.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <numeric>

#include "host/metrics/metrics_support.h"

namespace boids {
namespace {

// Boids in cells at least `radius` wide, so that a boid's neighbours lie in the cells next to
// its own; a cell's boids contiguous (counting sort). Cells are fewer than about four a boid.
class CellGrid {
 public:
  CellGrid(const FlockState& s, double radius, const World& world)
      : dimensions_(s.dimensions), torus_(world.torus()) {
    const double sides[3] = {world.width, world.height, s.dimensions == 3 ? world.depth : 1.0};
    const double most = 4.0 * static_cast<double>(s.size()) + 1;
    const double per_axis = std::pow(most, 1.0 / s.dimensions);
    for (int a = 0; a < 3; ++a) {
      const double fit = a < s.dimensions ? std::floor(sides[a] / radius) : 1.0;
      cells_[a] = static_cast<std::int64_t>(std::clamp(fit, 1.0, std::max(per_axis, 1.0)));
      scale_[a] = static_cast<double>(cells_[a]) / sides[a];
    }
    const std::vector<double>* axes[3] = {&s.x, &s.y, &s.z};
    cell_of_.resize(s.size());
    start_.assign(static_cast<std::size_t>(cells_[0] * cells_[1] * cells_[2]) + 1, 0);
    for (std::size_t i = 0; i < s.size(); ++i) {
      std::int64_t at[3] = {0, 0, 0};
      for (int a = 0; a < s.dimensions; ++a) {
        const auto c = static_cast<std::int64_t>(std::floor((*axes[a])[i] * scale_[a]));
        at[a] = std::clamp<std::int64_t>(c, 0, cells_[a] - 1);
      }
      cell_of_[i] = index(at[0], at[1], at[2]);
      start_[cell_of_[i] + 1] += 1;
    }
    std::partial_sum(start_.begin(), start_.end(), start_.begin());
    boids_.resize(s.size());
    std::vector<std::size_t> next(start_.begin(), start_.end() - 1);
    for (std::size_t i = 0; i < s.size(); ++i) boids_[next[cell_of_[i]]++] = i;
  }

  // Calls visit(j) for every boid j in the cells next to boid i's (its own too), each cell once
  // however few cells an axis has.
  template <typename Visit>
  void near(std::size_t i, Visit&& visit) const {
    const std::size_t own = cell_of_[i];
    const std::int64_t at[3] = {static_cast<std::int64_t>(own) % cells_[0],
                                static_cast<std::int64_t>(own) / cells_[0] % cells_[1],
                                static_cast<std::int64_t>(own) / (cells_[0] * cells_[1])};
    std::array<std::int64_t, 3> seen[3];
    int counts[3] = {0, 0, 0};
    for (int a = 0; a < 3; ++a) {
      for (int d = -1; d <= 1; ++d) {
        std::int64_t c = at[a] + d;
        if (a >= dimensions_ || cells_[a] == 1) c = at[a];
        if (torus_) c = (c + cells_[a]) % cells_[a];
        if (c < 0 || c >= cells_[a]) continue;
        bool again = false;
        for (int k = 0; k < counts[a]; ++k) again = again || seen[a][k] == c;
        if (!again) seen[a][counts[a]++] = c;
      }
    }
    for (int z = 0; z < counts[2]; ++z)
      for (int y = 0; y < counts[1]; ++y)
        for (int x = 0; x < counts[0]; ++x) {
          const std::size_t cell = index(seen[0][x], seen[1][y], seen[2][z]);
          for (std::size_t k = start_[cell]; k < start_[cell + 1]; ++k) visit(boids_[k]);
        }
  }

 private:
  std::size_t index(std::int64_t x, std::int64_t y, std::int64_t z) const {
    return static_cast<std::size_t>((z * cells_[1] + y) * cells_[0] + x);
  }

  int dimensions_;
  bool torus_;
  std::int64_t cells_[3] = {1, 1, 1};
  double scale_[3] = {1, 1, 1};
  std::vector<std::size_t> cell_of_, start_, boids_;
};

std::vector<std::uint32_t> neighbor_counts_in(const FlockState& s, double radius,
                                              const World& world) {
  std::vector<std::uint32_t> counts(s.size(), 0);
  if (s.size() == 0) return counts;
  const CellGrid grid(s, radius, world);
  const double r2 = radius * radius;
#pragma omp parallel for schedule(dynamic, 1024)
  for (std::int64_t k = 0; k < static_cast<std::int64_t>(s.size()); ++k) {
    const auto i = static_cast<std::size_t>(k);
    std::uint32_t found = 0;
    grid.near(i, [&](std::size_t j) { found += j != i && distance_sq(s, i, j, world) < r2; });
    counts[i] = found;
  }
  return counts;
}

std::vector<std::uint32_t> flock_ranks_in(const FlockState& s, double radius, const World& world) {
  const std::size_t n = s.size();
  std::vector<std::size_t> parent(n);
  std::iota(parent.begin(), parent.end(), std::size_t{0});
  if (n > 0) {
    const CellGrid grid(s, radius, world);
    const double r2 = radius * radius;
    for (std::size_t i = 0; i < n; ++i) {
      grid.near(i, [&](std::size_t j) {
        if (j <= i || distance_sq(s, i, j, world) >= r2) return;
        const std::size_t a = find_root(parent, i), b = find_root(parent, j);
        if (a != b) parent[std::max(a, b)] = std::min(a, b);  // a flock's root: its lowest boid
      });
    }
  }
  // Flocks by size, largest first; of a size, the one of the lowest boid first.
  std::vector<std::size_t> root(n), size(n, 0);
  for (std::size_t i = 0; i < n; ++i) size[root[i] = find_root(parent, i)] += 1;
  std::vector<std::size_t> roots;
  for (std::size_t i = 0; i < n; ++i)
    if (root[i] == i) roots.push_back(i);
  std::stable_sort(roots.begin(), roots.end(),
                   [&](std::size_t a, std::size_t b) { return size[a] > size[b]; });
  std::vector<std::uint32_t> rank_of_root(n, 0), ranks(n);
  for (std::size_t r = 0; r < roots.size(); ++r)
    rank_of_root[roots[r]] = static_cast<std::uint32_t>(r);
  for (std::size_t i = 0; i < n; ++i) ranks[i] = rank_of_root[root[i]];
  return ranks;
}

}  // namespace

std::vector<std::uint32_t> neighbor_counts(const FlockState& s, double radius, const World& world) {
  return in_a_box(s, world, [&](const FlockState& f, const World& w) {
    return neighbor_counts_in(f, radius, w);
  });
}

std::vector<std::uint32_t> flock_ranks(const FlockState& s, double radius, const World& world) {
  return in_a_box(
      s, world, [&](const FlockState& f, const World& w) { return flock_ranks_in(f, radius, w); });
}

}  // namespace boids
