#include "host/metrics/metrics.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <limits>
#include <numeric>
#include <vector>

#include "host/metrics/metrics_support.h"

namespace boids {
namespace {

// Boids bucketed into columns x rows cells of the world (a counting sort by cell).
struct Grid {
  std::int64_t columns, rows;
  World world;
  std::vector<std::size_t> start;  // columns * rows + 1 offsets into `boids`
  std::vector<std::size_t> boids;  // boid indices, cell by cell
  std::vector<double> xs, ys;      // their positions, cell by cell (with_positions only)

  Grid(const FlockState& s, std::int64_t grid_columns, std::int64_t grid_rows, const World& w)
      : columns(grid_columns), rows(grid_rows), world(w) {
    const std::size_t n = s.size();
    std::vector<std::size_t> cell(n);
    start.assign(static_cast<std::size_t>(columns * rows) + 1, 0);
    for (std::size_t i = 0; i < n; ++i) {
      cell[i] = static_cast<std::size_t>(row(s.y[i]) * columns + column(s.x[i]));
      ++start[cell[i] + 1];
    }
    std::partial_sum(start.begin(), start.end(), start.begin());
    boids.resize(n);
    std::vector<std::size_t> next(start.begin(), start.end() - 1);
    for (std::size_t i = 0; i < n; ++i) boids[next[cell[i]]++] = i;
  }

  // Copies the positions into cell order, so that scans of cells read contiguous memory.
  void with_positions(const FlockState& s) {
    xs.resize(boids.size());
    ys.resize(boids.size());
    for (std::size_t k = 0; k < boids.size(); ++k) {
      xs[k] = s.x[boids[k]];
      ys[k] = s.y[boids[k]];
    }
  }

  std::int64_t column(double x) const { return clamp_cell(x / world.width, columns); }
  std::int64_t row(double y) const { return clamp_cell(y / world.height, rows); }
  double cell_width() const { return world.width / static_cast<double>(columns); }
  double cell_height() const { return world.height / static_cast<double>(rows); }

  // The cell at (cx, cy), taken modulo the grid on a torus; -1 beyond the walls.
  std::int64_t cell_at(std::int64_t cx, std::int64_t cy) const {
    if (world.torus()) {
      cx = ((cx % columns) + columns) % columns;
      cy = ((cy % rows) + rows) % rows;
    } else if (cx < 0 || cy < 0 || cx >= columns || cy >= rows) {
      return -1;
    }
    return cy * columns + cx;
  }

  // Calls visit(j) for every boid in cell (cx, cy), as cell_at finds it.
  template <typename Visit>
  void for_each_in_cell(std::int64_t cx, std::int64_t cy, Visit&& visit) const {
    const std::int64_t c = cell_at(cx, cy);
    if (c < 0) return;
    const auto cell = static_cast<std::size_t>(c);
    for (std::size_t k = start[cell]; k < start[cell + 1]; ++k) visit(boids[k]);
  }

