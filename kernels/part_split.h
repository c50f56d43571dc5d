// A part's split and merge where its arrays live (a GPU rank's part: host/backends/part_passes.h),
// one small functor per stage, so that only the boids that change hands or serve as ghosts
// pass through the host:
//   keep     place i holds an own boid inside the bounds            (KeptInside)
//   edge     place i holds an own boid at the edge, or outside       (AtPartEdge), counted
//            first (OneWhere) for the room they take
//   pack     the selected places' boids and whole-flock indices,     (PackSelected)
//            in place order, to the front of other arrays: the executor's select() gives each
//            its rank among the selected
//   flags    an appended part's own flags: its first `owns` slots     (OwnBefore)
//   merge    the kept boids, the arrivals and the ghosts to their     (MergeList)
//            places in one list ascending by whole-flock index: each entry's place is its
//            index in its own list plus the entries of the other two below it, found by binary
//            search, so no pass is serial
// The tests of the bounds are the host split's own, in double, so a part splits alike on every
// executor.
#pragma once

#include <cstdint>

#include "kernels/rules.h"

namespace boids::kernels {

// Where a part's own boids belong (host PartBounds): along `axis`, in [low, high); an own boid
// within `reach` of either end, or outside them, is at the edge.
struct SplitBounds {
  int axis;
  double low, high, reach;
};

// A part's places: slot i holds the boid of part slot slots[i] (null: i), whose own flag and
// whole-flock index are own[p] and whole[p].
template <typename Real, int D>
struct PartPlaces {
  const Boid<Real, D>* boids;
  const index_t* slots;
  const std::uint8_t* own;
  const index_t* whole;

  BOIDS_HD index_t slot(index_t i) const { return slots ? slots[i] : i; }
  BOIDS_HD double along(index_t i, int axis) const { return boids[i].position[axis]; }
};

template <typename Real, int D>
struct KeptInside {
  PartPlaces<Real, D> part;
  SplitBounds bounds;

  BOIDS_HD bool operator()(index_t i) const {
    if (!part.own[part.slot(i)]) return false;
    const double s = part.along(i, bounds.axis);
    return s >= bounds.low && s < bounds.high;
  }
};

template <typename Real, int D>
struct AtPartEdge {
  PartPlaces<Real, D> part;
  SplitBounds bounds;

  BOIDS_HD bool operator()(index_t i) const {
    if (!part.own[part.slot(i)]) return false;
    const double s = part.along(i, bounds.axis);
    return !(s - bounds.low > bounds.reach && bounds.high - s > bounds.reach);
  }
};

// The place i selected `rank`-th: its boid and whole-flock index to boids[rank], whole[rank].
template <typename Real, int D>
struct PackSelected {
  PartPlaces<Real, D> part;
  Boid<Real, D>* boids;
  index_t* whole;

  BOIDS_HD void operator()(index_t rank, index_t i) const {
    boids[rank] = part.boids[i];
    whole[rank] = part.whole[part.slot(i)];
  }
};

// 1 where `test` holds, else 0: a count as the executor's sum() takes it.
template <typename Test>
struct OneWhere {
  Test test;
  BOIDS_HD double operator()(index_t i) const { return test(i) ? 1.0 : 0.0; }
};

// An array's first entries copied to another (a part's arrays grown).
template <typename T>
struct CopyEach {
  const T* from;
  T* to;
  BOIDS_HD void operator()(index_t i) const { to[i] = from[i]; }
};

struct OwnBefore {
  std::uint8_t* own;
  index_t owns;
  BOIDS_HD void operator()(index_t i) const { own[i] = i < owns ? 1 : 0; }
};

// How many of ids[0, n), ascending, are below `id`.
BOIDS_HD inline index_t count_below(const index_t* ids, index_t n, index_t id) {
  index_t low = 0, high = n;
  while (low < high) {
    const index_t middle = low + (high - low) / 2;
    if (ids[middle] < id) {
      low = middle + 1;
    } else {
      high = middle;
    }
  }
  return low;
}

// One of a merge's three lists (each ascending by whole-flock index, no index in two): its
// entry k goes to place k + the entries of the other two lists below its index.
template <typename Real, int D>
struct MergeList {
  const Boid<Real, D>* boids;
  const index_t* whole;
  const index_t* other_whole[2];
  index_t other_count[2];
  std::uint8_t own;  // the flag of this list's boids
  Boid<Real, D>* out_boids;
  index_t* out_whole;
  std::uint8_t* out_own;

  BOIDS_HD void operator()(index_t k) const {
    const index_t id = whole[k];
    const index_t at = k + count_below(other_whole[0], other_count[0], id) +
                       count_below(other_whole[1], other_count[1], id);
    out_boids[at] = boids[k];
    out_whole[at] = id;
    out_own[at] = own;
  }
};

}  // namespace boids::kernels
