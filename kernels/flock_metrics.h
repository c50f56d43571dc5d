// The seed's metrics on a backend's own data, one small functor per stage:
//   polarization   per-boid unit headings, then two sums       (UnitHeading)
//   nearest        per-boid ring search over the cell grid     (NearestNeighborDistance)
//   flocks         union-find over pairs closer than r         (LinkNeighbors, FlattenParents)
//                  then roots counted and components sized     (MarkRootsAndSizes)
// They run on a cell index of the current positions (the hashed step's first stages).
#pragma once

#include "kernels/atomics.h"
#include "kernels/cell_grid.h"
#include "kernels/hashed_step.h"

namespace boids::kernels {

template <typename Real>
struct UnitHeading {
  const Boid<Real>* boids;
  double* unit_x;
  double* unit_y;

  BOIDS_HD void operator()(index_t i) const {
    const double vx = boids[i].vx, vy = boids[i].vy;
    const double speed = square_root(vx * vx + vy * vy);
    unit_x[i] = speed > 0 ? vx / speed : 0.0;  // a boid at rest adds nothing
    unit_y[i] = speed > 0 ? vy / speed : 0.0;
  }
};

template <typename Real>
BOIDS_HD inline Real wrapped_distance_sq(const Boid<Real>& a, const Boid<Real>& b,
                                         const StepParams<Real>& p) {
  const Real dx = wrap_delta(b.x - a.x, p);
  const Real dy = wrap_delta(b.y - a.y, p);
  return dx * dx + dy * dy;
}

// Searches square rings of cells outwards from the boid's cell; once the nearest boid found
// is within `ring` cell widths, no unseen boid can be nearer. When the rings would wrap onto
// themselves, every boid is checked.
template <typename Real>
struct NearestNeighborDistance {
  const Boid<Real>* sorted;
  const index_t* cell_start;
  CellGrid<Real> grid;
  StepParams<Real> params;
  index_t count;
  double* distance;

  BOIDS_HD void operator()(index_t i) const {
    const Boid<Real> self = sorted[i];
    const int side = static_cast<int>(grid.side);
    const int cx = static_cast<int>(grid.coordinate(self.x));
    const int cy = static_cast<int>(grid.coordinate(self.y));
    const Real width = params.world / static_cast<Real>(grid.side);
    Real best = Real(-1);
    int ring = 0;
    for (; 2 * ring + 1 <= side; ++ring) {
      for (int oy = -ring; oy <= ring; ++oy) {
        const bool edge_row = oy == -ring || oy == ring;
        const int step = edge_row ? 1 : 2 * ring;
        for (int ox = -ring; ox <= ring; ox += step > 0 ? step : 1) {
          const index_t cell =
              static_cast<index_t>(((cy + oy + side) % side) * side + (cx + ox + side) % side);
          scan(i, self, cell_start[cell], cell_start[cell + 1], best);
        }
      }
      const Real reach = static_cast<Real>(ring) * width;
      if (best >= Real(0) && best <= reach * reach) break;
    }
    if (2 * ring + 1 > side) scan(i, self, 0, count, best);
    distance[i] = best >= Real(0) ? square_root(static_cast<double>(best)) : 0.0;
  }

  BOIDS_HD void scan(index_t i, const Boid<Real>& self, index_t begin, index_t end,
                     Real& best) const {
    for (index_t k = begin; k < end; ++k) {
      if (k == i) continue;
      const Real d2 = wrapped_distance_sq(self, sorted[k], params);
      if (best < Real(0) || d2 < best) best = d2;
    }
  }
};

// Union-find by index: a root always links to a smaller root, so the forest stays acyclic
// whatever order the links happen in.
BOIDS_HD inline index_t find_root(const index_t* parent, index_t i) {
  index_t next = atomic_load(parent + i);
  while (next != i) {
    i = next;
    next = atomic_load(parent + i);
  }
  return i;
}

BOIDS_HD inline void link(index_t* parent, index_t a, index_t b) {
  while (true) {
    a = find_root(parent, a);
    b = find_root(parent, b);
    if (a == b) return;
    if (a < b) {
      const index_t t = a;
      a = b;
      b = t;
    }
    if (atomic_compare_exchange(parent + a, a, b) == a) return;
  }
}

struct InitializeParents {
  index_t* parent;
  index_t* size;
  BOIDS_HD void operator()(index_t i) const {
    parent[i] = i;
    size[i] = 0;
  }
};

template <typename Real>
struct LinkNeighbors {
  const Boid<Real>* sorted;
  const index_t* cell_start;
  CellGrid<Real> grid;
  StepParams<Real> params;
  index_t* parent;

