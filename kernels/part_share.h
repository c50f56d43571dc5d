// A part's share of the whole flock's metrics (a rank's boids and ghosts under MPI), on the
// part's own data, one small functor per stage:
//   slots      each sorted boid's flags and index in the whole flock      (PartSlot)
//   sums       headings, velocities, neighbours of the own boids           (OwnOnly)
//   nearest    each own boid's nearest in the part, and whether no boid    (NearestInPart)
//              beyond the part's ghosts could be nearer
//   flocks     union-find over every pair closer than r, ghosts included,  (LinkNeighbors,
//              the own members counted at each root                         CountOwnMembers)
// A part holds, besides its own boids, every boid within the ghosts' reach of its slab, so
// each own boid's neighbours are all there, and so is every pair closer than r that joins an
// own boid to another part's. What a part cannot tell alone (a nearest boid farther than the
// ghosts reach, flocks that cross the slab's faces) it leaves to the host, named by the
// boids' indices in the whole flock (host/parts/joined_metrics.h joins the parts).
#pragma once

#include <cstdint>

#include "kernels/flock_metrics.h"

namespace boids::kernels {

// What a sorted boid of a part is (bits of its flags).
enum PartFlag : std::uint8_t {
  kOwnBoid = 1,      // the part's own, not a ghost
  kAtEdge = 2,       // own, within the ghosts' reach of the slab's faces: a ghost elsewhere
  kMayBeNearer = 4,  // own, and a boid no part holds here might be nearer than the nearest found
};

// The part's slab along `axis`: its own boids lie in [low, high) (a face that is a wall lies
// at infinity). An own boid within `edge` of a face may be a ghost of another part. A boid
// this part does not hold lies farther than `certain` beyond the faces (the radius: the
// ghosts reach a hundredth farther, for the rounding of positions).
struct PartSlab {
  int axis;
  double low, high;
  double edge;
  double certain;

  template <typename Real, int D>
  BOIDS_HD double to_face(const Boid<Real, D>& b) const {
    const double s = b.position[axis];
    return min_of(s - low, high - s);
  }
};

// The part's own arrays, as the measure reads and writes them. Part slot p of the backend's
// slot i is slots[i] (null: p = i); own[p] and whole[p] are its flag and whole-flock index.
struct PartArrays {
  const index_t* slots;
  const std::uint8_t* own;
  const index_t* whole;
  std::uint8_t* flags;    // by sorted slot: PartFlag bits
  index_t* whole_sorted;  // by sorted slot: the index in the whole flock
  double* nearest;        // by sorted slot: an own boid's nearest in the part (-1: none);
                          // null in host memory, where the far boids' are found again
};

template <typename Real, int D>
struct PartSlot {
  const Boid<Real, D>* sorted;
  const index_t* order;  // sorted slot -> backend slot
  PartArrays part;
  PartSlab slab;

  BOIDS_HD void operator()(index_t i) const {
    const index_t from = order[i];
    const index_t p = part.slots ? part.slots[from] : from;
    part.whole_sorted[i] = part.whole[p];
    std::uint8_t flags = 0;
    if (part.own[p]) {
      flags = kOwnBoid;
      if (!(slab.to_face(sorted[i]) > slab.edge)) flags |= kAtEdge;
    }
    part.flags[i] = flags;
  }
};

// The whole flock's index of each of a part's places [first, first + n): whole[slot] of the
// place's part slot (the hashed method's slot, or the place itself under the naive method,
// whose `slots` is null), into out[i], so that a piece of the part passes to the host without
// its whole index array.
struct WholeOfPlaces {
  const index_t* slots;
  const index_t* whole;
  index_t first;
  index_t* out;

  BOIDS_HD void operator()(index_t i) const {
    out[i] = whole[slots ? slots[first + i] : first + i];
  }
};

// value_of(i) for the own boids, 0 for the ghosts.
template <typename ValueOf>
struct OwnOnly {
  ValueOf value_of;
  const std::uint8_t* flags;
  BOIDS_HD double operator()(index_t i) const { return (flags[i] & kOwnBoid) ? value_of(i) : 0.0; }
};

// Each own boid's nearest distance in the part, and whether it is certain: a boid the part
// does not hold lies beyond the ghosts' reach, so at least the distance to the nearer face
// plus `certain` away. Returns what the boid adds to the certain distances' sum (the flag and,
// where part.nearest is not null, the distance written on the way), so that in host memory one
// pass flags and adds them and no array of distances is kept.
template <typename Real, int D>
struct NearestInPart {
  NearestNeighborDistance<Real, D, OneFlock<Real, D>> nearest;
  PartArrays part;
  PartSlab slab;
  index_t count;

