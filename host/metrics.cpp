#include "host/metrics.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <numeric>
#include <vector>

namespace boids {
namespace {

double wrap(double d, double world) {
  const double half = world / 2;
  if (d > half) return d - world;
  if (d < -half) return d + world;
  return d;
}

double wrapped_distance_sq(const FlockState& s, std::size_t i, std::size_t j, double world) {
  const double dx = wrap(s.x[j] - s.x[i], world);
  const double dy = wrap(s.y[j] - s.y[i], world);
  return dx * dx + dy * dy;
}

// Boids bucketed into side x side square cells of the torus (a counting sort by cell).
struct Grid {
  std::int64_t side;
  std::vector<std::size_t> start;  // side^2 + 1 offsets into `boids`
  std::vector<std::size_t> boids;  // boid indices, cell by cell

  Grid(const FlockState& s, std::int64_t cells_per_side, double world) : side(cells_per_side) {
    const std::size_t n = s.size();
    std::vector<std::size_t> cell(n);
    start.assign(static_cast<std::size_t>(side * side) + 1, 0);
    for (std::size_t i = 0; i < n; ++i) {
      cell[i] =
          static_cast<std::size_t>(coordinate(s.y[i], world) * side + coordinate(s.x[i], world));
      ++start[cell[i] + 1];
    }
    std::partial_sum(start.begin(), start.end(), start.begin());
    boids.resize(n);
    std::vector<std::size_t> next(start.begin(), start.end() - 1);
    for (std::size_t i = 0; i < n; ++i) boids[next[cell[i]]++] = i;
  }

  std::int64_t coordinate(double position, double world) const {
    const auto c = static_cast<std::int64_t>(position / world * static_cast<double>(side));
    return std::clamp<std::int64_t>(c, 0, side - 1);
  }

