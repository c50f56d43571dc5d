// boids-candidate-loop: the hashed step's candidate loop on CPU threads, written two ways and
// timed on one thread, for the design of that loop (docs/benchmarks.md):
//   lanes    as the kernels write it: a loop over a block's lanes that the compiler
//            vectorises (accumulate_neighbour, kernels/rules.h), each sum updated as
//            `sum += near ? term : 0`;
//   vectors  the same arithmetic on explicit vectors of the block's lanes (GCC's vector
//            extensions), each sum updated as `sum = near ? sum + term : sum`, which becomes
//            one masked operation where the first costs an addition of 0 and a masked one.
// Both must give the same bits (a sum that starts at +0 never becomes -0, so adding a selected
// +0 is skipping the addition); the program exits non-zero where they do not.
//
// Blocks as a 2D line block meets them at the seed's density: 16 lanes (float; 8 in double)
// along a line of cells, 56 candidates around them in cell order.
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
#include <type_traits>
#include <vector>

#include "kernels/models/boids.h"

namespace {

using boids::kernels::Boid;
using boids::kernels::Boids;
using boids::kernels::LaneBoids;
using boids::kernels::NeighbourSums;
using boids::kernels::StepParams;

constexpr int kCandidates = 56;  // a line block's candidates in 2D at the seed's density
constexpr int kSelfAt = 20;      // where a block's own boids lie among its candidates
volatile double sink;            // a sum of every timed block, so that none is skipped

template <typename Real>
constexpr int kLanes = 64 / sizeof(Real);

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
  NeighbourSums<Real, L, 2> sums;
  for (int l = 0; l < L; ++l) {
    self.set(l, c[kSelfAt + l]);
    sums.clear(l);
  }
  for (int j = 0; j < kCandidates; ++j) {
    const Boid<Real, 2> candidate = c[j];
#pragma omp simd
    for (int l = 0; l < L; ++l) {
      boids::kernels::accumulate_neighbour<Boids, false, false>(sums, l, self, candidate, q,
                                                                j != kSelfAt + l);
    }
  }
  std::memcpy(out.count, sums.count, sizeof out.count);
  std::memcpy(out.velocity, sums.velocity, sizeof out.velocity);
  std::memcpy(out.offset, sums.offset, sizeof out.offset);
  std::memcpy(out.push, sums.push, sizeof out.push);
}

// The same sums on explicit vectors of the block's lanes.
template <typename Real>
__attribute__((noinline)) void gather_vectors(const Boid<Real, 2>* c, const StepParams<Real>& p,
                                              Sums<Real>& out) {
  using Int = std::conditional_t<sizeof(Real) == 4, std::int32_t, std::int64_t>;
  typedef Real V __attribute__((vector_size(64)));
  typedef Int M __attribute__((vector_size(64)));
  constexpr int L = kLanes<Real>;
  V x{}, y{};
  M slot{};
  for (int l = 0; l < L; ++l) {
    x[l] = c[kSelfAt + l].position[0];
    y[l] = c[kSelfAt + l].position[1];
    slot[l] = kSelfAt + l;
  }
  const Real radius_sq = p.radius_sq, separation_sq = p.separation_sq;
  const Real closest = boids::kernels::closest_push<Real>();
  M count{};
  V vx{}, vy{}, ox{}, oy{}, px{}, py{};
  for (int j = 0; j < kCandidates; ++j) {
    const Boid<Real, 2> candidate = c[j];
    const V dx = candidate.position[0] - x, dy = candidate.position[1] - y;
    const V d2 = dx * dx + dy * dy;
    const M near = (d2 < radius_sq) & (slot != j);
    count = near ? count + 1 : count;
    vx = near ? vx + candidate.velocity[0] : vx;
    vy = near ? vy + candidate.velocity[1] : vy;
    ox = near ? ox + dx : ox;
    oy = near ? oy + dy : oy;
    const M pushes = near & (d2 < separation_sq) & (d2 > closest);
    if constexpr (sizeof(Real) == sizeof(double)) {  // double divides each, as the seed does
      px = pushes ? px - dx / d2 : px;
      py = pushes ? py - dy / d2 : py;
    } else {
      const V inverse = Real(1) / d2;
      px = pushes ? px - dx * inverse : px;
      py = pushes ? py - dy * inverse : py;
    }
  }
  for (int l = 0; l < L; ++l) {
    out.count[l] = static_cast<int>(count[l]);
    out.velocity[0][l] = vx[l], out.velocity[1][l] = vy[l];
    out.offset[0][l] = ox[l], out.offset[1][l] = oy[l];
    out.push[0][l] = px[l], out.push[1][l] = py[l];
  }
}

// Blocks of random boids: each a strip of candidates 3 cells high and 15.5 wide, its own
// lanes along the middle line; the radius 10 and the separation radius 5, as the seed's.
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