  BOIDS_HD double distance(index_t i) const {
    return count > 1 ? nearest(i) : -1.0;  // a part of one boid finds none
  }
  BOIDS_HD double operator()(index_t i) const {
    if (!(part.flags[i] & kOwnBoid)) return 0.0;
    const double d = distance(i);
    if (part.nearest) part.nearest[i] = d;
    if (d >= 0 && d <= slab.to_face(nearest.sorted[i]) + slab.certain) return d;
    part.flags[i] |= kMayBeNearer;
    return 0.0;
  }
};

template <typename Real, int D>
NearestInPart<Real, D> nearest_in_part(const CellIndex<Real, D>& x, const CellGrid<Real, D>& grid,
                                       const StepParams<Real>& params, const PartArrays& part,
                                       const PartSlab& slab) {
  const OneFlock<Real, D> one{{0, x.count, 0, 0, grid, params}};
  return {{x.sorted, x.cell_start, one}, part, slab, x.count};
}

struct CertainNearest {
  PartArrays part;
  BOIDS_HD double operator()(index_t i) const {
    return (part.flags[i] & (kOwnBoid | kMayBeNearer)) == kOwnBoid ? part.nearest[i] : 0.0;
  }
};

struct CountsFlag {
  const std::uint8_t* flags;
  std::uint8_t flag;
  BOIDS_HD double operator()(index_t i) const { return (flags[i] & flag) ? 1.0 : 0.0; }
};

// Counts each component's own boids at its root; run once the parents are flat.
struct CountOwnMembers {
  const index_t* parent;
  index_t* members;
  const std::uint8_t* flags;
  BOIDS_HD void operator()(index_t i) const {
    if (flags[i] & kOwnBoid) atomic_increment(members + parent[i]);
  }
};

// The part's sums over its own boids.
struct PartSums {
  double own;
  double headings[3], velocities[3];
  double neighbors;
  double nearest;  // of the own boids whose nearest is certain
  double uncertain;
  double centre[6];  // CentreTerm's two sums per axis (kernels/milling.h)
};

// Measures a part on the cell index of its current positions (built here; the state is left
// as it is). On return part.flags, whole_sorted and nearest (where not null) are filled by
// sorted slot, and the
// index's keys hold each sorted boid's root (the least sorted slot of its component, which
// keeps it whatever order the links happen in) and its order the own members at each root.
template <typename Real, int D, typename Executor>
PartSums measure_part(Executor& exec, CellIndex<Real, D>& x, const CellGrid<Real, D>& grid,
                      const StepParams<Real>& params, const PartArrays& part,
                      const PartSlab& slab) {
  build_cell_index(exec, x, grid, /*carry_ids=*/false);
  const index_t n = x.count;
  exec.for_each(n, PartSlot<Real, D>{x.sorted, x.order, part, slab});
  const OneFlock<Real, D> one{{0, n, 0, 0, grid, params}};
  PartSums s{};
  s.own = exec.sum(n, CountsFlag{part.flags, kOwnBoid});
  for (int a = 0; a < D; ++a) {
    s.headings[a] = exec.sum(n, OwnOnly<UnitHeading<Real, D>>{{x.sorted, a}, part.flags});
    s.velocities[a] = exec.sum(n, OwnOnly<VelocityComponent<Real, D>>{{x.sorted, a}, part.flags});
  }
  const NearestInPart<Real, D> nearest = nearest_in_part(x, grid, params, part, slab);
  if constexpr (Executor::kHostMemory) {
    s.nearest = exec.sum(n, nearest);
  } else {  // a device's reduction need not call each term once: flagged first, then added
    exec.for_each(n, nearest);
    s.nearest = exec.sum(n, CertainNearest{part});
  }
  s.uncertain = exec.sum(n, CountsFlag{part.flags, kMayBeNearer});
  for (int a = 0; a < D; ++a) {
    for (int k = 0; k < 2; ++k) {
      s.centre[2 * a + k] = exec.sum(
          n, OwnOnly<CentreTerm<Real, D, OneFlock<Real, D>>>{{x.sorted, one, a, k}, part.flags});
    }
  }

  index_t* parent = x.keys;    // free: the cell starts are known
  index_t* members = x.order;  // free: PartSlot has read the permutation
  const SortedFlocks<Real, D, OneFlock<Real, D>> sorted{x.sorted, x.cell_start, one};
  exec.for_each(n, InitializeParents{parent});
  exec.for_each(n, LinkNeighbors<Real, D, OneFlock<Real, D>>{sorted, parent, members});
  s.neighbors = exec.sum(n, OwnOnly<NeighborCount>{{members}, part.flags});
  exec.for_each(n, FlattenParents{parent, members});
  exec.for_each(n, CountOwnMembers{parent, members, part.flags});
  return s;
}

// The part's own boids' sums of the cross products about the whole flock's `centre` (in the
// executor's memory), into out[c] (kernels/milling.h), on the index measure_part left: after
// it, before the part steps.
template <typename Real, int D, typename Executor>
void part_turning(Executor& exec, const CellIndex<Real, D>& x, const CellGrid<Real, D>& grid,
                  const StepParams<Real>& params, const std::uint8_t* flags, const double* centre,
                  double* out) {
  const OneFlock<Real, D> one{{0, x.count, 0, 0, grid, params}};
  for (int c = 0; c < kCrossComponents<D>; ++c) {
    out[c] = exec.sum(x.count, OwnOnly<MillingTerm<Real, D, OneFlock<Real, D>>>{
                                   {x.sorted, one, centre, c}, flags});
  }
}

}  // namespace boids::kernels
