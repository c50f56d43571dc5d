// The metrics on a backend's own data, one small functor per stage:
//   polarization   sums of the unit headings                   (UnitHeading)
//   order          sums of the velocities                      (VelocityComponent)
//   nearest        per-boid ring search over the cell grid     (NearestNeighborDistance)
//   neighbours     per-boid count within r                     (NeighborCount)
//   flocks         union-find over pairs closer than r         (LinkNeighbors, FlattenParents)
//                  then components sized and roots counted     (CountMembers, IsRoot)
// They run on the cell index of the current positions (kernels/cell_index.h), and keep the
// union-find in the index's key and order arrays, free once the boids are reordered: the
// metrics need no memory of their own. The same passes measure one flock or every flock of a
// batch at once (kernels/flock_set.h): each boid looks only at its own flock's cells, and the
// sums add per flock.
#pragma once

#include <vector>

#include "kernels/atomics.h"
#include "kernels/cell_index.h"
#include "kernels/flock_set.h"

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

// One component of a boid's velocity, in double.
template <typename Real>
struct VelocityComponent {
  const Boid<Real>* boids;
  bool y_axis;

  BOIDS_HD double operator()(index_t i) const {
    return static_cast<double>(y_axis ? boids[i].vy : boids[i].vx);
  }
};

// The squared distance between two boids: across the torus's edges, or plain between walls.
template <typename Real>
BOIDS_HD inline Real distance_sq(const Boid<Real>& a, const Boid<Real>& b,
                                 const StepParams<Real>& p) {
  Real dx, dy;
  offset_between(a.x, a.y, b.x, b.y, p, dx, dy);
  return dx * dx + dy * dy;
}

// Searches square rings of cells outwards from the boid's cell; once the nearest boid found
// is within `ring` cell widths, no unseen boid can be nearer. On a torus, when the rings would
// wrap onto themselves, every boid of the flock is checked; between walls, cells beyond them
// are skipped.
template <typename Real, typename Flocks>
struct NearestNeighborDistance {
  const Boid<Real>* sorted;
  const index_t* cell_start;
  Flocks flocks;

  // The distance from sorted boid i to its nearest other boid; 0 for a lone boid.
  BOIDS_HD double operator()(index_t i) const {
    const FlockPlace<Real>& flock = flocks.of_slot(i);
    const CellGrid<Real>& grid = flock.grid;
    const index_t* starts = cell_start + flock.key_base;
    const Boid<Real> self = sorted[i];
    const int columns = static_cast<int>(grid.columns), rows = static_cast<int>(grid.rows);
    const int cx = static_cast<int>(grid.column(self.x));
    const int cy = static_cast<int>(grid.row(self.y));
    const Real cell_width = flock.params.width / static_cast<Real>(grid.columns);
    const Real cell_height = flock.params.height / static_cast<Real>(grid.rows);
    const Real unit = cell_width < cell_height ? cell_width : cell_height;
    // The last ring that does not wrap onto itself; between walls, one that covers the grid.
    const int rings = grid.wraps ? (min_of(columns, rows) - 1) / 2 : max_of(columns, rows);
    Real best = Real(-1);
    bool found = false;
    for (int ring = 0; ring <= rings && !found; ++ring) {
      for (int oy = -ring; oy <= ring; ++oy) {
        const bool edge_row = oy == -ring || oy == ring;
        const int step = edge_row ? 1 : 2 * ring;
        for (int ox = -ring; ox <= ring; ox += step > 0 ? step : 1) {
          int gx = cx + ox, gy = cy + oy;
          if (grid.wraps) {
            gx = (gx + columns) % columns;
            gy = (gy + rows) % rows;
          } else if (gx < 0 || gy < 0 || gx >= columns || gy >= rows) {
            continue;
          }
          const auto cell = static_cast<index_t>(gy * columns + gx);
          scan(i, self, starts[cell], starts[cell + 1], flock.params, best);
        }
      }
      const Real reach = static_cast<Real>(ring) * unit;
      found = best >= Real(0) && best <= reach * reach;
    }
    if (!found) scan(i, self, flock.first, flock.first + flock.count, flock.params, best);
    return best >= Real(0) ? square_root(static_cast<double>(best)) : 0.0;
  }

