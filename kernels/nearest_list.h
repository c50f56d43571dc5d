// The K nearest candidates of topological neighbours (--nearest K; kernels/nearest_step.h): the
// list a boid keeps, nearest first by (d^2, input index), and the ways candidates are offered
// to it, through which every method and executor measures its distances alike.
#pragma once

#include "kernels/advance.h"

namespace boids::kernels {

// The most neighbours a boid can heed: --nearest K takes K in [1, kMostNearest].
inline constexpr int kMostNearest = 32;

// The `wanted` nearest candidates offered so far, nearest first by (d^2, input index): ties
// go to the lower index.
template <typename Real>
struct NearestList {
  Real d2[kMostNearest];
  index_t id[kMostNearest];    // input index
  index_t slot[kMostNearest];  // where the candidate lies in the array it was offered from
  int wanted;
  int count = 0;

  BOIDS_HD static bool before(Real a2, index_t a, Real b2, index_t b) {
    return a2 < b2 || (a2 == b2 && a < b);
  }
  BOIDS_HD bool full() const { return count == wanted; }
  BOIDS_HD Real farthest_sq() const { return d2[count - 1]; }

  // Keeps the candidate if it is among the nearest so far: an insertion into a short list.
  BOIDS_HD void offer(Real dist2, index_t candidate, index_t at) {
    if (full() && !before(dist2, candidate, d2[count - 1], id[count - 1])) return;
    int k = full() ? count - 1 : count++;
    for (; k > 0 && before(dist2, candidate, d2[k - 1], id[k - 1]); --k) {
      d2[k] = d2[k - 1];
      id[k] = id[k - 1];
      slot[k] = slot[k - 1];
    }
    d2[k] = dist2;
    id[k] = candidate;
    slot[k] = at;
  }

  // Puts the list in ascending input index (distances no longer kept): the order in which the
  // sums add.
  BOIDS_HD void sort_by_id() { sort_pairs(id, slot, count); }
};

// The largest finite value: a distance no boid lies at, and a radius beyond any distance.
template <typename Real>
BOIDS_HD BOIDS_INLINE constexpr Real beyond_any() {
  return Real(sizeof(Real) == 4 ? 3.4028234663852886e38 : 1.7976931348623157e308);
}

// The squared distance from `self` to `other` if the boid sees it, else beyond_any(). The offset
// is the metric step's (accumulate_neighbor), so the distances are its own. A select, so that
// loops over candidates vectorise.
template <bool Wraps, bool LimitedView, typename Real, int D>
BOIDS_HD BOIDS_INLINE Real seen_distance_sq(const Boid<Real, D>& self, const Boid<Real, D>& other,
                                            const StepParams<Real>& p) {
  Real d[D];
  for (int a = 0; a < D; ++a) {
    const Real delta = other.position[a] - self.position[a];
    d[a] = Wraps ? wrap_axis(delta, a, p) : delta;
  }
  const Real d2 = length_sq(d);
  if constexpr (LimitedView) {
    return in_view(d, d2, self.velocity, p) ? d2 : beyond_any<Real>();
  } else {
    return d2;
  }
}

// The candidate at slot j, `dist2` from the boid at `self_slot`, to the list where the boid sees
// it and it is another.
template <typename Real>
BOIDS_HD BOIDS_INLINE void offer_at(NearestList<Real>& list, Real dist2, index_t self_slot,
                                    const index_t* ids, index_t j) {
  if (dist2 < beyond_any<Real>() && j != self_slot)
    list.offer(dist2, ids != nullptr ? ids[j] : j, j);
}

// Offers boid `self` (at slot `self_slot`) the candidates at slots [first, end) of `boids`, ids
// from `ids` (null: the slot is the id). On CPU threads in chunks: the chunk's distances in a
// loop that vectorises, then the list takes those not beyond its K-th so far (all of them until
// it is full), one at a time. Every method offers through here, so their distances agree.
template <bool Wraps, bool LimitedView, typename Real, int D>
BOIDS_HD void offer_run(NearestList<Real>& list, const Boid<Real, D>& self, index_t self_slot,
                        const Boid<Real, D>* boids, const index_t* ids, index_t first, index_t end,
                        const StepParams<Real>& p) {
#if defined(__CUDA_ARCH__)
  constexpr index_t kChunk = 1;
#else
  constexpr index_t kChunk = 16;
#endif
  for (index_t base = first; base < end; base += kChunk) {
    const index_t last = min_of(base + kChunk, end) - 1;
    Real d2[kChunk];
#if !defined(__CUDA_ARCH__)
#pragma omp simd
#endif
    for (index_t c = 0; c < kChunk; ++c) {
      d2[c] = seen_distance_sq<Wraps, LimitedView>(self, boids[min_of(base + c, last)], p);
    }
    const Real limit = list.full() ? list.farthest_sq() : beyond_any<Real>();
    for (index_t j = base; j <= last; ++j) {
      if (d2[j - base] <= limit) offer_at(list, d2[j - base], self_slot, ids, j);
    }
  }
}

// offer_run of the one candidate at slot j.
template <bool Wraps, bool LimitedView, typename Real, int D>
BOIDS_HD BOIDS_INLINE void offer_one(NearestList<Real>& list, const Boid<Real, D>& self,
                                     index_t self_slot, const Boid<Real, D>* boids,
                                     const index_t* ids, index_t j, const StepParams<Real>& p) {
  const Real dist2 = seen_distance_sq<Wraps, LimitedView>(self, boids[j], p);
  if (!list.full() || dist2 <= list.farthest_sq()) offer_at(list, dist2, self_slot, ids, j);
}

}  // namespace boids::kernels
