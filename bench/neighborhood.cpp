#include "bench/neighborhood.h"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <vector>

namespace boids::bench {

using kernels::CellGrid;
using kernels::index_t;

namespace {

// Boids binned by cell: start[c] .. start[c + 1] index `order` (boid indices, cell by cell).
struct Bins {
  std::vector<std::uint64_t> start;
  std::vector<std::uint32_t> order;
};

template <typename Real, int D>
Bins bin(const FlockState& state, const CellGrid<Real, D>& grid) {
  Bins bins;
  const std::size_t n = state.size();
  std::vector<index_t> keys(n);
  bins.start.assign(std::size_t{grid.cells()} + 1, 0);
  for (std::size_t i = 0; i < n; ++i) {
    const double position[3] = {state.x[i], state.y[i], D == 3 ? state.z[i] : 0.0};
    Real at[D];
    for (int a = 0; a < D; ++a) at[a] = static_cast<Real>(position[a]);
    keys[i] = grid.key(at);
    ++bins.start[keys[i] + 1];
  }
  for (std::size_t c = 0; c < grid.cells(); ++c) bins.start[c + 1] += bins.start[c];
  bins.order.resize(n);
  std::vector<std::uint64_t> next(bins.start.begin(), bins.start.end() - 1);
  for (std::size_t i = 0; i < n; ++i) bins.order[next[keys[i]]++] = static_cast<std::uint32_t>(i);
  return bins;
}

}  // namespace

template <typename Real, int D>
double candidates_per_boid(const FlockState& state, const CellGrid<Real, D>& grid) {
  const std::size_t n = state.size();
  if (n == 0) return 0;
  const Bins bins = bin(state, grid);
  // Every boid of cell c tests every boid of c's block but itself.
  double total = 0;
  const auto cells = static_cast<std::int64_t>(grid.cells());
#pragma omp parallel for reduction(+ : total) schedule(static)
  for (std::int64_t c = 0; c < cells; ++c) {
    const auto cell = static_cast<index_t>(c);
    const std::uint64_t here = bins.start[cell + 1] - bins.start[cell];
    if (here == 0) continue;
    std::uint64_t block = 0;
    grid.for_each_block_run(cell, [&](index_t first, index_t last) {
      block += bins.start[last + 1] - bins.start[first];
    });
    total += static_cast<double>(here) * static_cast<double>(block - 1);
  }
  return total / static_cast<double>(n);
}

template <typename Real, int D>
double neighbors_per_boid(const FlockState& state, const CellGrid<Real, D>& grid,
                          const FlockParams& params) {
  const std::size_t n = state.size();
  if (n == 0) return 0;
  const Bins bins = bin(state, grid);
  const std::vector<double>* axes[3] = {&state.x, &state.y, &state.z};
  const double sides[3] = {params.world.width, params.world.height, params.world.depth};
  const double r2 = params.radius * params.radius;
  double total = 0;
  const auto cells = static_cast<std::int64_t>(grid.cells());
#pragma omp parallel for reduction(+ : total) schedule(dynamic, 64)
  for (std::int64_t c = 0; c < cells; ++c) {
    const auto cell = static_cast<index_t>(c);
    for (std::uint64_t k = bins.start[cell]; k < bins.start[cell + 1]; ++k) {
      const std::uint32_t i = bins.order[k];
      grid.for_each_block_run(cell, [&](index_t first, index_t last) {
        for (std::uint64_t m = bins.start[first]; m < bins.start[last + 1]; ++m) {
          const std::uint32_t j = bins.order[m];
          if (j == i) continue;
          double d2 = 0;
          for (int a = 0; a < D; ++a) {
            double d = std::abs((*axes[a])[j] - (*axes[a])[i]);
            d = std::min(d, sides[a] - d);
            d2 += d * d;
          }
          total += d2 < r2 ? 1.0 : 0.0;
        }
      });
    }
  }
  return total / static_cast<double>(n);
}

template double neighbors_per_boid<float, 3>(const FlockState&, const CellGrid<float, 3>&,
                                             const FlockParams&);
template double neighbors_per_boid<double, 3>(const FlockState&, const CellGrid<double, 3>&,
                                              const FlockParams&);

template double candidates_per_boid<float, 2>(const FlockState&, const CellGrid<float, 2>&);
template double candidates_per_boid<double, 2>(const FlockState&, const CellGrid<double, 2>&);
template double candidates_per_boid<float, 3>(const FlockState&, const CellGrid<float, 3>&);
template double candidates_per_boid<double, 3>(const FlockState&, const CellGrid<double, 3>&);

}  // namespace boids::bench
