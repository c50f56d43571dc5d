#include "host/model/obstacle_index.h"

#include <algorithm>
#include <cmath>

namespace boids {
namespace {

// Cells the grid may have: about one per disc, at most 2^20 (a few MiB of index).
constexpr double kMostCells = 1 << 20;
// The discs' boxes may reach this many cells per disc and per cell, in all; beyond it the cells
// grow (a few large discs make a coarse grid, whose cells they then cover whole).
constexpr std::uint64_t kReachPerEntry = 8;

// A disc reaches the cells of its box widened by this share of the world's sides, far more
// than the rounding of the test or of a point's cell, so that no point it holds is missed.
constexpr double kSlack = 1e-12;
// A cell is covered whole only with this share of the world's sides to spare.
constexpr double kWholeMargin = 1e-9;

// The cells along one axis that a disc's box reaches: `count` cells from `first` (taken modulo
// the axis's cells on a torus).
struct Span {
  std::int64_t first = 0, count = 1;
};

Span span_of(double centre, double radius, double side, std::int64_t cells, double slack,
             bool torus) {
  const double inverse = static_cast<double>(cells) / side;
  const double low = std::floor((centre - radius - slack) * inverse);
  const double high = std::floor((centre + radius + slack) * inverse);
  const auto n = static_cast<double>(cells);
  if (torus) {
    if (!(high - low + 1 < n)) return {0, cells};
    return {static_cast<std::int64_t>(low), static_cast<std::int64_t>(high - low) + 1};
  }
  const double first = std::max(low, 0.0), last = std::min(high, n - 1);
  if (!(first <= last)) return {0, 0};
  return {static_cast<std::int64_t>(first), static_cast<std::int64_t>(last - first) + 1};
}

// The farthest a point of cell `m` (of `cells` along an axis of `side`) lies from `centre` along
// it, in the cell's image nearest the centre on a torus.
double farthest(double centre, std::int64_t m, std::int64_t cells, double side, bool torus) {
  const double width = side / static_cast<double>(cells);
  double low = static_cast<double>(m) * width, high = static_cast<double>(m + 1) * width;
  if (torus) {
    const double shift = side * std::round((centre - (low + high) / 2) / side);
    low += shift;
    high += shift;
  }
  return std::max(std::fabs(low - centre), std::fabs(high - centre));
}

}  // namespace

template <typename Visit>
void ObstacleIndex::for_each_cell(const Disc& d, Visit&& visit) const {
  const double sides = side_[0] + side_[1] + (dimensions_ == 3 ? side_[2] : 0);
  Span spans[3];
  for (int a = 0; a < dimensions_; ++a) {
    spans[a] = span_of(d.centre[a], d.radius, side_[a], cells_[a], kSlack * sides, torus_);
  }
  const auto wrap = [this](std::int64_t m, int a) {
    return torus_ ? ((m % cells_[a]) + cells_[a]) % cells_[a] : m;
  };
  for (std::int64_t k = 0; k < spans[2].count; ++k) {
    const std::int64_t z = wrap(spans[2].first + k, 2);
    for (std::int64_t j = 0; j < spans[1].count; ++j) {
      const std::int64_t y = wrap(spans[1].first + j, 1);
      for (std::int64_t i = 0; i < spans[0].count; ++i) {
        const std::int64_t x = wrap(spans[0].first + i, 0);
        const std::int64_t m[3] = {x, y, z};
        double far2 = 0;
        for (int a = 0; a < dimensions_; ++a) {
          const double f = farthest(d.centre[a], m[a], cells_[a], side_[a], torus_);
          far2 += f * f;
        }
        const bool whole = std::sqrt(far2) + kWholeMargin * sides < d.radius;
        visit(x + cells_[0] * (y + cells_[1] * z), whole);
      }
    }
  }
}

std::uint64_t ObstacleIndex::reach(const std::int64_t (&cells)[3]) const {
  const double sides = side_[0] + side_[1] + (dimensions_ == 3 ? side_[2] : 0);
  std::uint64_t total = 0;
  for (const Disc& d : discs_) {
    std::uint64_t product = 1;
    for (int a = 0; a < dimensions_; ++a) {
      product *= static_cast<std::uint64_t>(
          span_of(d.centre[a], d.radius, side_[a], cells[a], kSlack * sides, torus_).count);
    }
    total += product;
  }
  return total;
}

ObstacleIndex::ObstacleIndex(const FlockParams& p, double edge)
    : dimensions_(p.dimensions),
      torus_(p.world.torus()),
      side_{p.world.width, p.world.height, p.dimensions == 3 ? p.world.depth : 1.0} {
  for (const Obstacle& o : p.obstacles) {
    const double radius = o.radius - edge;
    if (radius > 0) discs_.push_back({{o.x, o.y, o.z}, radius});
  }
  if (discs_.empty()) return;
  // About one cell per disc, as square as the world allows; then coarser while the discs'
  // boxes would reach too many cells.
  const double target = std::min(static_cast<double>(discs_.size()), kMostCells);
  double volume = 1;
  for (int a = 0; a < dimensions_; ++a) volume *= side_[a];
  const double width = std::pow(volume / target, 1.0 / dimensions_);
  std::int64_t cells[3] = {1, 1, 1};
  for (int a = 0; a < dimensions_; ++a) {
    cells[a] = static_cast<std::int64_t>(std::clamp(std::round(side_[a] / width), 1.0, kMostCells));
  }
  const auto total = [&cells] { return cells[0] * cells[1] * cells[2]; };
  while (static_cast<double>(total()) > 4 * target) *std::max_element(cells, cells + 3) /= 2;
  while (total() > 1 &&
         reach(cells) > kReachPerEntry * (discs_.size() + static_cast<std::uint64_t>(total()))) {
    for (std::int64_t& n : cells) n = std::max<std::int64_t>(n / 2, 1);
  }
  for (int a = 0; a < 3; ++a) {
    cells_[a] = cells[a];
    inverse_width_[a] = static_cast<double>(cells[a]) / side_[a];
  }
  // Cells covered whole first, so that the lists leave out every disc of such a cell.
  const auto count = static_cast<std::size_t>(total());
  whole_.assign(count, 0);
  for (const Disc& d : discs_) {
    for_each_cell(d, [this](std::int64_t cell, bool whole) {
      if (whole) whole_[static_cast<std::size_t>(cell)] = 1;
    });
  }
  start_.assign(count + 1, 0);
  for (const Disc& d : discs_) {
    for_each_cell(d, [this](std::int64_t cell, bool) {
      if (!whole_[static_cast<std::size_t>(cell)]) ++start_[static_cast<std::size_t>(cell) + 1];
    });
  }
  for (std::size_t c = 0; c < count; ++c) start_[c + 1] += start_[c];
  items_.resize(start_[count]);
  std::vector<std::uint32_t> next(start_.begin(), start_.end() - 1);
  for (std::size_t k = 0; k < discs_.size(); ++k) {
    for_each_cell(discs_[k], [&](std::int64_t cell, bool) {
      const auto c = static_cast<std::size_t>(cell);
      if (!whole_[c]) items_[next[c]++] = static_cast<std::uint32_t>(k);
    });
  }
}

// The test of every obstacle in turn, as the start has always made it.
bool ObstacleIndex::disc_holds(const Disc& disc, const double (&position)[3]) const {
  double d2 = 0;
  for (int a = 0; a < dimensions_; ++a) {
    double d = position[a] - disc.centre[a];
    if (torus_) d -= side_[a] * std::round(d / side_[a]);
    d2 = a == 0 ? d * d : d2 + d * d;
  }
  return d2 < disc.radius * disc.radius;
}

std::int64_t ObstacleIndex::cell_of(const double (&position)[3]) const {
  std::int64_t m[3] = {0, 0, 0};
  for (int a = 0; a < dimensions_; ++a) {
    const double c = std::floor(position[a] * inverse_width_[a]);
    const auto last = static_cast<double>(cells_[a] - 1);
    m[a] = static_cast<std::int64_t>(c > 0 ? std::min(c, last) : 0.0);
  }
  return m[0] + cells_[0] * (m[1] + cells_[1] * m[2]);
}

bool ObstacleIndex::holds(const double (&position)[3]) const {
  if (discs_.empty()) return false;
  const auto cell = static_cast<std::size_t>(cell_of(position));
  if (whole_[cell]) return true;
  for (std::uint32_t k = start_[cell]; k < start_[cell + 1]; ++k) {
    if (disc_holds(discs_[items_[k]], position)) return true;
  }
  return false;
}

bool ObstacleIndex::covers_world() const {
  return !discs_.empty() && std::all_of(whole_.begin(), whole_.end(), [](auto w) { return w; });
}

}  // namespace boids
