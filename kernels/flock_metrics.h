// The metrics on a backend's own data, one small functor per stage:
//   polarization   sums of the unit headings                   (UnitHeading)
//   order          sums of the velocities                      (VelocityComponent)
//   nearest        per-boid ring search over the cell grid     (NearestNeighborDistance)
//   flocks         union-find over pairs closer than r         (LinkNeighbors, FlattenParents)
//                  then components sized and roots counted     (CountMembers, IsRoot)
//   neighbours     per-boid count within r, by the same walk   (LinkNeighbors, NeighborCount)
//   milling        the centre, then the turning about it       (kernels/milling.h)
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
#include "kernels/milling.h"
#include "kernels/open_table.h"

namespace boids::kernels {

// One axis of a boid's unit heading, in double; a boid at rest adds nothing.
template <typename Real, int D>
struct UnitHeading {
  const Boid<Real, D>* boids;
  int axis;

  BOIDS_HD double operator()(index_t i) const {
    double v[D];
    for (int a = 0; a < D; ++a) v[a] = boids[i].velocity[a];
    const double speed = square_root(length_sq(v));
    if (!(speed > 0)) return 0.0;
    return v[axis] / speed;
  }
};

// One component of a boid's velocity, in double.
template <typename Real, int D>
struct VelocityComponent {
  const Boid<Real, D>* boids;
  int axis;

  BOIDS_HD double operator()(index_t i) const {
    return static_cast<double>(boids[i].velocity[axis]);
  }
};

// The squared distance between two boids: across the torus's edges, or plain between walls.
template <typename Real, int D>
BOIDS_HD inline Real distance_sq(const Boid<Real, D>& a, const Boid<Real, D>& b,
                                 const StepParams<Real>& p) {
  Real d[D];
  offset_between(a.position, b.position, p, d);
  return length_sq(d);
}

// Searches shells of cells outwards from the boid's cell (square rings in 2D, cube shells in
// 3D); once the nearest boid found is within `ring` cell widths, no unseen boid can be nearer.
// The first two, the block of cells around the boid's, are read as the step reads them, in a
// few runs of keys: most boids find their nearest there.
// On a torus, when the shells would wrap onto themselves, every boid of the flock is checked;
// between walls, cells beyond them are skipped. In open space the shells' cells are found
// through the table (a cell's key may come twice, which a minimum does not mind), and a boid
// with no other within kOpenRings cells checks every boid.
inline constexpr int kOpenRings = 8;
template <typename Real, int D, typename Flocks>
struct NearestNeighborDistance {
  const Boid<Real, D>* sorted;
  const index_t* cell_start;
  Flocks flocks;

