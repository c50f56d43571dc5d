// The naive all-pairs step: every boid gathers from every other boid in ascending index
// order, the order in which the reference adds them. Boids keep input order, so a boid's index
// is its id (which keys its noise).
#pragma once

#include "kernels/advance.h"
#include "kernels/stages.h"

namespace boids::kernels {

// Steps `Lanes` consecutive boids (one block) against all candidates. On CPU threads the lane
// loop vectorises across boids, so each boid still adds its neighbours one by one in index
// order. (On a GPU the cuda backend runs the shared-memory tiled kernel with one lane.)
template <typename Model, typename Real, int Lanes, int D>
struct NaiveStepBlock {
  static constexpr const char* kStage = stage::kStep;
  using Sums = typename Model::template Sums<Real, Lanes, D>;

  const Boid<Real, D>* in;
  Boid<Real, D>* out;
  index_t count;
  StepParams<Real> params;

  static index_t blocks_for(index_t count) { return (count + Lanes - 1) / Lanes; }

  BOIDS_HD void operator()(index_t block) const {
    const index_t first = block * Lanes;
    const index_t block_end = min_of<index_t>(first + Lanes, count);
    LaneBoids<Real, Lanes, D> self;
    Sums sums;
    start_lanes<Model>(in, ConsecutiveSlots{first, static_cast<int>(block_end - first)}, self,
                       sums);
    // Ascending candidates in three ranges, so that only the block's own boids need the
    // self test and the long ranges vectorise.
    with_pair_flags(params.torus, params.limited_view, [&](auto flags) {
      using F = decltype(flags);
      gather_others<F>(sums, self, 0, first);
      gather_block<F>(sums, self, first, block_end);
      gather_others<F>(sums, self, block_end, count);
    });
    with_extras(params, [&](auto extras) { advance_all<decltype(extras)>(sums, self, first); });
  }

 private:
  // Moves the block's boids (kernels/advance.h); with the extras, the world's terms first.
  template <typename E>
  BOIDS_HD void advance_all(const Sums& sums, const LaneBoids<Real, Lanes, D>& self,
                            index_t first) const {
    const index_t block_end = min_of<index_t>(first + Lanes, count);
    LaneBoids<Real, Lanes, D> next;
    advance_block<Model, E>(  // input order: a boid's index is its id
        next, self, static_cast<int>(block_end - first), sums,
        [&](int lane) BOIDS_LAMBDA_INLINE { return first + static_cast<index_t>(lane); }, params);
    for (index_t i = first; i < block_end; ++i) out[i] = next.boid(static_cast<int>(i - first));
  }

  // Adds candidates [begin, end), none of them in this block, to every lane.
  template <typename F>
  BOIDS_HD void gather_others(Sums& sums, const LaneBoids<Real, Lanes, D>& self, index_t begin,
                              index_t end) const {
    const StepParams<Real> p = params;  // a local copy: provably not aliased by the sums
    for (index_t j = begin; j < end; ++j) {
      const Boid<Real, D> candidate = in[j];
#if !defined(__CUDA_ARCH__)
#pragma omp simd
#endif
      for (int lane = 0; lane < Lanes; ++lane) {
        accumulate_neighbor<Model, F::kWraps, F::kLimitedView>(sums, lane, self, candidate, p);
      }
    }
  }

  // Adds the block's own boids [first, end) to every lane but themselves.
  template <typename F>
  BOIDS_HD void gather_block(Sums& sums, const LaneBoids<Real, Lanes, D>& self, index_t first,
                             index_t end) const {
    for (index_t j = first; j < end; ++j) {
      const Boid<Real, D> candidate = in[j];
      for (int lane = 0; lane < Lanes; ++lane) {
        if (first + lane != j) {
          accumulate_neighbor<Model, F::kWraps, F::kLimitedView>(sums, lane, self, candidate,
                                                                 params);
        }
      }
    }
  }
};

// The naive step on a GPU is tiled as the classic all-pairs N-body kernel
// (kernels/cuda/naive_tiled.cuh): each block of kNaiveTile threads, one boid each, stages
// kNaiveTile candidates at a time in shared memory. What a thread does with one tile is written
// here, so that a CPU test runs the same code over the same tiles.
inline constexpr int kNaiveTile = 256;

// Adds the candidates of the tile that starts at boid `base` (tile[k] is boid base + k) to the
// sums of boid `self_index`, in ascending order, leaving out the boid itself.
template <typename Model, bool Wraps, bool LimitedView, typename Real, typename Sums, int D>
BOIDS_HD inline void gather_naive_tile(Sums& sums, const LaneBoids<Real, 1, D>& self,
                                       index_t self_index, const Boid<Real, D>* tile, index_t base,
                                       index_t count, const StepParams<Real>& p) {
  const index_t length = count - base < kNaiveTile ? count - base : index_t{kNaiveTile};
  if (self_index >= base && self_index - base < length) {  // the tile that holds the boid
    for (index_t k = 0; k < length; ++k) {
      if (base + k != self_index) {
        accumulate_neighbor<Model, Wraps, LimitedView>(sums, 0, self, tile[k], p);
      }
    }
  } else if (length == kNaiveTile) {
    BOIDS_UNROLL(16)
    for (int k = 0; k < kNaiveTile; ++k) {
      accumulate_neighbor<Model, Wraps, LimitedView>(sums, 0, self, tile[k], p);
    }
  } else {
    for (index_t k = 0; k < length; ++k) {
      accumulate_neighbor<Model, Wraps, LimitedView>(sums, 0, self, tile[k], p);
    }
  }
}

}  // namespace boids::kernels