  BOIDS_HD void operator()(index_t i) const {
    const Boid<Real> self = sorted[i];
    grid.for_each_block_run(
        grid.coordinate(self.x), grid.coordinate(self.y), [&](index_t first_key, index_t last_key) {
          const index_t end = cell_start[last_key + 1];
          for (index_t k = cell_start[first_key]; k < end; ++k) {
            if (k > i && wrapped_distance_sq(self, sorted[k], params) < params.radius_sq)
              link(parent, i, k);
          }
        });
  }
};

struct FlattenParents {
  index_t* parent;
  BOIDS_HD void operator()(index_t i) const { parent[i] = find_root(parent, i); }
};

struct MarkRootsAndSizes {
  const index_t* parent;
  index_t* size;
  double* is_root;
  BOIDS_HD void operator()(index_t i) const {
    is_root[i] = parent[i] == i ? 1.0 : 0.0;
    atomic_increment(size + parent[i]);
  }
};

struct MetricsResult {
  double polarization;
  double flocks;
  index_t largest_flock;
  double mean_nn_distance;
};

// Scratch for the metrics: two doubles and two indices per boid.
struct MetricsBuffers {
  double* values[2];
  index_t* parent;
  index_t* size;
};

// Builds the cell index of the current positions into the scratch of `b` (boids and ids are
// left as they are) and measures the flock. `Executor` also sums doubles and takes maxima:
//   exec.sum(values, count) -> double, exec.maximum(values, count) -> index_t
template <typename Real, typename Executor>
MetricsResult measure_flock(Executor& exec, HashedBuffers<Real>& b, MetricsBuffers& m,
                            const CellGrid<Real>& grid, const StepParams<Real>& params) {
  const index_t n = b.count;
  if (!b.keys_ready) exec.for_each(n, ComputeCellKeys<Real>{b.boids, b.keys[0], b.order[0], grid});
  const SortedSlots slots = exec.sort_pairs(b.keys, b.order, n, key_bits(grid.cells()));
  b.keys_ready = false;  // the sort may have overwritten them
  exec.for_each(n, ReorderByCell<Real>{b.boids, b.ids, b.order[slots.values], b.sorted,
                                       b.keys[1 - slots.keys]});
  exec.find_cell_starts(b.keys[slots.keys], b.cell_start, n, grid.cells());

  MetricsResult r;
  exec.for_each(n, UnitHeading<Real>{b.sorted, m.values[0], m.values[1]});
  const double mean_x = exec.sum(m.values[0], n) / n, mean_y = exec.sum(m.values[1], n) / n;
  r.polarization = square_root(mean_x * mean_x + mean_y * mean_y);

  exec.for_each(
      n, NearestNeighborDistance<Real>{b.sorted, b.cell_start, grid, params, n, m.values[0]});
  r.mean_nn_distance = n > 1 ? exec.sum(m.values[0], n) / n : 0.0;

  exec.for_each(n, InitializeParents{m.parent, m.size});
  exec.for_each(n, LinkNeighbors<Real>{b.sorted, b.cell_start, grid, params, m.parent});
  exec.for_each(n, FlattenParents{m.parent});
  exec.for_each(n, MarkRootsAndSizes{m.parent, m.size, m.values[0]});
  r.flocks = exec.sum(m.values[0], n);
  r.largest_flock = exec.maximum(m.size, n);
  return r;
}

}  // namespace boids::kernels