  // Calls visit(j) for every boid in cell (cx, cy), coordinates taken modulo the side.
  template <typename Visit>
  void for_each_in_cell(std::int64_t cx, std::int64_t cy, Visit&& visit) const {
    const std::int64_t wx = ((cx % side) + side) % side;
    const std::int64_t wy = ((cy % side) + side) % side;
    const auto c = static_cast<std::size_t>(wy * side + wx);
    for (std::size_t k = start[c]; k < start[c + 1]; ++k) visit(boids[k]);
  }
};

std::size_t find_root(std::vector<std::size_t>& parent, std::size_t i) {
  while (parent[i] != i) {
    parent[i] = parent[parent[i]];
    i = parent[i];
  }
  return i;
}

}  // namespace

double polarization(const FlockState& s) {
  const std::size_t n = s.size();
  if (n == 0) return 0;
  double sum_x = 0, sum_y = 0;
  for (std::size_t i = 0; i < n; ++i) {
    const double speed = std::hypot(s.vx[i], s.vy[i]);  // no overflow or underflow in squares
    if (speed > 0) {
      sum_x += s.vx[i] / speed;
      sum_y += s.vy[i] / speed;
    }
  }
  const double mean_x = sum_x / static_cast<double>(n);
  const double mean_y = sum_y / static_cast<double>(n);
  return std::sqrt(mean_x * mean_x + mean_y * mean_y);
}

FlockCount count_flocks(const FlockState& s, double radius, double world) {
  const std::size_t n = s.size();
  if (n == 0) return {0, 0};
  // Cells r / 1.5 wide where the boids are dense enough (never more than about one cell per
  // boid): any two boids in such a cell are closer than r, so a cell is linked whole, and a
  // pair of neighbouring cells already in one flock needs no distance at all. This keeps dense
  // flocks linear; sparse ones have about a boid per cell.
  const double most = std::floor(std::sqrt(static_cast<double>(n))) + 1;
  const auto side =
      static_cast<std::int64_t>(std::clamp(std::floor(world / radius * 1.5), 1.0, most));
  const Grid grid(s, side, world);
  const double width = world / static_cast<double>(side);
  const double r2 = radius * radius;
  const bool cells_linked = 2 * width * width < r2 * (1 - 1e-9);
  // Boids closer than r are at most `reach` cells apart along each axis.
  const auto reach = static_cast<std::int64_t>(
      std::min(std::floor(radius / width) + 1, static_cast<double>(side)));

  std::vector<std::size_t> parent(n), size(n, 1);
  std::iota(parent.begin(), parent.end(), std::size_t{0});
  const auto join = [&](std::size_t i, std::size_t j) {
    std::size_t a = find_root(parent, i), b = find_root(parent, j);
    if (a == b) return;
    if (size[a] < size[b]) std::swap(a, b);
    parent[b] = a;
    size[a] += size[b];
  };
  const auto cell_begin = [&](std::size_t c) { return grid.start[c]; };
  const auto cell_end = [&](std::size_t c) { return grid.start[c + 1]; };
  const auto link_pairs = [&](std::size_t c, std::size_t d) {  // cells c != d
    if (cells_linked) {
      const std::size_t a = grid.boids[cell_begin(c)], b = grid.boids[cell_begin(d)];
      if (find_root(parent, a) == find_root(parent, b)) return;
      for (std::size_t k = cell_begin(c); k < cell_end(c); ++k) {
        for (std::size_t l = cell_begin(d); l < cell_end(d); ++l) {
          if (wrapped_distance_sq(s, grid.boids[k], grid.boids[l], world) < r2) {
            join(a, b);
            return;
          }
        }
      }
      return;
    }
    for (std::size_t k = cell_begin(c); k < cell_end(c); ++k) {
      for (std::size_t l = cell_begin(d); l < cell_end(d); ++l) {
        if (wrapped_distance_sq(s, grid.boids[k], grid.boids[l], world) < r2)
          join(grid.boids[k], grid.boids[l]);
      }
    }
  };

  const auto cells = static_cast<std::size_t>(side * side);
  for (std::size_t c = 0; c < cells; ++c) {  // within each cell
    for (std::size_t k = cell_begin(c); k < cell_end(c); ++k) {
      for (std::size_t l = k + 1; l < cell_end(c); ++l) {
        if (cells_linked || wrapped_distance_sq(s, grid.boids[k], grid.boids[l], world) < r2) {
          join(grid.boids[k], grid.boids[l]);
        }
      }
      if (cells_linked) break;  // the first boid is now joined to all the others
    }
  }
  // Between cells: each unordered pair of distinct cells within reach, once; when the reach
  // wraps around the torus onto itself, every pair of cells. Adjacent cells go first, so that
  // in dense flocks the farther pairs are mostly joined already and cost no distances.
  const bool every_pair = 2 * reach + 1 > side;
  const std::int64_t low = every_pair ? 0 : -reach, high = every_pair ? side - 1 : reach;
  for (const bool adjacent : {true, false}) {
    for (std::int64_t cy = 0; cy < side; ++cy) {
      for (std::int64_t cx = 0; cx < side; ++cx) {
        const auto c = static_cast<std::size_t>(cy * side + cx);
        if (cell_begin(c) == cell_end(c)) continue;
        for (std::int64_t oy = low; oy <= high; ++oy) {
          for (std::int64_t ox = low; ox <= high; ++ox) {
            const std::int64_t dx = ((cx + ox) % side + side) % side;
            const std::int64_t dy = ((cy + oy) % side + side) % side;
            const std::int64_t ring_x = std::min((dx - cx + side) % side, (cx - dx + side) % side);
            const std::int64_t ring_y = std::min((dy - cy + side) % side, (cy - dy + side) % side);
            if ((std::max(ring_x, ring_y) <= 1) != adjacent) continue;
            const auto d = static_cast<std::size_t>(dy * side + dx);
            if (d <= c || cell_begin(d) == cell_end(d)) continue;
            link_pairs(c, d);
          }
        }
      }
    }
  }

  FlockCount result{0, 0};
  for (std::size_t i = 0; i < n; ++i) {
    if (parent[i] != i) continue;
    ++result.flocks;
    result.largest = std::max<std::uint64_t>(result.largest, size[i]);
  }
  return result;
}

namespace {

// Clumped flocks crowd a few cells: a boid then scans hundreds of others in its own cell. The
// mean crowd a boid finds in its cell, sum of c^2 / n over cells of c boids, says by how much to
// refine the grid so that it holds about two again, up to four cells per boid.
std::int64_t nn_grid_side(const FlockState& s, std::int64_t even_side, double world) {
  const Grid grid(s, even_side, world);
  double crowd = 0;
  for (std::size_t c = 0; c + 1 < grid.start.size(); ++c) {
    const auto boids = static_cast<double>(grid.start[c + 1] - grid.start[c]);
    crowd += boids * boids;
  }
  const auto n = static_cast<double>(s.size());
  crowd /= n;
  if (crowd <= 8) return even_side;
  const double finest = std::floor(std::sqrt(4 * n));
  return static_cast<std::int64_t>(
      std::min(finest, std::floor(static_cast<double>(even_side) * std::sqrt(crowd / 2))));
}

}  // namespace

double mean_nearest_neighbor_distance(const FlockState& s, double world) {
  const std::size_t n = s.size();
  if (n < 2) return 0;
  // About two boids per cell; search square rings of cells outwards until no unseen boid can
  // be nearer than the nearest one found (an unseen boid is at least ring * width away).
  const auto even_side =
      static_cast<std::int64_t>(std::max(1.0, std::floor(std::sqrt(static_cast<double>(n) / 2.0))));
  const std::int64_t side = nn_grid_side(s, even_side, world);
  const Grid grid(s, side, world);
  const double width = world / static_cast<double>(side);
  std::vector<double> nearest(n);
#pragma omp parallel for schedule(dynamic, 1024)
  for (std::int64_t ii = 0; ii < static_cast<std::int64_t>(n); ++ii) {
    const auto i = static_cast<std::size_t>(ii);
    const std::int64_t cx = grid.coordinate(s.x[i], world), cy = grid.coordinate(s.y[i], world);
    double best = std::numeric_limits<double>::infinity();
    auto consider = [&](std::size_t j) {
      if (j != i) best = std::min(best, wrapped_distance_sq(s, i, j, world));
    };
    std::int64_t ring = 0;
    for (; 2 * ring + 1 <= side; ++ring) {
      for (std::int64_t oy = -ring; oy <= ring; ++oy) {
        const bool edge_row = oy == -ring || oy == ring;
        for (std::int64_t ox = -ring; ox <= ring; ox += edge_row ? 1 : 2 * ring) {
          grid.for_each_in_cell(cx + ox, cy + oy, consider);
          if (ring == 0) break;
        }
      }
      const double safe = static_cast<double>(ring) * width;
      if (best <= safe * safe) break;
    }
    if (2 * ring + 1 > side) {  // the rings now wrap onto themselves: finish with every boid
      for (std::size_t j = 0; j < n; ++j) consider(j);
    }
    nearest[i] = std::sqrt(best);
  }
  double sum = 0;
  for (double d : nearest) sum += d;
  return sum / static_cast<double>(n);
}

FlockMetrics measure_flock(const FlockState& state, const FlockParams& params) {
  FlockMetrics m;
  m.polarization = polarization(state);
  const FlockCount flocks = count_flocks(state, params.radius, params.world);
  m.flocks = flocks.flocks;
  m.largest_flock = flocks.largest;
  m.mean_nn_distance = mean_nearest_neighbor_distance(state, params.world);
  return m;
}

}  // namespace boids
