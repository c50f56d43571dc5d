// A part's share of the whole flock's metrics (PartAccess::measure_part) on a backend: the
// measure of kernels/part_share.h in the executor's memory, then one pass on the host over
// the sorted boids' flags, roots and members that names the pieces of flocks other parts may
// join. (A GPU's arrays come to the host for it; choosing the border's boids on the device,
// with the split's selection, is still to come.)
#pragma once

#include <algorithm>
#include <cstdint>
#include <limits>
#include <vector>

#include "host/backends/part_passes.h"
#include "host/core/simulation.h"
#include "host/parts/part_access.h"
#include "kernels/part_share.h"

namespace boids::flock_part {

// The slab a part's metrics read from its bounds: a face that is a wall of the world lies at
// infinity (no boid is beyond it); `radius` is the flock's. An own boid is at the edge within
// the ghosts' reach and a quarter more: every boid another part holds as a ghost is at the
// edge here, however the two round where it lies.
inline kernels::PartSlab slab_of(const PartBounds& b, const World& world, double radius) {
  kernels::PartSlab slab{b.axis, b.low, b.high, 1.25 * b.reach, radius};
  if (!world.torus()) {
    const double side = b.axis == 0 ? world.width : (b.axis == 1 ? world.height : world.depth);
    constexpr double kFar = std::numeric_limits<double>::infinity();
    if (b.low <= 0) slab.low = -kFar;
    if (b.high >= side) slab.high = kFar;
  }
  return slab;
}

template <typename Real, int D, typename Executor>
class PartMeasure {
 public:
  using index_t = kernels::index_t;
  template <typename T>
  using Buffer = typename Executor::template Buffer<T>;

  // Measures the part on its cell index `x` (made anew here): `slots`, `whole` and `own` (its
  // flags by part slot) are the part's arrays in the executor's memory (flock_part::Passes).
  PartMetrics measure(Executor& exec, kernels::CellIndex<Real, D>& x,
                      const kernels::CellGrid<Real, D>& grid,
                      const kernels::StepParams<Real>& params, const index_t* slots,
                      const index_t* whole, const std::uint8_t* own,
                      const kernels::PartSlab& slab) {
    PartMetrics m;
    const index_t n = x.count;
    if (n == 0) return m;
    if (flags_.size() < n) {
      exec.synchronize();  // the old arrays may still be in use
      flags_ = Buffer<std::uint8_t>(n);
      whole_sorted_ = Buffer<index_t>(n);
      // In host memory the far boids' distances are found again where read: no array of them.
      if (!Executor::kHostMemory) nearest_ = Buffer<double>(n);
    }
    const kernels::PartArrays part{slots,
                                   own,
                                   whole,
                                   flags_.data(),
                                   whole_sorted_.data(),
                                   Executor::kHostMemory ? nullptr : nearest_.data()};
    const kernels::PartSums s = kernels::measure_part(exec, x, grid, params, part, slab);
    exec.synchronize();
    m.own = static_cast<std::uint64_t>(s.own);
    for (int a = 0; a < D; ++a) {
      m.headings[a] = s.headings[a];
      m.velocities[a] = s.velocities[a];
    }
    m.neighbors = s.neighbors;
    m.nearest = s.nearest;
    for (int k = 0; k < 6; ++k) m.centre[k] = s.centre[k];
    std::vector<std::uint8_t> flag_copy;
    std::vector<index_t> whole_copy;
    const std::uint8_t* flags = on_host(exec, flags_.data(), n, flag_copy);
    const index_t* whole_sorted = on_host(exec, whole_sorted_.data(), n, whole_copy);
    read_pieces(exec, x, n, flags, whole_sorted, m);
    if (s.uncertain > 0) {
      read_far(exec, x, kernels::nearest_in_part(x, grid, params, part, slab), flags, whole_sorted,
               m);
    }
    return m;
  }

