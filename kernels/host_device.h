// Portability macros and the few math functions that kernels use on both sides.
#pragma once

#include <cmath>
#include <cstddef>
#include <cstdint>

#if defined(__CUDACC__)
#define BOIDS_HD __host__ __device__
#else
#define BOIDS_HD
#endif

// Inlined whatever the compiler's estimate: the candidate loops must sit in one function with
// the sums they add to, which then stay in registers.
#if defined(__CUDACC__)
#define BOIDS_INLINE __forceinline__
#elif defined(__GNUC__)
#define BOIDS_INLINE inline __attribute__((always_inline))
#else
#define BOIDS_INLINE inline
#endif

// Inlined into a GPU kernel, left to the compiler on CPU threads: a device function that stays
// a call must keep its caller's registers across it, which under a kernel's register cap means
// spilling them to local memory (the 3D hashed step, its block's functions left calls: 816
// bytes of spill stores and 1,924 of loads in float; inlined whole, 188 and 120).
#if defined(__CUDACC__)
#define BOIDS_GPU_INLINE __forceinline__
#else
#define BOIDS_GPU_INLINE
#endif

#if defined(__GNUC__) && !defined(__CUDACC__)
#define BOIDS_LAMBDA_INLINE __attribute__((always_inline))
#else
#define BOIDS_LAMBDA_INLINE
#endif

// `#pragma unroll N` in device code; nothing elsewhere (GCC would warn of an unknown pragma).
#define BOIDS_PRAGMA(text) _Pragma(#text)
#if defined(__CUDA_ARCH__)
#define BOIDS_UNROLL(n) BOIDS_PRAGMA(unroll n)
#else
#define BOIDS_UNROLL(n)
#endif

namespace boids::kernels {

using index_t = std::uint32_t;  // boid indices, cell keys and ids: flocks stay below 2^31

BOIDS_HD inline float square_root(float x) {
  return sqrtf(x);
}
BOIDS_HD inline double square_root(double x) {
  return sqrt(x);
}

BOIDS_HD inline float absolute(float x) {
  return fabsf(x);
}
BOIDS_HD inline double absolute(double x) {
  return fabs(x);
}

// The remainder of x / y with the sign of x (C's fmod, JavaScript's %), for y > 0. It is exact,
// and so are the shortcuts for 0 <= x < 2y, which return x or x - y (exact by Sterbenz's lemma)
// and spare the common case fmod's cost.
BOIDS_HD inline float fmod_of(float x, float y) {
  return fmodf(x, y);
}
BOIDS_HD inline double fmod_of(double x, double y) {
  return fmod(x, y);
}
template <typename Real>
BOIDS_HD inline Real remainder_of(Real x, Real y) {
  if (x >= Real(0) && x < y) return x;
  if (x >= y && x - y < y) return x - y;
  return fmod_of(x, y);
}

template <typename T>
BOIDS_HD inline T min_of(T a, T b) {
  return b < a ? b : a;
}

template <typename T>
BOIDS_HD inline T max_of(T a, T b) {
  return a < b ? b : a;
}

// Sorts the `n` pairs (keys[k], values[k]) by key, ascending and stable: an insertion sort, for
// the few entries of a nearest list or a block's runs.
template <typename K, typename V>
BOIDS_HD inline void sort_pairs(K* keys, V* values, int n) {
  for (int k = 1; k < n; ++k) {
    const K key = keys[k];
    const V value = values[k];
    int m = k;
    for (; m > 0 && keys[m - 1] > key; --m) {
      keys[m] = keys[m - 1];
      values[m] = values[m - 1];
    }
    keys[m] = key;
    values[m] = value;
  }
}

// Where the square of a vector's length could overflow: a component above kLargest (so that
// x^2 + y^2 + z^2 <= 3 kLargest^2 is finite), and the exact power of two kShrink that brings any
// finite component back to where its square is finite and normal.
template <typename Real>
struct LengthRange;
template <>
struct LengthRange<float> {
  static constexpr float kLargest = 0x1.0p62f;
  static constexpr float kLargestSquare = 0x1.0p124f;
  static constexpr float kShrink = 0x1.0p-80f;
};
template <>
struct LengthRange<double> {
  static constexpr double kLargest = 0x1.0p510;
  static constexpr double kLargestSquare = 0x1.0p1020;
  static constexpr double kShrink = 0x1.0p-600;
};

// Scales a vector so that the square root of its squared length can be taken: by kShrink
// where a component is too large, else by 1, which leaves every bit as it was. The scaling is
// exact, so the direction is kept to the last bit (a component small enough to become
// subnormal may lose bits, but it is then negligible beside the others). Selects, not
// branches, so that lanes vectorise. Returns whether the vector was shrunk.
template <typename Real, int D>
BOIDS_HD BOIDS_INLINE bool scale_for_length(Real (&v)[D]) {
  Real largest = absolute(v[0]);
  for (int a = 1; a < D; ++a) largest = max_of(largest, absolute(v[a]));
  const bool huge = largest > LengthRange<Real>::kLargest;
  const Real scale = huge ? LengthRange<Real>::kShrink : Real(1);
  for (int a = 0; a < D; ++a) v[a] = v[a] * scale;
  return huge;
}

// The squared length of a vector, its squares added in axis order as the published step adds
// x^2 + y^2: in a plane of a box the added z^2 is +0, which changes no bit.
template <typename Real, int D>
BOIDS_HD BOIDS_INLINE Real length_sq(const Real (&v)[D]) {
  Real square = v[0] * v[0];
  for (int a = 1; a < D; ++a) square = square + v[a] * v[a];
  return square;
}

// The dot product of two vectors, added in axis order.
template <typename Real, int D>
BOIDS_HD BOIDS_INLINE Real dot(const Real (&u)[D], const Real (&v)[D]) {
  Real sum = u[0] * v[0];
  for (int a = 1; a < D; ++a) sum = sum + u[a] * v[a];
  return sum;
}

// The length of `v`. Without `Large`, the published step's sqrt(x^2 + y^2 (+ z^2)), and `large` is
// set where that square may have overflowed (it exceeds kLargestSquare, as it does whenever a
// component exceeds kLargest): the caller then takes the length again under `Large`, which
// scales `v` first (scale_for_length) and sets `scale` to the factor. Where nothing is that
// large both give the same bits, so a block of boids takes the published step's way and only a
// block that met such a square pays for the scaling. (Three squares of kLargest still add to a
// finite value.)
template <bool Large, typename Real, int D>
BOIDS_HD BOIDS_INLINE Real length_of(Real (&v)[D], Real& scale, bool& large) {
  scale = Real(1);
  if constexpr (Large) scale = scale_for_length(v) ? LengthRange<Real>::kShrink : Real(1);
  const Real square = length_sq(v);
  if constexpr (!Large) large = large | !(square <= LengthRange<Real>::kLargestSquare);
  return square_root(square);
}

}  // namespace boids::kernels