  BOIDS_HD void scan(index_t i, const Boid<Real>& self, index_t begin, index_t end,
                     const StepParams<Real>& params, Real& best) const {
    for (index_t k = begin; k < end; ++k) {
      if (k == i) continue;
      const Real d2 = distance_sq(self, sorted[k], params);
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

// The sorted boids and their cell index, as the metrics read them.
template <typename Real, typename Flocks>
struct SortedFlocks {
  const Boid<Real>* sorted;
  const index_t* cell_start;
  Flocks flocks;

  // Calls `body(k)` for every sorted boid k closer than r to sorted boid i, i itself included.
  template <typename Body>
  BOIDS_HD void for_each_within_radius(index_t i, Body&& body) const {
    const FlockPlace<Real>& flock = flocks.of_slot(i);
    const index_t* starts = cell_start + flock.key_base;
    const Boid<Real> self = sorted[i];
    flock.grid.for_each_block_run(
        flock.grid.column(self.x), flock.grid.row(self.y),
        [&](index_t first_key, index_t last_key) {
          const index_t end = starts[last_key + 1];
          for (index_t k = starts[first_key]; k < end; ++k) {
            if (distance_sq(self, sorted[k], flock.params) < flock.params.radius_sq) body(k);
          }
        });
  }
};

// Joins each boid's flock with those of its neighbours.
template <typename Real, typename Flocks>
struct LinkNeighbors {
  SortedFlocks<Real, Flocks> flocks;
  index_t* parent;

  BOIDS_HD void operator()(index_t i) const {
    flocks.for_each_within_radius(i, [&](index_t k) {
      if (k > i) link(parent, i, k);
    });
  }
};

// The number of other boids closer than r.
template <typename Real, typename Flocks>
struct NeighborCount {
  SortedFlocks<Real, Flocks> flocks;

  BOIDS_HD double operator()(index_t i) const {
    double neighbours = 0;
    flocks.for_each_within_radius(i, [&](index_t k) { neighbours += k != i ? 1 : 0; });
    return neighbours;
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
  double order;  // |sum of velocities| / (n v_max)
  double flocks;
  index_t largest_flock;
  double mean_nn_distance;
  double mean_neighbors;
};

// Sums of value_of(i) per flock, into out[f]: the executor's sum for one flock; for a batch,
// its segmented sum over the flocks' slots, with
//   exec.segmented_sum(starts, segments, value_of, out): out[s] the sum over
//   [starts[s], starts[s + 1]), each added as exec.sum adds a flock of its own
//   exec.segmented_maximum(values, starts, segments, out): out[s] the maximum likewise
template <typename Real, typename Executor, typename ValueOf>
void sum_per_flock(Executor& exec, const OneFlock<Real>& one, const ValueOf& value_of,
                   double* out) {
  out[0] = exec.sum(one.place.count, value_of);
}
template <typename Real, typename Executor, typename ValueOf>
void sum_per_flock(Executor& exec, const BatchFlocks<Real>& batch, const ValueOf& value_of,
                   double* out) {
  exec.segmented_sum(batch.slot_start, batch.count, value_of, out);
}
template <typename Real, typename Executor>
void maximum_per_flock(Executor& exec, const OneFlock<Real>& one, const index_t* values,
                       index_t* out) {
  out[0] = exec.maximum(values, one.place.count);
}
template <typename Real, typename Executor>
void maximum_per_flock(Executor& exec, const BatchFlocks<Real>& batch, const index_t* values,
                       index_t* out) {
  exec.segmented_maximum(values, batch.slot_start, batch.count, out);
}

// Measures every flock of `flocks` on the cell index of their current positions (built by the
// caller; the state and the ids are left as they are). `places` is the host's copy of the
// flocks' places; out[f] receives flock f's metrics. `Executor` also sums and takes maxima:
//   exec.sum(count, value_of) -> double: the sum of value_of(i), the same on every run
//   exec.maximum(values, count) -> index_t
template <typename Real, typename Flocks, typename Executor>
void measure_flocks(Executor& exec, CellIndex<Real>& x, const Flocks& flocks,
                    const FlockPlace<Real>* places, index_t flock_count, MetricsResult* out) {
  const index_t n = x.count;
  std::vector<double> sums(6 * static_cast<std::size_t>(flock_count));
  double* headings_x = sums.data();
  double* headings_y = headings_x + flock_count;
  double* velocities_x = headings_y + flock_count;
  double* velocities_y = velocities_x + flock_count;
  double* neighbours = velocities_y + flock_count;
  double* nearest = neighbours + flock_count;
  sum_per_flock(exec, flocks, UnitHeading<Real>{x.sorted, false}, headings_x);
  sum_per_flock(exec, flocks, UnitHeading<Real>{x.sorted, true}, headings_y);
  sum_per_flock(exec, flocks, VelocityComponent<Real>{x.sorted, false}, velocities_x);
  sum_per_flock(exec, flocks, VelocityComponent<Real>{x.sorted, true}, velocities_y);
  const SortedFlocks<Real, Flocks> sorted{x.sorted, x.cell_start, flocks};
  sum_per_flock(exec, flocks, NeighborCount<Real, Flocks>{sorted}, neighbours);
  sum_per_flock(exec, flocks, NearestNeighborDistance<Real, Flocks>{x.sorted, x.cell_start, flocks},
                nearest);

  index_t* parent = x.keys;    // free: the cell starts are known
  index_t* members = x.order;  // free: the boids are reordered
  exec.for_each(n, InitializeParents{parent, members});
  exec.for_each(n, LinkNeighbors<Real, Flocks>{sorted, parent});
  exec.for_each(n, FlattenParents{parent});
  exec.for_each(n, CountMembers{parent, members});
  std::vector<double> roots(flock_count);
  std::vector<index_t> largest(flock_count);
  sum_per_flock(exec, flocks, IsRoot{parent}, roots.data());
  maximum_per_flock(exec, flocks, members, largest.data());

  for (index_t f = 0; f < flock_count; ++f) {
    const double count = places[f].count;
    MetricsResult& r = out[f];
    const double mean_x = headings_x[f] / count, mean_y = headings_y[f] / count;
    r.polarization = square_root(mean_x * mean_x + mean_y * mean_y);
    r.order = square_root(velocities_x[f] * velocities_x[f] + velocities_y[f] * velocities_y[f]) /
              (count * static_cast<double>(places[f].params.max_speed));
    r.mean_neighbors = neighbours[f] / count;
    r.mean_nn_distance = places[f].count > 1 ? nearest[f] / count : 0.0;
    r.flocks = roots[f];
    r.largest_flock = largest[f];
  }
}

// Builds the cell index of one flock's current positions and measures it.
template <typename Real, typename Executor>
MetricsResult measure_flock(Executor& exec, CellIndex<Real>& x, const CellGrid<Real>& grid,
                            const StepParams<Real>& params) {
  build_cell_index(exec, x, grid, /*carry_ids=*/false);
  const OneFlock<Real> one{{0, x.count, 0, 0, grid, params}};
  MetricsResult r;
  measure_flocks(exec, x, one, &one.place, 1, &r);
  return r;
}

}  // namespace boids::kernels