 private:
  static std::int64_t clamp_cell(double fraction, std::int64_t count) {
    const auto c = static_cast<std::int64_t>(fraction * static_cast<double>(count));
    return std::clamp<std::int64_t>(c, 0, count - 1);
  }
};

// Cells of about `width` along each axis, at most about `most` of them in all.
std::array<std::int64_t, 2> grid_shape(const World& world, double width, double most) {
  double columns = std::max(1.0, std::floor(world.width / width));
  double rows = std::max(1.0, std::floor(world.height / width));
  if (columns * rows > most) {
    const double shrink = std::sqrt(most / (columns * rows));
    columns = std::max(1.0, std::floor(columns * shrink));
    rows = std::max(1.0, std::floor(rows * shrink));
  }
  return {static_cast<std::int64_t>(columns), static_cast<std::int64_t>(rows)};
}

// The cells within `reach` cells of (cx, cy) along each axis, each once, into `cells`: on a
// torus a reach that wraps onto itself covers the axis once; between walls the cells beyond
// them are left out.
void cells_within(const Grid& grid, std::int64_t cx, std::int64_t cy, std::int64_t reach_x,
                  std::int64_t reach_y, std::vector<std::int64_t>& cells) {
  cells.clear();
  const bool all_x = grid.world.torus() && 2 * reach_x + 1 >= grid.columns;
  const bool all_y = grid.world.torus() && 2 * reach_y + 1 >= grid.rows;
  const std::int64_t x0 = all_x ? 0 : cx - reach_x, x1 = all_x ? grid.columns - 1 : cx + reach_x;
  const std::int64_t y0 = all_y ? 0 : cy - reach_y, y1 = all_y ? grid.rows - 1 : cy + reach_y;
  for (std::int64_t y = y0; y <= y1; ++y) {
    for (std::int64_t x = x0; x <= x1; ++x) {
      const std::int64_t c = grid.cell_at(x, y);
      if (c >= 0) cells.push_back(c);
    }
  }
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

double order_parameter(const FlockState& s, double max_speed) {
  const std::size_t n = s.size();
  if (n == 0) return 0;
  double sum_x = 0, sum_y = 0;
  for (std::size_t i = 0; i < n; ++i) {
    sum_x += s.vx[i];
    sum_y += s.vy[i];
  }
  return std::hypot(sum_x, sum_y) / (static_cast<double>(n) * max_speed);
}

FlockCount count_flocks(const FlockState& s, double radius, const World& world) {
  const std::size_t n = s.size();
  if (n == 0) return {0, 0};
  // Cells r / 1.5 wide where the boids are dense enough (never more than about one cell per
  // boid): any two boids in such a cell are closer than r, so a cell is linked whole, and a
  // pair of neighbouring cells already in one flock needs no distance at all. This keeps dense
  // flocks linear; sparse ones have about a boid per cell.
  const auto [columns, rows] = grid_shape(world, radius / 1.5, static_cast<double>(n) + 1);
  const Grid grid(s, columns, rows, world);
  const double width = grid.cell_width(), height = grid.cell_height();
  const double r2 = radius * radius;
  const bool cells_linked = width * width + height * height < r2 * (1 - 1e-9);
  // Boids closer than r are at most `reach` cells apart along each axis.
  const auto reach_x = static_cast<std::int64_t>(
      std::min(std::floor(radius / width) + 1, static_cast<double>(columns)));
  const auto reach_y = static_cast<std::int64_t>(
      std::min(std::floor(radius / height) + 1, static_cast<double>(rows)));

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
          if (distance_sq(s, grid.boids[k], grid.boids[l], world) < r2) {
            join(a, b);
            return;
          }
        }
      }
      return;
    }
    for (std::size_t k = cell_begin(c); k < cell_end(c); ++k) {
      for (std::size_t l = cell_begin(d); l < cell_end(d); ++l) {
        if (distance_sq(s, grid.boids[k], grid.boids[l], world) < r2)
          join(grid.boids[k], grid.boids[l]);
      }
    }
  };

  const auto cells = static_cast<std::size_t>(columns * rows);
  for (std::size_t c = 0; c < cells; ++c) {  // within each cell
    for (std::size_t k = cell_begin(c); k < cell_end(c); ++k) {
      for (std::size_t l = k + 1; l < cell_end(c); ++l) {
        if (cells_linked || distance_sq(s, grid.boids[k], grid.boids[l], world) < r2) {
          join(grid.boids[k], grid.boids[l]);
        }
      }
      if (cells_linked) break;  // the first boid is now joined to all the others
    }
  }
  // Between cells: each unordered pair of distinct cells within reach, once. Adjacent cells go
  // first, so that in dense flocks the farther pairs are mostly joined already and cost no
  // distances.
  const auto apart = [&](std::int64_t a, std::int64_t b, std::int64_t count) {
    const std::int64_t d = std::abs(a - b);
    return world.torus() ? std::min(d, count - d) : d;
  };
  std::vector<std::int64_t> targets;
  for (const bool adjacent : {true, false}) {
    for (std::int64_t cy = 0; cy < rows; ++cy) {
      for (std::int64_t cx = 0; cx < columns; ++cx) {
        const auto c = static_cast<std::size_t>(cy * columns + cx);
        if (cell_begin(c) == cell_end(c)) continue;
        cells_within(grid, cx, cy, reach_x, reach_y, targets);
        for (const std::int64_t target : targets) {
          const auto d = static_cast<std::size_t>(target);
          if (d <= c || cell_begin(d) == cell_end(d)) continue;
          const std::int64_t dx = target % columns, dy = target / columns;
          const bool near = apart(cx, dx, columns) <= 1 && apart(cy, dy, rows) <= 1;
          if (near == adjacent) link_pairs(c, d);
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

// The mean crowd a boid finds in its cell, sum of c^2 / n over cells of c boids.
double crowd(const Grid& grid, std::size_t n) {
  double sum = 0;
  for (std::size_t c = 0; c + 1 < grid.start.size(); ++c) {
    const auto boids = static_cast<double>(grid.start[c + 1] - grid.start[c]);
    sum += boids * boids;
  }
  return sum / static_cast<double>(n);
}

// Calls visit(first_cell, last_cell) for the cells of grid row `row` (taken modulo the grid on a
// torus) at columns [a, b], as at most two runs of consecutive cells; between walls, the columns
// beyond them are left out.
template <typename Visit>
void for_each_row_run(const Grid& grid, std::int64_t row, std::int64_t a, std::int64_t b,
                      Visit&& visit) {
  if (a > b) return;
  const std::int64_t columns = grid.columns;
  if (grid.world.torus()) {
    row = ((row % grid.rows) + grid.rows) % grid.rows;
    const std::int64_t shift = ((a % columns) + columns) % columns - a;
    a += shift;
    b += shift;
    const std::int64_t first_end = std::min(b, columns - 1);
    visit(row * columns + a, row * columns + first_end);
    if (b >= columns) visit(row * columns, row * columns + (b - columns));
    return;
  }
  if (row < 0 || row >= grid.rows) return;
  a = std::max<std::int64_t>(a, 0);
  b = std::min<std::int64_t>(b, columns - 1);
  if (a <= b) visit(row * columns + a, row * columns + b);
}

}  // namespace

double mean_neighbor_count(const FlockState& s, double radius, const World& world) {
  const std::size_t n = s.size();
  if (n == 0) return 0;
  // Cells small enough to hold about one boid where the boids are (finer where they crowd), at
  // most r wide. A boid counts the boids of the cells that lie wholly within r of it from the
  // cell starts of each row (a row's cells are contiguous), and checks only those of the cells
  // the circle of radius r crosses: about 2 pi r sqrt(density) distances a boid instead of
  // pi r^2 density.
  const auto count = static_cast<double>(n);
  const double area = world.width * world.height;
  double width = std::min(radius, std::sqrt(area / count));
  {
    const auto even = grid_shape(world, width, count);
    const double crowding = crowd(Grid(s, even[0], even[1], world), n);
    if (crowding > 2) width /= std::sqrt(crowding / 2);
  }
  const auto [columns, rows] = grid_shape(world, width, 4 * count);
  Grid grid(s, columns, rows, world);
  grid.with_positions(s);
  const double cw = grid.cell_width(), ch = grid.cell_height();
  const double r2 = radius * radius;
  // On a small torus the circle can meet its own images: there, each pair is checked.
  const double reach = 2 * (radius + 2 * std::max(cw, ch));
  const bool overlaps = world.torus() && (reach >= world.width || reach >= world.height);
  const double slack = 1e-9 * std::max(cw, ch);  // cell borders as rounding may place boids
  double pairs = 0;
#pragma omp parallel reduction(+ : pairs)
  {
    std::vector<std::int64_t> cells;
    // Boids in cell order, so that neighbouring boids scan the same cells.
#pragma omp for schedule(dynamic, 1024)
    for (std::int64_t kk = 0; kk < static_cast<std::int64_t>(n); ++kk) {
      const auto k = static_cast<std::size_t>(kk);
      const double px = grid.xs[k], py = grid.ys[k];
      const auto own = static_cast<std::size_t>(grid.row(py) * columns + grid.column(px));
      double found = 0;
      const auto check = [&](std::int64_t first_cell, std::int64_t last_cell) {
        const std::size_t end = grid.start[static_cast<std::size_t>(last_cell) + 1];
        for (std::size_t m = grid.start[static_cast<std::size_t>(first_cell)]; m < end; ++m) {
          double dx = grid.xs[m] - px, dy = grid.ys[m] - py;
          if (world.torus()) {
            dx = wrap(dx, world.width);
            dy = wrap(dy, world.height);
          }
          found += (m != k && dx * dx + dy * dy < r2) ? 1 : 0;
        }
      };
      const auto take_whole = [&](std::int64_t first_cell, std::int64_t last_cell) {
        const auto a = static_cast<std::size_t>(first_cell);
        const auto b = static_cast<std::size_t>(last_cell);
        found += static_cast<double>(grid.start[b + 1] - grid.start[a]);
        if (a <= own && own <= b) found -= 1;  // the boid itself
      };
      if (overlaps) {
        cells_within(grid, grid.column(px), grid.row(py),
                     static_cast<std::int64_t>(std::ceil(radius / cw)),
                     static_cast<std::int64_t>(std::ceil(radius / ch)), cells);
        for (const std::int64_t c : cells) check(c, c);
        pairs += found;
        continue;
      }
      const std::int64_t cy = grid.row(py);
      const auto reach_y = static_cast<std::int64_t>(std::ceil(radius / ch)) + 1;
      for (std::int64_t row = cy - reach_y; row <= cy + reach_y; ++row) {
        const double y0 = static_cast<double>(row) * ch - slack;
        const double y1 = static_cast<double>(row + 1) * ch + slack;
        const double near_y = std::max({0.0, y0 - py, py - y1});
        if (near_y * near_y >= r2) continue;
        const double far_y = std::max(std::abs(y0 - py), std::abs(y1 - py));
        const double h_out = std::sqrt(r2 - near_y * near_y);
        const auto first = static_cast<std::int64_t>(std::floor((px - h_out) / cw));
        const auto last = static_cast<std::int64_t>(std::floor((px + h_out) / cw));
        std::int64_t in_first = last + 1, in_last = last;  // cells wholly inside: none yet
        if (far_y * far_y < r2) {
          const double h_in = std::sqrt(r2 - far_y * far_y) * (1 - 1e-9);
          in_first = static_cast<std::int64_t>(std::ceil((px - h_in + slack) / cw));
          in_last = static_cast<std::int64_t>(std::floor((px + h_in - slack) / cw)) - 1;
          if (in_last < in_first) in_first = last + 1, in_last = last;
        }
        for_each_row_run(grid, row, first, std::min(last, in_first - 1), check);
        for_each_row_run(grid, row, in_first, in_last, take_whole);
        for_each_row_run(grid, row, std::max(first, in_last + 1), last, check);
      }
      pairs += found;
    }
  }
  return pairs / count;
}

namespace {

// Clumped flocks crowd a few cells: a boid then scans hundreds of others in its own cell. The
// mean crowd a boid finds in its cell, sum of c^2 / n over cells of c boids, says by how much to
// refine the grid so that it holds about two again, up to four cells per boid.
std::array<std::int64_t, 2> nn_grid_shape(const FlockState& s, const World& world) {
  const auto n = static_cast<double>(s.size());
  const double even_width = std::sqrt(world.width * world.height * 2 / n);  // two boids a cell
  const auto even = grid_shape(world, even_width, std::max(1.0, n / 2));
  const double crowding = crowd(Grid(s, even[0], even[1], world), s.size());
  if (crowding <= 8) return even;
  return grid_shape(world, even_width / std::sqrt(crowding / 2), 4 * n);
}

}  // namespace

double mean_nearest_neighbor_distance(const FlockState& s, const World& world) {
  const std::size_t n = s.size();
  if (n < 2) return 0;
  // About two boids per cell; search square rings of cells outwards until no unseen boid can
  // be nearer than the nearest one found (an unseen boid is at least ring * width away).
  const auto [columns, rows] = nn_grid_shape(s, world);
  const Grid grid(s, columns, rows, world);
  const double unit = std::min(grid.cell_width(), grid.cell_height());
  // The last ring that does not wrap onto itself; between walls, one that covers the grid.
  const std::int64_t rings =
      world.torus() ? (std::min(columns, rows) - 1) / 2 : std::max(columns, rows);
  std::vector<double> nearest(n);
#pragma omp parallel for schedule(dynamic, 1024)
  for (std::int64_t ii = 0; ii < static_cast<std::int64_t>(n); ++ii) {
    const auto i = static_cast<std::size_t>(ii);
    const std::int64_t cx = grid.column(s.x[i]), cy = grid.row(s.y[i]);
    double best = std::numeric_limits<double>::infinity();
    auto consider = [&](std::size_t j) {
      if (j != i) best = std::min(best, distance_sq(s, i, j, world));
    };
    bool found = false;
    for (std::int64_t ring = 0; ring <= rings && !found; ++ring) {
      for (std::int64_t oy = -ring; oy <= ring; ++oy) {
        const bool edge_row = oy == -ring || oy == ring;
        for (std::int64_t ox = -ring; ox <= ring; ox += edge_row ? 1 : 2 * ring) {
          grid.for_each_in_cell(cx + ox, cy + oy, consider);
          if (ring == 0) break;
        }
      }
      const double safe = static_cast<double>(ring) * unit;
      found = best <= safe * safe;
    }
    if (!found) {  // the rings now wrap onto themselves: finish with every boid
      for (std::size_t j = 0; j < n; ++j) consider(j);
    }
    nearest[i] = std::sqrt(best);
  }
  double sum = 0;
  for (double d : nearest) sum += d;
  return sum / static_cast<double>(n);
}

FlockCount count_flocks(const FlockState& state, double radius, double world) {
  return count_flocks(state, radius, World{world, world, Boundary::kTorus});
}

double mean_nearest_neighbor_distance(const FlockState& state, double world) {
  return mean_nearest_neighbor_distance(state, World{world, world, Boundary::kTorus});
}

std::uint64_t boids_within_reach(const FlockState& state, const FlockParams& params) {
  const double reach = params.effective_flee_radius();
  std::uint64_t within = 0;
  for (std::size_t i = 0; i < state.size(); ++i) {
    for (std::size_t k = 0; k < state.predators.size(); ++k) {
      if (std::sqrt(distance_sq(state, i, state.predators, k, params.world)) < reach) {
        within += 1;
        break;
      }
    }
  }
  return within;
}

namespace {

FlockMetrics measure_flock_2d(const FlockState& state, const FlockParams& params) {
  FlockMetrics m;
  m.polarization = polarization(state);
  m.milling = milling(state, params.world);
  m.order = order_parameter(state, params.max_speed);
  const FlockCount flocks = count_flocks(state, params.radius, params.world);
  m.flocks = flocks.flocks;
  m.largest_flock = flocks.largest;
  m.mean_nn_distance = mean_nearest_neighbor_distance(state, params.world);
  m.mean_neighbors = params.nearest > 0 ? std::min(static_cast<double>(params.nearest),
                                                   static_cast<double>(state.size()) - 1.0)
                                        : mean_neighbor_count(state, params.radius, params.world);
  return m;
}

}  // namespace

BoxedFlock boxed(const FlockState& s) {
  BoxedFlock b{s, World{1, 1, Boundary::kWalls, 1}};
  std::vector<double>* axes[3] = {&b.state.x, &b.state.y, &b.state.z};
  for (int a = 0; a < s.dimensions; ++a) {
    std::vector<double>& x = *axes[a];
    if (x.empty()) continue;
    const auto [low, high] = std::minmax_element(x.begin(), x.end());
    const double origin = *low, extent = *high - origin;
    for (double& c : x) c -= origin;
    // Wide enough that every moved coordinate lies below the side, however it rounded.
    const double side = std::max(extent * (1 + 0x1.0p-40) + 0x1.0p-40, 1e-300);
    (a == 0 ? b.world.width : a == 1 ? b.world.height : b.world.depth) = side;
  }
  return b;
}

FlockMetrics measure_flock(const FlockState& state, const FlockParams& params) {
  FlockMetrics m = in_a_box(state, params.world, [&](const FlockState& s, const World& world) {
    FlockParams in_world = params;
    in_world.world = world;
    return s.dimensions == 3 ? measure_flock_3d(s, in_world) : measure_flock_2d(s, in_world);
  });
  m.within_reach = boids_within_reach(state, params);  // the predators where they fly
  return m;
}

}  // namespace boids
