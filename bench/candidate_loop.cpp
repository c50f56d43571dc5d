// boids-candidate-loop: the hashed step's candidate loop on CPU threads in its two forms,
// timed on one thread (docs/benchmarks.md):
//   lanes    a loop over a block's lanes that the compiler vectorises (accumulate_neighbor,
//            kernels/rules.h), each sum updated as `sum += near ? term : 0`: an addition of 0
//            and a masked addition, since x + 0 is not x for x = -0;
//   vectors  the block's lanes as vectors (accumulate_lanes and NeighborPack,
//            kernels/lane_pack.h), each sum updated as `sum = near ? sum + term : sum`, one
//            masked operation: how the hashed step gathers on CPU threads.
// Both must give the same bits (a sum that starts at +0 never becomes -0, so adding a selected
// +0 is skipping the addition); the program exits non-zero where they do not.
//
// Blocks as a 2D line block meets them at the published example's density: the cpu backend's lanes
// (CpuExecutor::hashed_lanes) along a line of cells, 56 candidates around them in cell order
// (a block of 8 meets about 31; what is timed is the loop, a candidate at a time). No two
// blocks share candidates here, as they do in the step, so the speeds are the loop's alone:
// built for AVX2 the vectors took 1.3 times the lane loops' time here and 0.83 to 0.94 of it
// in the step (bench/results/README.md).
//
//   boids-candidate-loop [--blocks N] [--rounds N]
#include <algorithm>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <random>
#include <string>
#include <vector>

#include "host/backends/cpu/cpu_executor.h"
#include "kernels/models/boids.h"

