// The seed's metrics on a backend's own data, one small functor per stage:
//   polarization   sums of the unit headings                   (UnitHeading)
//   nearest        per-boid ring search over the cell grid     (NearestNeighborDistance)
//   flocks         union-find over pairs closer than r         (LinkNeighbors, FlattenParents)
//                  then components sized and roots counted     (CountMembers, IsRoot)
// They run on the cell index of the current positions (kernels/cell_index.h), and keep the
// union-find in the index's key and order arrays, free once the boids are reordered: the
// metrics need no memory of their own.
#pragma once

#include "kernels/atomics.h"
#include "kernels/cell_index.h"

namespace boids::kernels {

// One axis of a boid's unit heading, in double; a boid at rest adds nothing.
template <typename Real>
struct UnitHeading {
  const Boid<Real>* boids;
  bool y_axis;

  BOIDS_HD double operator()(index_t i) const {
    const double vx = boids[i].vx, vy = boids[i].vy;
    const double speed = square_root(vx * vx + vy * vy);
    if (!(speed > 0)) return 0.0;
    return (y_axis ? vy : vx) / speed;
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

  // The distance from sorted boid i to its nearest other boid; 0 for a lone boid.
  BOIDS_HD double operator()(index_t i) const {
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
    return best >= Real(0) ? square_root(static_cast<double>(best)) : 0.0;
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
  index_t* members;
  BOIDS_HD void operator()(index_t i) const {
    parent[i] = i;
    members[i] = 0;
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

// Points every boid straight at its root. Other threads read the same entries meanwhile (a
// root's entry never changes here, and any entry they read leads to the same root), so the
// writes are atomic too.
struct FlattenParents {
  index_t* parent;
  BOIDS_HD void operator()(index_t i) const { atomic_store(parent + i, find_root(parent, i)); }
};

// Counts each flock's boids at its root; run once the parents are flat.
struct CountMembers {
  const index_t* parent;
  index_t* members;
  BOIDS_HD void operator()(index_t i) const { atomic_increment(members + parent[i]); }
};

struct IsRoot {
  const index_t* parent;
  BOIDS_HD double operator()(index_t i) const { return parent[i] == i ? 1.0 : 0.0; }
};

struct MetricsResult {
  double polarization;
  double flocks;
  index_t largest_flock;
  double mean_nn_distance;
};

// Builds the cell index of the current positions (the state and the ids are left as they
// are) and measures the flock. `Executor` also sums and takes maxima:
//   exec.sum(count, value_of) -> double: the sum of value_of(i), the same on every run
//   exec.maximum(values, count) -> index_t
template <typename Real, typename Executor>
MetricsResult measure_flock(Executor& exec, CellIndex<Real>& x, const CellGrid<Real>& grid,
                            const StepParams<Real>& params) {
  const index_t n = x.count;
  build_cell_index(exec, x, grid, /*carry_ids=*/false);

  MetricsResult r;
  const double mean_x = exec.sum(n, UnitHeading<Real>{x.sorted, false}) / n;
  const double mean_y = exec.sum(n, UnitHeading<Real>{x.sorted, true}) / n;
  r.polarization = square_root(mean_x * mean_x + mean_y * mean_y);

  const NearestNeighborDistance<Real> nearest{x.sorted, x.cell_start, grid, params, n};
  r.mean_nn_distance = n > 1 ? exec.sum(n, nearest) / n : 0.0;

  index_t* parent = x.keys;    // free: the cell starts are known
  index_t* members = x.order;  // free: the boids are reordered
  exec.for_each(n, InitializeParents{parent, members});
  exec.for_each(n, LinkNeighbors<Real>{x.sorted, x.cell_start, grid, params, parent});
  exec.for_each(n, FlattenParents{parent});
  exec.for_each(n, CountMembers{parent, members});
  r.flocks = exec.sum(n, IsRoot{parent});
  r.largest_flock = exec.maximum(members, n);
  return r;
}

}  // namespace boids::kernels
