#include "bench/neighborhood.h"

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

template <typename Real>
Bins bin(const FlockState& state, const CellGrid<Real>& grid) {
  Bins bins;
  const std::size_t n = state.size();
  std::vector<index_t> keys(n);
  bins.start.assign(std::size_t{grid.cells()} + 1, 0);
  for (std::size_t i = 0; i < n; ++i) {
    keys[i] = grid.key(static_cast<Real>(state.x[i]), static_cast<Real>(state.y[i]));
    ++bins.start[keys[i] + 1];
  }
  for (std::size_t c = 0; c < grid.cells(); ++c) bins.start[c + 1] += bins.start[c];
  bins.order.resize(n);
  std::vector<std::uint64_t> next(bins.start.begin(), bins.start.end() - 1);
  for (std::size_t i = 0; i < n; ++i) bins.order[next[keys[i]]++] = static_cast<std::uint32_t>(i);
  return bins;
}

}  // namespace

template <typename Real>
double candidates_per_boid(const FlockState& state, const CellGrid<Real>& grid) {
  const std::size_t n = state.size();
  if (n == 0) return 0;
  const Bins bins = bin(state, grid);
  // Every boid of cell c tests every boid of c's block but itself.
  double total = 0;
  const auto rows = static_cast<std::int64_t>(grid.rows);
#pragma omp parallel for reduction(+ : total) schedule(static)
  for (std::int64_t cy = 0; cy < rows; ++cy) {
    for (index_t cx = 0; cx < grid.columns; ++cx) {
      const index_t cell = static_cast<index_t>(cy) * grid.columns + cx;
      const std::uint64_t here = bins.start[cell + 1] - bins.start[cell];
      if (here == 0) continue;
      std::uint64_t block = 0;
      grid.for_each_block_run(cx, static_cast<index_t>(cy), [&](index_t first, index_t last) {
        block += bins.start[last + 1] - bins.start[first];
      });
      total += static_cast<double>(here) * static_cast<double>(block - 1);
    }
  }
  return total / static_cast<double>(n);
}

template double candidates_per_boid<float>(const FlockState&, const CellGrid<float>&);
template double candidates_per_boid<double>(const FlockState&, const CellGrid<double>&);

}  // namespace boids::bench
