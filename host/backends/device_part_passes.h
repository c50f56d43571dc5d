// A part's split and extend where an executor over device memory holds it (a GPU rank's part),
// by the passes of kernels/part_split.h: only the boids at the edge come to the host, and only
// the arrivals and the ghosts go up.
//   split   the edge boids counted, packed by a selection and brought down; the kept own boids
//           packed by a selection into the scratch and the spare index array, which then take
//           the arrays' places (the hashed method's next sort finds them in cell order still)
//   append  the arrivals and the ghosts uploaded after the kept boids (hashed)
//   merge   the three lists merged by whole-flock index, each entry placed by binary searches
//           in the other two (naive)
// The same decisions, in the same order, as the host's passes (host/backends/part_passes.h),
// so a part flies alike on every executor.
#pragma once

#include <cstddef>
#include <cstdint>
#include <utility>
#include <vector>

#include "host/backends/part_passes.h"
#include "host/core/simulation.h"
#include "host/parts/part_access.h"
#include "kernels/part_split.h"

namespace boids::flock_part {

template <typename Real, int D, typename Executor>
class DevicePasses {
 public:
  using Boid = kernels::Boid<Real, D>;
  using index_t = kernels::index_t;
  template <typename T>
  using Buffer = typename Executor::template Buffer<T>;

  // Returns how many own boids stay, at the front of a.boids and a.whole (swapped with the
  // scratch and the spare index array); appends the edge boids to `edge` in place order.
  template <typename Arrays>
  index_t split(Executor& exec, const Arrays& a, const PartBounds& b,
                std::vector<IndexedBoid>& edge) {
    fit(exec, a.whole.size());
    const kernels::PartPlaces<Real, D> places{a.boids.data(), a.slots, own_.data(), a.whole.data()};
    const kernels::SplitBounds bounds{b.axis, b.low, b.high, b.reach};
    const kernels::AtPartEdge<Real, D> at_edge{places, bounds};
    const auto edges =
        static_cast<index_t>(exec.sum(a.count, kernels::OneWhere<decltype(at_edge)>{at_edge}));
    if (edge_boids_.size() < edges) {
      exec.synchronize();
      edge_boids_ = Buffer<Boid>(edges + edges / 4);
      edge_whole_ = Buffer<index_t>(edges + edges / 4);
    }
    exec.select(a.count, at_edge,
                kernels::PackSelected<Real, D>{places, edge_boids_.data(), edge_whole_.data()});
    std::vector<Boid> boids(edges);
    std::vector<index_t> whole(edges);
    exec.download(boids.data(), edge_boids_.data(), edges);
    exec.download(whole.data(), edge_whole_.data(), edges);
    edge.reserve(edge.size() + edges);
    for (index_t e = 0; e < edges; ++e) edge.push_back(indexed_boid(boids[e], whole[e]));
    const index_t kept =
        exec.select(a.count, kernels::KeptInside<Real, D>{places, bounds},
                    kernels::PackSelected<Real, D>{places, a.scratch.data(), spare_whole_.data()});
    std::swap(a.boids, a.scratch);
    std::swap(a.whole, spare_whole_);
    return kept;  // their slots are made part slots 0, 1, ... by the extend
  }