  // The distance from sorted boid i to its nearest other boid; 0 for a lone boid.
  BOIDS_HD double operator()(index_t i) const {
    const FlockPlace<Real, D>& flock = flocks.of_slot(i);
    const CellGrid<Real, D>& grid = flock.grid;
    const index_t* starts = cell_start + flock.key_base;
    const Boid<Real, D> self = sorted[i];
    int counts[3] = {1, 1, 1}, at[3] = {0, 0, 0};
    std::int64_t open_at[D];  // the boid's cell of open space
    // A cell's width along each axis (a window's rows are the world's, fewer of them).
    const auto width = [&](int a) {
      return grid.open || (grid.window && a == D - 1)
                 ? Real(1) / grid.per_unit[a]
                 : flock.params.side[a] / static_cast<Real>(grid.counts[a]);
    };
    Real unit = width(0);
    int fewest = static_cast<int>(grid.counts[0]), most = fewest;
    for (int a = 0; a < D; ++a) {
      counts[a] = static_cast<int>(grid.counts[a]);
      if (grid.open) {
        open_at[a] = open_cell(self.position[a], grid.per_unit[a]);
      } else {
        at[a] = static_cast<int>(grid.cell(a, self.position[a]));
      }
      unit = min_of(unit, width(a));
      fewest = min_of(fewest, counts[a]);
      most = max_of(most, counts[a]);
    }
    // The last shell that does not wrap onto itself; between walls, one that covers the grid.
    const int rings = grid.open ? kOpenRings : grid.wraps && !grid.window ? (fewest - 1) / 2 : most;
    Real best = Real(-1);
    bool found = false;
    int ring = 0;
    if (rings >= 1) {  // the first two shells, the block around the cell, as the step's runs
      grid.for_each_block_run(self.position, [&](index_t first_key, index_t last_key) {
        scan(i, self, starts[first_key], starts[last_key + 1], flock.params, best);
      });
      found = best >= Real(0) && best <= unit * unit;
      ring = 2;
    }
    for (; ring <= rings && !found; ++ring) {
      const int depth = D == 3 ? ring : 0;
      for (int oz = -depth; oz <= depth; ++oz) {
        for (int oy = -ring; oy <= ring; ++oy) {
          const bool face = oy == -ring || oy == ring || (D == 3 && (oz == -ring || oz == ring));
          const int step = face ? 1 : 2 * ring;
          for (int ox = -ring; ox <= ring; ox += step > 0 ? step : 1) {
            const int offset[3] = {ox, oy, oz};
            if (grid.open) {
              std::int64_t c[D];
              for (int a = 0; a < D; ++a) c[a] = open_at[a] + offset[a];
              const index_t key = grid.open_key(c);
              scan(i, self, starts[key], starts[key + 1], flock.params, best);
              continue;
            }
            int cell = 0;
            bool inside = true;
            for (int a = D - 1; a >= 0; --a) {
              int c = at[a] + offset[a];
              if (grid.wraps_along(a)) {  // divided only at the edges: a division is slow
                if (c < 0 || c >= counts[a]) c = (c % counts[a] + counts[a]) % counts[a];
              } else {
                inside = inside && c >= 0 && c < counts[a];
              }
              cell = cell * counts[a] + c;
            }
            if (!inside) continue;
            const auto key = static_cast<index_t>(cell);
            scan(i, self, starts[key], starts[key + 1], flock.params, best);
          }
        }
      }
      const Real reach = static_cast<Real>(ring) * unit;
      found = best >= Real(0) && best <= reach * reach;
    }
    if (!found) scan(i, self, flock.first, flock.first + flock.count, flock.params, best);
    return best >= Real(0) ? square_root(static_cast<double>(best)) : 0.0;
  }

  BOIDS_HD void scan(index_t i, const Boid<Real, D>& self, index_t begin, index_t end,
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
  BOIDS_HD void operator()(index_t i) const { parent[i] = i; }
};

// The sorted boids and their cell index, as the metrics read them.
template <typename Real, int D, typename Flocks>
struct SortedFlocks {
  const Boid<Real, D>* sorted;
  const index_t* cell_start;
  Flocks flocks;

  // Calls `body(k)` for every sorted boid k closer than r to sorted boid i, i itself included.
  template <typename Body>
  BOIDS_HD void for_each_within_radius(index_t i, Body&& body) const {
    const FlockPlace<Real, D>& flock = flocks.of_slot(i);
    const index_t* starts = cell_start + flock.key_base;
    const Boid<Real, D> self = sorted[i];
    flock.grid.for_each_block_run(self.position, [&](index_t first_key, index_t last_key) {
      const index_t end = starts[last_key + 1];
      for (index_t k = starts[first_key]; k < end; ++k) {
        if (distance_sq(self, sorted[k], flock.params) < flock.params.radius_sq) body(k);
      }
    });
  }
};

// Joins each boid's flock with those of its neighbours, and writes how many other boids lie
// closer than r in `neighbors` (summed next, by NeighborCount): the walk over the cells around
// a boid, the measure's costliest, is taken once for both.
template <typename Real, int D, typename Flocks>
struct LinkNeighbors {
  SortedFlocks<Real, D, Flocks> flocks;
  index_t* parent;
  index_t* neighbors;

