// What each step must do, per boid: the arithmetic of the naive step and the memory traffic of
// the hashed step. The fraction of the machine's limit that a row reaches is measured against
// these (see machine.h for the limits themselves).
#pragma once

#include <cstdint>

#include "host/core/simulation.h"
#include "kernels/cell_grid.h"

namespace boids::bench {

// Floating-point operations per candidate pair of the naive step (kernels/rules.h,
// accumulate_neighbor): difference 2, wrapping 4, squared distance 3, neighbour sums 4,
// separation (two divisions and two subtractions) 4, the radius and separation tests about 3:
// about 20, the figure the n-body literature also uses per interaction. In three dimensions
// each axis adds its difference, wrap, square, two sums and a separation term: about 29.
inline constexpr double kFlopsPerPair = 20.0;
inline double flops_per_pair(int dimensions) {
  return dimensions == 3 ? 29.0 : kFlopsPerPair;
}

// Radix sort passes of the hashed step's key sort: CUB's onesweep radix sort on a GPU sorts 8
// bits per pass; the cpu backend's counting sort is one pass whatever the key width.
inline int sort_passes(Backend backend, int key_bits) {
  if (backend != Backend::kCuda) return 1;
  return key_bits <= 0 ? 1 : (key_bits + 7) / 8;
}

// Bytes the hashed step must move between memory and the processor per boid, with
// B = sizeof(Boid<Real, D>) = 2 D sizeof(Real) and 4-byte keys, indices and ids. The model counts
// every array each stage reads or writes once, and assumes that the neighbours a boid reads
// in the step come from cache (in cell order, adjacent boids share their blocks of cells):
//   step        read the boid itself, write its new state, its key and the identity   2B + 8
//   reorder     read the permutation, the boid and its id, write the boid and the id
//               (the id over the permutation)                                         2B + 12
//   sort and cell starts, on CPUs (counting sort): read the keys twice (count, place),
//               write the permutation; zero, count, scan and shift the starts   12 + 12 c
//   on a GPU (CUB radix sort): each pass reads and writes a key and an index,    16 per pass,
//               and an odd number of passes copies the permutation back               + 8;
//               clear the starts, read the keys to mark run ends, scan          4 + 16 c
// with c = cells / count. For float at the published example's density that is about 106
// bytes on a CPU and about 157 on a GPU with 3 passes.
inline double hashed_traffic_bytes(Backend backend, Precision precision, std::uint64_t count,
                                   std::uint64_t cells, int dimensions = 2) {
  const double boid = (precision == Precision::kFloat ? 8.0 : 16.0) * dimensions;
  const double c = static_cast<double>(cells) / static_cast<double>(count);
  const double step_and_reorder = 4.0 * boid + 20.0;
  if (backend != Backend::kCuda) return step_and_reorder + 12.0 + 12.0 * c;
  const int passes = sort_passes(backend, kernels::key_bits(static_cast<kernels::index_t>(cells)));
  return step_and_reorder + 16.0 * passes + (passes % 2 == 1 ? 8.0 : 0.0) + 4.0 + 16.0 * c;
}

// The naive step reads every candidate from cache (CPU blocks, GPU shared-memory tiles): only
// the boid itself is read and its new state written, 2B. It is bound by arithmetic instead.
inline double naive_traffic_bytes(Precision precision, int dimensions = 2) {
  return (precision == Precision::kFloat ? 16.0 : 32.0) * dimensions;
}

}  // namespace boids::bench