namespace {

using boids::kernels::Boid;
using boids::kernels::Boids;
using boids::kernels::LaneBoids;
using boids::kernels::NeighborSums;
using boids::kernels::StepParams;

constexpr int kCandidates = 56;  // a 2D line block's candidates at the published example's density
constexpr int kSelfAt = 20;      // where a block's own boids lie among its candidates
volatile double sink;            // a sum of every timed block, so that none is skipped

template <typename Real>
constexpr int kLanes = boids::CpuExecutor::hashed_lanes<Real, 2>;

template <typename Real>
struct Sums {  // a block's sums, as the kernels lay them out
  int count[kLanes<Real>];
  Real velocity[2][kLanes<Real>], offset[2][kLanes<Real>], push[2][kLanes<Real>];
};

// The block's sums as the kernels gather them.
template <typename Real>
__attribute__((noinline)) void gather_lanes(const Boid<Real, 2>* c, const StepParams<Real>& p,
                                            Sums<Real>& out) {
  constexpr int L = kLanes<Real>;
  const StepParams<Real> q = p;
  LaneBoids<Real, L, 2> self;
  NeighborSums<Real, L, 2> sums;
  for (int l = 0; l < L; ++l) {
    self.set(l, c[kSelfAt + l]);
    sums.clear(l);
  }
  for (int j = 0; j < kCandidates; ++j) {
    const Boid<Real, 2> candidate = c[j];
#pragma omp simd
    for (int l = 0; l < L; ++l) {
      boids::kernels::accumulate_neighbor<Boids, false, false>(sums, l, self, candidate, q,
                                                               j != kSelfAt + l);
    }
  }
  std::memcpy(out.count, sums.count, sizeof out.count);
  std::memcpy(out.velocity, sums.velocity, sizeof out.velocity);
  std::memcpy(out.offset, sums.offset, sizeof out.offset);
  std::memcpy(out.push, sums.push, sizeof out.push);
}

// The same sums on vectors of the block's lanes, as the hashed step gathers them on CPU
// threads (accumulate_lanes, kernels/rules.h).
template <typename Real>
__attribute__((noinline)) void gather_vectors(const Boid<Real, 2>* c, const StepParams<Real>& p,
                                              Sums<Real>& out) {
  using Pack = boids::kernels::PackOf<Real, kLanes<Real>>;
  using V = typename Pack::Values;
  using M = typename Pack::Mask;
  constexpr int L = kLanes<Real>;
  const StepParams<Real> q = p;
  V x[2], v[2];
  M slot;
  for (int l = 0; l < L; ++l) {
    for (int a = 0; a < 2; ++a) {
      x[a][l] = c[kSelfAt + l].position[a];
      v[a][l] = c[kSelfAt + l].velocity[a];
    }
    slot[l] = kSelfAt + l;
  }
  NeighborSums<Real, L, 2> sums;
  for (int l = 0; l < L; ++l) sums.clear(l);
  typename NeighborSums<Real, L, 2>::Pack packed;
  packed.load(sums);
  for (int j = 0; j < kCandidates; ++j) {
    boids::kernels::accumulate_lanes<Boids, false, false>(packed, x, v, c[j], q, slot != j);
  }
  packed.store(sums);
  std::memcpy(out.count, sums.count, sizeof out.count);
  std::memcpy(out.velocity, sums.velocity, sizeof out.velocity);
  std::memcpy(out.offset, sums.offset, sizeof out.offset);
  std::memcpy(out.push, sums.push, sizeof out.push);
}

// Blocks of random boids: each a strip of candidates 3 cells high and 15.5 wide, its own lanes
// along the middle line; the radius 10 and the separation radius 5, as the published example's.
template <typename Real>
std::vector<Boid<Real, 2>> make_blocks(int blocks, StepParams<Real>& p) {
  const Real r = 10;
  p = StepParams<Real>{};
  p.radius_sq = r * r;
  p.separation_sq = r * r / 4;
  std::mt19937 rng(1);
  std::uniform_real_distribution<Real> u(0, 1);
  std::vector<Boid<Real, 2>> c(static_cast<std::size_t>(blocks) * kCandidates);
  for (int b = 0; b < blocks; ++b) {
    Boid<Real, 2>* block = &c[static_cast<std::size_t>(b) * kCandidates];
    for (int k = 0; k < kCandidates; ++k) {
      block[k].position[0] = u(rng) * Real(15.5) * r;
      block[k].position[1] = u(rng) * 3 * r;
      block[k].velocity[0] = u(rng) - Real(0.5);
      block[k].velocity[1] = u(rng) - Real(0.5);
    }
    for (int l = 0; l < kLanes<Real>; ++l) {
      block[kSelfAt + l].position[0] = r + (Real(l) * Real(13.6) / kLanes<Real> + u(rng)) * r;
      block[kSelfAt + l].position[1] = r + u(rng) * r;
    }
  }
  return c;
}

// Times both ways in alternation, the best of `rounds`; false where their sums differ.
template <typename Real>
bool compare(const char* precision, int blocks, int rounds) {
  StepParams<Real> p;
  const std::vector<Boid<Real, 2>> c = make_blocks<Real>(blocks, p);
  int differing = 0;
  for (int b = 0; b < blocks; ++b) {
    Sums<Real> a, v;
    gather_lanes(&c[static_cast<std::size_t>(b) * kCandidates], p, a);
    gather_vectors(&c[static_cast<std::size_t>(b) * kCandidates], p, v);
    differing += std::memcmp(&a, &v, sizeof a) != 0;
  }
  double best[2] = {1e30, 1e30};
  for (int round = 0; round < rounds; ++round) {
    for (int way = 0; way < 2; ++way) {
      const auto start = std::chrono::steady_clock::now();
      for (int b = 0; b < blocks; ++b) {
        Sums<Real> s;
        const Boid<Real, 2>* block = &c[static_cast<std::size_t>(b) * kCandidates];
        way == 0 ? gather_lanes(block, p, s) : gather_vectors(block, p, s);
        sink = s.velocity[0][1];
      }
      const std::chrono::duration<double> took = std::chrono::steady_clock::now() - start;
      best[way] = std::min(best[way], took.count() * 1e9 / (double(blocks) * kCandidates));
    }
  }
  std::printf(
      "%-6s %2d lanes: lanes %.2f ns a candidate, vectors %.2f ns (%.2fx); blocks whose "
      "sums differ: %d of %d\n",
      precision, kLanes<Real>, best[0], best[1], best[0] / best[1], differing, blocks);
  return differing == 0;
}

int number(const char* text, const char* option) {
  char* end = nullptr;
  const long n = std::strtol(text, &end, 10);
  if (*text == '\0' || *end != '\0' || n < 1 || n > 10000000) {
    std::fprintf(stderr, "boids-candidate-loop: %s wants a whole number from 1 to 10^7, not '%s'\n",
                 option, text);
    std::exit(2);
  }
  return static_cast<int>(n);
}

}  // namespace

int main(int argc, char** argv) {
  int blocks = 200000, rounds = 5;
  for (int i = 1; i < argc; ++i) {
    const std::string arg = argv[i];
    if ((arg == "--blocks" || arg == "--rounds") && i + 1 < argc) {
      (arg == "--blocks" ? blocks : rounds) = number(argv[++i], arg.c_str());
    } else {
      std::fprintf(stderr, "usage: boids-candidate-loop [--blocks N] [--rounds N]\n");
      return 2;
    }
  }
  const bool same =
      compare<float>("float", blocks, rounds) & compare<double>("double", blocks, rounds);
  return same ? 0 : 1;
}