  // Puts the part together after the `kept` boids split left: `arrived` and `ghosts`
  // appended, or (`merged`) merged by whole-flock index. Writes the own flags by part slot
  // into `own` too (on the host). Returns the part's size.
  template <typename Arrays>
  index_t extend(Executor& exec, const Arrays& a, index_t kept, bool merged, IndexedBoids arrived,
                 IndexedBoids ghosts, const World& world, const Unwrap& unwrap,
                 std::vector<std::uint8_t>& own) {
    fit(exec, a.whole.size());
    const auto owns = static_cast<index_t>(kept + arrived.size());
    const auto n = static_cast<index_t>(owns + ghosts.size());
    std::vector<Boid> boids(n - kept);
    std::vector<index_t> whole(n - kept);
    index_t at = pack_own<Real, D>(boids.data(), whole.data(), 0, arrived, world);
    for (const IndexedBoid& b : ghosts) {
      boids[at] = packed_ghost<Real, D>(b, merged ? Unwrap{} : unwrap);
      whole[at++] = static_cast<index_t>(b.id);
    }
    if (!merged) {
      exec.upload(a.boids.data() + kept, boids.data(), boids.size());
      exec.upload(a.whole.data() + kept, whole.data(), whole.size());
      exec.for_each(n, kernels::OwnBefore{own_.data(), owns});
      own.assign(owns, 1);
      own.resize(n, 0);
      return n;
    }
    if (incoming_boids_.size() < boids.size()) {
      exec.synchronize();
      incoming_boids_ = Buffer<Boid>(boids.size() + boids.size() / 4);
      incoming_whole_ = Buffer<index_t>(boids.size() + boids.size() / 4);
    }
    exec.upload(incoming_boids_.data(), boids.data(), boids.size());
    exec.upload(incoming_whole_.data(), whole.data(), whole.size());
    const auto arrivals = static_cast<index_t>(arrived.size());
    const auto spares = static_cast<index_t>(ghosts.size());
    const index_t* kept_whole = a.whole.data();
    const index_t* arrived_whole = incoming_whole_.data();
    const index_t* ghost_whole = arrived_whole + arrivals;
    const auto list = [&](const Boid* from, const index_t* ids, const index_t* other,
                          index_t other_count, const index_t* third, index_t third_count,
                          std::uint8_t flag) {
      return kernels::MergeList<Real, D>{from,
                                         ids,
                                         {other, third},
                                         {other_count, third_count},
                                         flag,
                                         a.scratch.data(),
                                         spare_whole_.data(),
                                         own_.data()};
    };
    exec.for_each(
        kept, list(a.boids.data(), kept_whole, arrived_whole, arrivals, ghost_whole, spares, 1));
    exec.for_each(arrivals, list(incoming_boids_.data(), arrived_whole, kept_whole, kept,
                                 ghost_whole, spares, 1));
    exec.for_each(spares, list(incoming_boids_.data() + arrivals, ghost_whole, kept_whole, kept,
                               arrived_whole, arrivals, 0));
    std::swap(a.boids, a.scratch);
    std::swap(a.whole, spare_whole_);
    own.resize(n);
    exec.download(own.data(), own_.data(), n);
    return n;
  }

  // A part of `n` own boids, its places filled next: every slot's flag own, on the device
  // (the arrays' room: `room`) and in `own` (on the host).
  void open(const Executor& exec, index_t n, std::size_t room, std::vector<std::uint8_t>& own) {
    fit(exec, room);
    exec.for_each(n, kernels::OwnBefore{own_.data(), n});
    own.assign(n, 1);
  }

  // Uploads `boids` to places [at, at + boids.size()) of an opened part.
  template <typename Arrays>
  void fill(Executor& exec, const Arrays& a, index_t at, IndexedBoids boids, const World& world) {
    std::vector<Boid> packed(boids.size());
    std::vector<index_t> whole(boids.size());
    pack_own<Real, D>(packed.data(), whole.data(), 0, boids, world);
    exec.upload(a.boids.data() + at, packed.data(), packed.size());
    exec.upload(a.whole.data() + at, whole.data(), whole.size());
  }

  const std::uint8_t* own() const { return own_.data(); }  // by part slot

  std::uint64_t bytes() const {
    return own_.bytes() + spare_whole_.bytes() + edge_boids_.bytes() + edge_whole_.bytes() +
           incoming_boids_.bytes() + incoming_whole_.bytes();
  }

 private:
  // The flags and the spare index array as long as the part's arrays (their room).
  void fit(const Executor& exec, std::size_t room) {
    if (spare_whole_.size() == room) return;
    exec.synchronize();
    spare_whole_ = Buffer<index_t>(room);
    own_ = Buffer<std::uint8_t>(room);
  }

  Buffer<std::uint8_t> own_;     // by part slot: whether own (the split reads them)
  Buffer<index_t> spare_whole_;  // the whole-flock index array's other half
  Buffer<Boid> edge_boids_, incoming_boids_;
  Buffer<index_t> edge_whole_, incoming_whole_;
};

}  // namespace boids::flock_part