  // The own boids' turning about the whole flock's centre (PartAccess::part_turning), on the
  // index and flags measure left.
  void turning(Executor& exec, const kernels::CellIndex<Real, D>& x,
               const kernels::CellGrid<Real, D>& grid, const kernels::StepParams<Real>& params,
               const double (&centre)[3], double (&out)[3]) {
    out[0] = out[1] = out[2] = 0;
    if (x.count == 0) return;
    Buffer<double> there(D);
    exec.upload(there.data(), centre, D);
    double sums[3] = {0, 0, 0};
    kernels::part_turning(exec, x, grid, params, flags_.data(), there.data(), sums);
    if constexpr (D == 2) {
      out[2] = sums[0];
    } else {
      for (int c = 0; c < 3; ++c) out[c] = sums[c];
    }
  }

  std::uint64_t bytes() const { return flags_.bytes() + whole_sorted_.bytes() + nearest_.bytes(); }

 private:
  // The executor's array on the host: itself, or a copy in `copy`.
  template <typename T>
  const T* on_host(const Executor& exec, const T* data, std::size_t n, std::vector<T>& copy) {
    if constexpr (Executor::kHostMemory) {
      return data;
    } else {
      copy.resize(n);
      exec.download(copy.data(), data, n);
      return copy.data();
    }
  }

  // The pieces: a component that holds a ghost or an own boid at the edge (a ghost elsewhere)
  // may join other parts' components; the others are whole flocks.
  // `flags` and `whole` are the sorted boids' on the host.
  void read_pieces(const Executor& exec, const kernels::CellIndex<Real, D>& x, index_t n,
                   const std::uint8_t* flags, const index_t* whole, PartMetrics& m) {
    std::vector<index_t> parent_copy, member_copy;
    const index_t* parent = on_host(exec, x.keys, n, parent_copy);
    const index_t* members = on_host(exec, x.order, n, member_copy);
    std::vector<std::uint8_t> border(n, 0);  // by root
    for (index_t i = 0; i < n; ++i) {
      const bool own = flags[i] & kernels::kOwnBoid;
      if (own && !(flags[i] & kernels::kAtEdge)) continue;
      border[parent[i]] = 1;
      (own ? m.edge : m.ghosts).push_back({whole[i], whole[parent[i]]});
    }
    for (index_t i = 0; i < n; ++i) {
      if (parent[i] != i) continue;
      if (border[i]) {
        m.pieces.push_back({whole[i], members[i]});
      } else if (members[i] > 0) {
        ++m.inner_flocks;
        m.largest_inner = std::max<std::uint64_t>(m.largest_inner, members[i]);
      }
    }
    std::sort(
        m.edge.begin(), m.edge.end(),
        [](const PartMetrics::Member& a, const PartMetrics::Member& b) { return a.id < b.id; });
  }

  // The own boids whose nearest boid may lie in another part, with the distance `in_part`
  // finds (in host memory found again, for these few; a device's come down).
  void read_far(const Executor& exec, const kernels::CellIndex<Real, D>& x,
                const kernels::NearestInPart<Real, D>& in_part, const std::uint8_t* flags,
                const index_t* whole, PartMetrics& m) {
    const index_t n = x.count;
    std::vector<double> nearest_copy;
    std::vector<kernels::Boid<Real, D>> sorted_copy;
    const double* nearest =
        Executor::kHostMemory ? nullptr : on_host(exec, nearest_.data(), n, nearest_copy);
    const kernels::Boid<Real, D>* sorted = on_host(exec, x.sorted, n, sorted_copy);
    for (index_t i = 0; i < n; ++i) {
      if (!(flags[i] & kernels::kMayBeNearer)) continue;
      m.far.push_back(indexed_boid(sorted[i], whole[i]));
      m.far_nearest.push_back(nearest ? nearest[i] : in_part.distance(i));
    }
  }

  Buffer<std::uint8_t> flags_;
  Buffer<index_t> whole_sorted_;
  Buffer<double> nearest_;
};

}  // namespace boids::flock_part
