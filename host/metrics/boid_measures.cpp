#include "host/metrics/boid_measures.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <numeric>

#include "host/metrics/metrics_support.h"

namespace boids {
namespace {

// Boids in cells at least radius / reach wide, so that a boid's neighbours lie within `reach`
// cells of its own along each axis; a cell's boids contiguous (counting sort). Cells are fewer
// than about four a boid.
class CellGrid {
 public:
  static constexpr int kMostReach = 3;

  CellGrid(const FlockState& s, double radius, const World& world, int reach)
      : dimensions_(s.dimensions), reach_(reach), torus_(world.torus()) {
    const double sides[3] = {world.width, world.height, s.dimensions == 3 ? world.depth : 1.0};
    const double most = 4.0 * static_cast<double>(s.size()) + 1;
    const double per_axis = std::pow(most, 1.0 / s.dimensions);
    for (int a = 0; a < 3; ++a) {
      const double fit = a < s.dimensions ? std::floor(sides[a] * reach / radius) : 1.0;
      cells_[a] = static_cast<std::int64_t>(std::clamp(fit, 1.0, std::max(per_axis, 1.0)));
      scale_[a] = static_cast<double>(cells_[a]) / sides[a];
      if (a < s.dimensions) diagonal_sq_ += std::pow(1 / scale_[a], 2);
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

  std::size_t cells() const { return start_.size() - 1; }
  std::size_t cell_of(std::size_t i) const { return cell_of_[i]; }
  // Boids of `cell`, as positions in boids().
  std::size_t begin(std::size_t cell) const { return start_[cell]; }
  std::size_t end(std::size_t cell) const { return start_[cell + 1]; }
  std::size_t boid(std::size_t k) const { return boids_[k]; }
  // Whether any two boids of a cell lie closer than `radius`: the cell's diagonal is shorter,
  // with a margin for the rounding of a boid's cell.
  bool cells_narrower_than(double radius) const {
    return diagonal_sq_ * (1 + 1e-9) < radius * radius;
  }

  // Calls visit(cell) for every cell within reach of `cell` (its own too), each once however
  // few cells an axis has, until visit returns false.
  template <typename Visit>
  void near(std::size_t cell, Visit&& visit) const {
    const std::int64_t at[3] = {static_cast<std::int64_t>(cell) % cells_[0],
                                static_cast<std::int64_t>(cell) / cells_[0] % cells_[1],
                                static_cast<std::int64_t>(cell) / (cells_[0] * cells_[1])};
    std::array<std::int64_t, 2 * kMostReach + 1> seen[3];
    int counts[3] = {0, 0, 0};
    for (int a = 0; a < 3; ++a) {
      for (int d = -reach_; d <= reach_; ++d) {
        std::int64_t c = at[a] + d;
        if (a >= dimensions_ || cells_[a] == 1) c = at[a];
        if (torus_) c = ((c % cells_[a]) + cells_[a]) % cells_[a];
        if (c < 0 || c >= cells_[a]) continue;
        bool again = false;
        for (int k = 0; k < counts[a]; ++k) again = again || seen[a][k] == c;
        if (!again) seen[a][counts[a]++] = c;
      }
    }
    for (int z = 0; z < counts[2]; ++z)
      for (int y = 0; y < counts[1]; ++y)
        for (int x = 0; x < counts[0]; ++x) {
          if (!visit(index(seen[0][x], seen[1][y], seen[2][z]))) return;
        }
  }

 private:
  std::size_t index(std::int64_t x, std::int64_t y, std::int64_t z) const {
    return static_cast<std::size_t>((z * cells_[1] + y) * cells_[0] + x);
  }

  int dimensions_, reach_;
  bool torus_;
  std::int64_t cells_[3] = {1, 1, 1};
  double scale_[3] = {1, 1, 1};
  double diagonal_sq_ = 0;
  std::vector<std::size_t> cell_of_, start_, boids_;
};

bool cancelled(const MeasureLimits& limits) {
  return limits.cancelled && limits.cancelled->load(std::memory_order_relaxed);
}

std::vector<std::uint32_t> neighbor_counts_in(const FlockState& s, double radius,
                                              const World& world, const MeasureLimits& limits) {
  std::vector<std::uint32_t> counts(s.size(), 0);
  if (s.size() == 0) return counts;
  const CellGrid grid(s, radius, world, 1);
  const double r2 = radius * radius;
  const std::uint32_t most = limits.most_neighbors;
#pragma omp parallel for schedule(dynamic, 1024)
  for (std::int64_t k = 0; k < static_cast<std::int64_t>(s.size()); ++k) {
    if (cancelled(limits)) continue;
    const auto i = static_cast<std::size_t>(k);
    std::uint32_t found = 0;
    grid.near(grid.cell_of(i), [&](std::size_t cell) {
      for (std::size_t b = grid.begin(cell); b < grid.end(cell) && found < most; ++b) {
        const std::size_t j = grid.boid(b);
        found += j != i && distance_sq(s, i, j, world) < r2;
      }
      return found < most;
    });
    counts[i] = found;
  }
  if (cancelled(limits)) throw MeasureCancelled();
  return counts;
}

// The cells of flock_ranks: two cells within reach are one flock as soon as one pair of theirs
// is, where a cell is narrower than the radius (its boids one flock already). Two cells across
// reach that, at the largest radius a page asks for.
CellGrid flock_grid(const FlockState& s, double radius, const World& world) {
  CellGrid grid(s, radius, world, 2);
  if (grid.cells_narrower_than(radius)) return grid;
  CellGrid finer(s, radius, world, CellGrid::kMostReach);
  return finer.cells_narrower_than(radius) ? finer : grid;
}

std::vector<std::uint32_t> flock_ranks_in(const FlockState& s, double radius, const World& world,
                                          const MeasureLimits& limits) {
  const std::size_t n = s.size();
  std::vector<std::size_t> parent(n);
  std::iota(parent.begin(), parent.end(), std::size_t{0});
  // A flock's root: its lowest boid.
  const auto unite = [&](std::size_t i, std::size_t j) {
    const std::size_t a = find_root(parent, i), b = find_root(parent, j);
    if (a != b) parent[std::max(a, b)] = std::min(a, b);
  };
  if (n > 0) {
    const CellGrid grid = flock_grid(s, radius, world);
    const bool whole = grid.cells_narrower_than(radius);
    const double r2 = radius * radius;
    // Joins the flocks of the pairs of boids a in cell `a`, b in `b` (b after a where they are
    // one cell); when cells are whole, the first pair closer than the radius joins both.
    const auto join = [&](std::size_t a, std::size_t b) {
      for (std::size_t p = grid.begin(a); p < grid.end(a); ++p) {
        for (std::size_t q = a == b ? p + 1 : grid.begin(b); q < grid.end(b); ++q) {
          if (distance_sq(s, grid.boid(p), grid.boid(q), world) >= r2) continue;
          unite(grid.boid(p), grid.boid(q));
          if (whole) return;
        }
      }
    };
    for (std::size_t a = 0; a < grid.cells(); ++a) {
      if (a % 256 == 0 && cancelled(limits)) throw MeasureCancelled();
      if (grid.begin(a) == grid.end(a)) continue;
      const std::size_t first = grid.boid(grid.begin(a));
      for (std::size_t p = grid.begin(a); whole && p < grid.end(a); ++p) unite(first, grid.boid(p));
      if (!whole) join(a, a);
      grid.near(a, [&](std::size_t b) {
        if (b <= a || grid.begin(b) == grid.end(b)) return true;
        if (whole && find_root(parent, first) == find_root(parent, grid.boid(grid.begin(b))))
          return true;
        join(a, b);
        return true;
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

std::vector<std::uint32_t> neighbor_counts(const FlockState& s, double radius, const World& world,
                                           const MeasureLimits& limits) {
  return in_a_box(s, world, [&](const FlockState& f, const World& w) {
    return neighbor_counts_in(f, radius, w, limits);
  });
}

std::vector<std::uint32_t> flock_ranks(const FlockState& s, double radius, const World& world,
                                       const MeasureLimits& limits) {
  return in_a_box(s, world, [&](const FlockState& f, const World& w) {
    return flock_ranks_in(f, radius, w, limits);
  });
}

}  // namespace boids
