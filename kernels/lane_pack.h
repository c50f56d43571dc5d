// A block's lanes as one vector register (CPU threads only): GCC's vector extensions, in which
// `m ? a : b` selects lane by lane and `near ? sum + x : sum` is one masked addition. The lane
// loops of kernels/rules.h update a sum as `sum += near ? x : 0`, which a compiler must keep
// as an addition of 0 and a masked addition (x + 0 is not x for x = -0), and that is a third of
// the hashed step's candidate loop (bench/candidate_loop.cpp). A model's rules are written
// once, over values that are either one lane's numbers or such vectors; only how a sum is
// updated has a form of each (NeighborSums and NeighborPack, kernels/rules.h). With AVX-512's
// mask registers a selected update is one instruction, with AVX2 a blend; the vectors won with
// both (built for x86-64-v3, float: 0.88 to 0.94 of the lane loops' time in 2D, 0.83 to 0.86 in
// 3D; double: 0.71 and 0.60; bench/results/README.md), so every CPU block gathers as vectors.
#pragma once

#if !defined(__CUDACC__)

#include <immintrin.h>

#include <cstdint>
#include <type_traits>

#include "kernels/host_device.h"

namespace boids::kernels {

// Lanes of Real as one vector, and its mask: lanes of an integer of Real's width, all bits set
// where true.
template <typename Real, int Lanes>
struct PackOf {
  using Int = std::conditional_t<sizeof(Real) == 4, std::int32_t, std::int64_t>;
  typedef Real Values __attribute__((vector_size(sizeof(Real) * Lanes)));
  typedef Int Mask __attribute__((vector_size(sizeof(Real) * Lanes)));
};

// x in every lane, bit for bit (x - 0 keeps a -0, where 0 + x would not).
template <typename V, typename Real>
BOIDS_INLINE V splat(Real x) {
  return x - V{};
}

// The torus's shortest offset (wrap_delta, kernels/world.h) in every lane.
template <typename V, typename Real>
BOIDS_INLINE V wrap_lanes(V d, Real side, Real half) {
  const V zero{}, full = splat<V>(side);
  const V shift = (d > half ? full : zero) - (d < -half ? full : zero);
  return d - shift;
}

// in_view (kernels/rules.h) in every lane: the sign of a zero `along` changes no comparison.
template <typename V, typename Real, int D>
BOIDS_INLINE auto in_view_lanes(const V (&d)[D], V d2, const V (&v)[D], Real signed_cos_sq) {
  const V along = dot(d, v);
  const V magnitude = along < Real(0) ? -along : along;
  return along * magnitude >= (signed_cos_sq * length_sq(v)) * d2;
}

// Whether any lane of a mask is set: with AVX-512, read from the mask register that the
// comparisons left; else tested as a vector.
template <typename M>
BOIDS_INLINE bool any_lane(M m) {
#if defined(__AVX512VL__) && defined(__AVX512DQ__)
  if constexpr (sizeof(M) == 32) {
    const __m256i bits = reinterpret_cast<__m256i>(m);
    return (sizeof(m[0]) == 8 ? _mm256_movepi64_mask(bits) : _mm256_movepi32_mask(bits)) != 0;
  } else if constexpr (sizeof(M) == 64) {
    const __m512i bits = reinterpret_cast<__m512i>(m);
    return (sizeof(m[0]) == 8 ? _mm512_movepi64_mask(bits) : _mm512_movepi32_mask(bits)) != 0;
  }
#endif
#if defined(__AVX__)
  if constexpr (sizeof(M) == 32) {
    const __m256i bits = reinterpret_cast<__m256i>(m);
    return !_mm256_testz_si256(bits, bits);
  }
#endif
  bool any = false;
  for (unsigned lane = 0; lane < sizeof(M) / sizeof(m[0]); ++lane) any |= m[lane] != 0;
  return any;
}

// Whether any lane of v is at most `bound`: with AVX-512, one comparison into a mask register,
// which any_lane(v <= bound) would first turn into a vector and back.
template <typename V, typename Real>
BOIDS_INLINE bool any_at_most(V v, Real bound) {
#if defined(__AVX512VL__) && defined(__AVX512DQ__)
  if constexpr (sizeof(V) == 32 && sizeof(Real) == 4) {
    return _mm256_cmp_ps_mask(reinterpret_cast<__m256>(v), _mm256_set1_ps(bound), _CMP_LE_OQ) != 0;
  } else if constexpr (sizeof(V) == 32) {
    return _mm256_cmp_pd_mask(reinterpret_cast<__m256d>(v), _mm256_set1_pd(bound), _CMP_LE_OQ) != 0;
  } else if constexpr (sizeof(V) == 64 && sizeof(Real) == 4) {
    return _mm512_cmp_ps_mask(reinterpret_cast<__m512>(v), _mm512_set1_ps(bound), _CMP_LE_OQ) != 0;
  } else if constexpr (sizeof(V) == 64) {
    return _mm512_cmp_pd_mask(reinterpret_cast<__m512d>(v), _mm512_set1_pd(bound), _CMP_LE_OQ) != 0;
  }
#endif
  return any_lane(v <= bound);
}

// Lane by lane, from and to the arrays of a block (one array entry per lane).
template <typename V, typename T, int Lanes>
BOIDS_INLINE V load_lanes(const T (&from)[Lanes]) {
  V v;
  if constexpr (sizeof(V) == sizeof(from)) {
    __builtin_memcpy(&v, from, sizeof v);
  } else {
    for (int lane = 0; lane < Lanes; ++lane) v[lane] = from[lane];
  }
  return v;
}
template <typename V, typename T, int Lanes>
BOIDS_INLINE void store_lanes(const V& v, T (&to)[Lanes]) {
  if constexpr (sizeof(V) == sizeof(to)) {
    __builtin_memcpy(to, &v, sizeof v);
  } else {
    for (int lane = 0; lane < Lanes; ++lane) to[lane] = static_cast<T>(v[lane]);
  }
}

}  // namespace boids::kernels

#endif
