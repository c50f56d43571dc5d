// The metrics of a flock in three dimensions (docs/3d.md), over every pair: the oracle the
// backends' cell-grid metrics will be held to. O(n^2), which suits the flocks the reference
// flies; the pairs are split across threads by row, each row's sums in index order.
#include <algorithm>
#include <cmath>
#include <limits>
#include <numeric>
#include <vector>

#include "host/metrics/metrics.h"
#include "host/metrics/metrics_support.h"

namespace boids {

FlockMetrics measure_flock_3d(const FlockState& s, const FlockParams& p) {
  const std::size_t n = s.size();
  FlockMetrics m;
  if (n == 0) return m;
  double hx = 0, hy = 0, hz = 0, sx = 0, sy = 0, sz = 0;
  for (std::size_t i = 0; i < n; ++i) {
    const double speed = std::sqrt(s.vx[i] * s.vx[i] + s.vy[i] * s.vy[i] + s.vz[i] * s.vz[i]);
    if (speed > 0) {
      hx += s.vx[i] / speed;
      hy += s.vy[i] / speed;
      hz += s.vz[i] / speed;
    }
    sx += s.vx[i];
    sy += s.vy[i];
    sz += s.vz[i];
  }
  const double count = static_cast<double>(n);
  m.polarization = std::sqrt(hx * hx + hy * hy + hz * hz) / count;
  m.milling = milling(s, p.world);
  m.order = std::sqrt(sx * sx + sy * sy + sz * sz) / (count * p.max_speed);

  const double r2 = p.radius * p.radius;
  std::vector<double> nearest(n, std::numeric_limits<double>::infinity());
  std::vector<std::uint64_t> neighbors(n, 0);
#pragma omp parallel for schedule(dynamic, 16)
  for (std::int64_t row = 0; row < static_cast<std::int64_t>(n); ++row) {
    const auto i = static_cast<std::size_t>(row);
    for (std::size_t j = 0; j < n; ++j) {
      if (j == i) continue;
      const double d2 = distance_sq(s, i, j, p.world);
      nearest[i] = std::min(nearest[i], d2);
      if (d2 < r2) ++neighbors[i];
    }
  }
  std::vector<std::size_t> parent(n);
  std::iota(parent.begin(), parent.end(), std::size_t{0});
  for (std::size_t i = 0; i < n; ++i) {
    for (std::size_t j = i + 1; j < n; ++j) {
      if (distance_sq(s, i, j, p.world) < r2) parent[find_root(parent, j)] = find_root(parent, i);
    }
  }
  std::vector<std::uint64_t> members(n, 0);
  double nn = 0, around = 0;
  for (std::size_t i = 0; i < n; ++i) {
    ++members[find_root(parent, i)];
    if (n > 1) nn += std::sqrt(nearest[i]);
    around += static_cast<double>(neighbors[i]);
  }
  for (std::size_t i = 0; i < n; ++i) m.flocks += parent[i] == i ? 1 : 0;
  m.largest_flock = *std::max_element(members.begin(), members.end());
  m.mean_nn_distance = n > 1 ? nn / count : 0.0;
  // Under topological neighbours a boid heeds its K nearest, whatever the radius holds.
  m.mean_neighbors =
      p.nearest > 0 ? std::min(static_cast<double>(p.nearest), count - 1) : around / count;
  return m;
}

}  // namespace boids