  BOIDS_HD void operator()(index_t i) const {
    index_t count = 0;
    flocks.for_each_within_radius(i, [&](index_t k) {
      if (k > i) link(parent, i, k);
      count += k != i ? 1 : 0;
    });
    neighbors[i] = count;
  }
};

// The number of other boids closer than r, as LinkNeighbors counted it.
struct NeighborCount {
  const index_t* neighbors;
  BOIDS_HD double operator()(index_t i) const { return static_cast<double>(neighbors[i]); }
};

// Points every boid straight at its root. Other threads read the same entries meanwhile (a
// root's entry never changes here, and any entry they read leads to the same root), so the
// writes are atomic too. The neighbours' counts, summed by now, are cleared in `members`,
// which CountMembers fills next.
struct FlattenParents {
  index_t* parent;
  index_t* members;
  BOIDS_HD void operator()(index_t i) const {
    atomic_store(parent + i, find_root(parent, i));
    members[i] = 0;
  }
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
  double milling;
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
template <typename Real, int D, typename Executor, typename ValueOf>
void sum_per_flock(Executor& exec, const OneFlock<Real, D>& one, const ValueOf& value_of,
                   double* out) {
  out[0] = exec.sum(one.place.count, value_of);
}
template <typename Real, int D, typename Executor, typename ValueOf>
void sum_per_flock(Executor& exec, const BatchFlocks<Real, D>& batch, const ValueOf& value_of,
                   double* out) {
  exec.segmented_sum(batch.slot_start, batch.count, value_of, out);
}
template <typename Real, int D, typename Executor>
void maximum_per_flock(Executor& exec, const OneFlock<Real, D>& one, const index_t* values,
                       index_t* out) {
  out[0] = exec.maximum(values, one.place.count);
}
template <typename Real, int D, typename Executor>
void maximum_per_flock(Executor& exec, const BatchFlocks<Real, D>& batch, const index_t* values,
                       index_t* out) {
  exec.segmented_maximum(values, batch.slot_start, batch.count, out);
}

// Each flock's milling (kernels/milling.h) into out[f]: its centre from CentreTerm's sums,
// sent to the executor's memory, then the sums of the cross products about it.
template <typename Real, int D, typename Flocks, typename Executor>
void measure_milling(Executor& exec, const Boid<Real, D>* boids, const Flocks& flocks,
                     const FlockPlace<Real, D>* places, index_t flock_count, double* out) {
  const std::size_t fc = flock_count;
  std::vector<double> sums(2 * D * fc);
  for (int a = 0; a < D; ++a) {
    for (int part = 0; part < 2; ++part) {
      sum_per_flock(exec, flocks, CentreTerm<Real, D, Flocks>{boids, flocks, a, part},
                    sums.data() + (2 * a + part) * fc);
    }
  }
  std::vector<double> centres(D * fc);
  for (std::size_t f = 0; f < fc; ++f) {
    for (int a = 0; a < D; ++a) {
      centres[D * f + a] = centre_from(sums[2 * a * fc + f], sums[(2 * a + 1) * fc + f],
                                       static_cast<double>(places[f].count), a, places[f].params);
    }
  }
  typename Executor::template Buffer<double> there(D * fc);
  exec.upload(there.data(), centres.data(), D * fc);
  constexpr int kCross = kCrossComponents<D>;
  std::vector<double> turning(kCross * fc);
  for (int c = 0; c < kCross; ++c) {
    sum_per_flock(exec, flocks, MillingTerm<Real, D, Flocks>{boids, flocks, there.data(), c},
                  turning.data() + c * fc);
  }
  for (std::size_t f = 0; f < fc; ++f) {
    const double count = places[f].count;
    double sq = 0;
    for (int c = 0; c < kCross; ++c)
      sq += (turning[c * fc + f] / count) * (turning[c * fc + f] / count);
    out[f] = count > 0 ? square_root(sq) : 0.0;
  }
}

// Measures every flock of `flocks` on the cell index of their current positions (built by the
// caller; the state and the ids are left as they are). `places` is the host's copy of the
// flocks' places; out[f] receives flock f's metrics. `Executor` also sums and takes maxima:
//   exec.sum(count, value_of) -> double: the sum of value_of(i), the same on every run
//   exec.maximum(values, count) -> index_t
template <typename Real, int D, typename Flocks, typename Executor>
void measure_flocks(Executor& exec, CellIndex<Real, D>& x, const Flocks& flocks,
                    const FlockPlace<Real, D>* places, index_t flock_count, MetricsResult* out) {
  const index_t n = x.count;
  const std::size_t flocks_count = flock_count;
  // Per flock: D sums of unit headings, D of velocities, the neighbours and the nearest.
  std::vector<double> sums((2 * D + 2) * flocks_count);
  double* headings = sums.data();
  double* velocities = headings + D * flocks_count;
  double* neighbors = velocities + D * flocks_count;
  double* nearest = neighbors + flocks_count;
  for (int a = 0; a < D; ++a) {
    sum_per_flock(exec, flocks, UnitHeading<Real, D>{x.sorted, a}, headings + a * flocks_count);
    sum_per_flock(exec, flocks, VelocityComponent<Real, D>{x.sorted, a},
                  velocities + a * flocks_count);
  }
  sum_per_flock(exec, flocks,
                NearestNeighborDistance<Real, D, Flocks>{x.sorted, x.cell_start, flocks}, nearest);

  index_t* parent = x.keys;    // free: the cell starts are known
  index_t* members = x.order;  // free: the boids are reordered
  const SortedFlocks<Real, D, Flocks> sorted{x.sorted, x.cell_start, flocks};
  exec.for_each(n, InitializeParents{parent});
  exec.for_each(n, LinkNeighbors<Real, D, Flocks>{sorted, parent, members});
  sum_per_flock(exec, flocks, NeighborCount{members}, neighbors);
  exec.for_each(n, FlattenParents{parent, members});
  exec.for_each(n, CountMembers{parent, members});
  std::vector<double> roots(flock_count);
  std::vector<index_t> largest(flock_count);
  sum_per_flock(exec, flocks, IsRoot{parent}, roots.data());
  maximum_per_flock(exec, flocks, members, largest.data());
  std::vector<double> milling(flock_count);
  measure_milling(exec, x.sorted, flocks, places, flock_count, milling.data());

  for (index_t f = 0; f < flock_count; ++f) {
    const double count = places[f].count;
    double mean[D], total[D];
    for (int a = 0; a < D; ++a) {
      mean[a] = headings[a * flocks_count + f] / count;
      total[a] = velocities[a * flocks_count + f];
    }
    MetricsResult& r = out[f];
    r.polarization = square_root(length_sq(mean));
    r.milling = milling[f];
    r.order =
        square_root(length_sq(total)) / (count * static_cast<double>(places[f].params.max_speed));
    // Under topological neighbours a boid heeds its K nearest, whatever the radius holds.
    const int heeded = places[f].params.nearest;
    r.mean_neighbors =
        heeded > 0 ? min_of(static_cast<double>(heeded), count - 1) : neighbors[f] / count;
    r.mean_nn_distance = places[f].count > 1 ? nearest[f] / count : 0.0;
    r.flocks = roots[f];
    r.largest_flock = largest[f];
  }
}

// Builds the cell index of one flock's current positions and measures it.
template <typename Real, int D, typename Executor>
MetricsResult measure_flock(Executor& exec, CellIndex<Real, D>& x, const CellGrid<Real, D>& grid,
                            const StepParams<Real>& params) {
  build_cell_index(exec, x, grid, /*carry_ids=*/false);
  const OneFlock<Real, D> one{{0, x.count, 0, 0, grid, params}};
  MetricsResult r;
  measure_flocks(exec, x, one, &one.place, 1, &r);
  return r;
}

}  // namespace boids::kernels
