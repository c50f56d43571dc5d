// A part of a larger flock in a backend's arrays between steps (PartAccess, for
// KernelSimulation): its split and extend in the executor's memory, by the host's passes
// (host/backends/part_passes.h) or a device's (host/backends/device_part_passes.h), and whether
// each part slot is own.
#pragma once

#include <algorithm>
#include <cstdint>
#include <numeric>
#include <stdexcept>
#include <utility>
#include <vector>

#include "host/backends/device_part_passes.h"
#include "host/backends/part_passes.h"
#include "host/core/simulation.h"
#include "host/parts/part_access.h"
#include "kernels/part_share.h"

namespace boids::flock_part {

// A part's passes over a flock's arrays in `Executor`'s memory: in place on the host, and
// where a device holds them, by selections and merges there (DevicePasses,
// host/backends/device_part_passes.h). It keeps whether each part slot is own.
template <typename Real, int D, typename Executor>
class Passes {
 public:
  using Boid = kernels::Boid<Real, D>;
  using index_t = kernels::index_t;
  template <typename T>
  using Buffer = typename Executor::template Buffer<T>;

  // The arrays of a part of `count` boids: `slots` is the hashed method's ids (null for the
  // naive method, which keeps its order) and `whole` the boids' indices in the whole flock.
  // `keys` and `order`, where not null, are the hashed step's keys of the next sort and its
  // identity, kept through split and extend (in host memory).
  struct Arrays {
    Buffer<Boid>& boids;
    Buffer<Boid>& scratch;
    Buffer<index_t>& whole;
    index_t* slots;
    index_t count;
    index_t* keys;
    index_t* order;
  };

  bool holds(std::uint64_t count) const { return own_.size() == count; }
  // Whether each part slot is own, in the executor's memory (a device's passes keep the flags
  // there too).
  const std::uint8_t* own_flags() const {
    if constexpr (Executor::kHostMemory) {
      return own_.data();
    } else {
      return device_.own();
    }
  }
  // Starts a part anew: the next call is its extend.
  void start() {
    own_.clear();
    split_ = true;
  }
  // A split leaves the part for its extend alone.
  void check_whole() const {
    if (split_) throw std::logic_error("a part was split and not yet extended");
  }

  // Returns how many own boids stay, at the front of the arrays with their indices in whole.
  index_t split(Executor& exec, const Arrays& a, const PartBounds& bounds,
                std::vector<IndexedBoid>& edge) {
    check_whole();
    split_ = true;
    index_t kept = 0;
    if constexpr (Executor::kHostMemory) {
      kept = flock_part::split(a.boids.data(), a.slots, a.whole.data(), a.keys, own_, a.count,
                               bounds, edge);
      if (a.slots) {  // the kept boids are part slots 0, 1, ... now
        for (index_t k = 0; k < kept; ++k) {
          a.whole.data()[k] = a.slots[k];
          a.slots[k] = k;
        }
      }
    } else {
      kept = device_.split(exec, a, bounds, edge);
    }
    own_.assign(kept, 1);
    return kept;
  }

  // Makes a part just started `n` own boids long (PartAccess::open_part), each its own slot;
  // fill writes their places next. Returns the part's size.
  index_t open(Executor& exec, const Arrays& a, index_t n) {
    if (!split_) throw std::logic_error("a part is opened once, just after its start");
    split_ = false;
    if constexpr (Executor::kHostMemory) {
      own_.assign(n, 1);
      if (a.slots) std::iota(a.slots, a.slots + n, index_t{0});
    } else {
      device_.open(exec, n, a.whole.size(), own_);
    }
    return n;
  }

  // Writes `boids` to places [at, at + boids.size()) of an opened part.
  void fill(Executor& exec, const Arrays& a, index_t at, IndexedBoids boids, const World& world) {
    check_whole();
    if constexpr (Executor::kHostMemory) {
      pack_own<Real, D>(a.boids.data(), a.whole.data(), at, boids, world);
    } else {
      device_.fill(exec, a, at, boids, world);
    }
  }

  // Puts the part together from the `kept` boids split left, `arrived` and `ghosts`, appended
  // or (`merged`) merged by index; the arrays hold room for them all. Returns the part's size.
  // In host memory, the appended boids' slots (and keys, on `grid`) are written too.
  index_t extend(Executor& exec, Arrays a, index_t kept, bool merged, IndexedBoids arrived,
                 IndexedBoids ghosts, const World& world, const Unwrap& unwrap,
                 const kernels::CellGrid<Real, D>& grid) {
    if (!split_) throw std::logic_error("a part is extended once after each split");
    split_ = false;
    if constexpr (!Executor::kHostMemory) {
      return device_.extend(exec, a, kept, merged, arrived, ghosts, world, unwrap, own_);
    }
    const std::size_t n = kept + arrived.size() + ghosts.size();
    if (!merged) {
      append(a.boids.data(), a.whole.data(), own_, kept, arrived, ghosts, world, unwrap);
      for (index_t k = kept; k < n; ++k) {
        if (a.slots) a.slots[k] = k;
        if (a.keys) {
          a.keys[k] = grid.key(a.boids.data()[k].position);
          a.order[k] = k;
        }
      }
    } else {
      merged_whole_.resize(n);
      merge(a.boids.data(), a.whole.data(), kept, arrived, ghosts, world, a.scratch.data(),
            merged_whole_.data(), own_);
      std::swap(a.boids, a.scratch);
      std::copy(merged_whole_.begin(), merged_whole_.end(), a.whole.data());
    }
    return static_cast<index_t>(n);
  }

  // The own boids of places [first, first + n) of the flock. Each place's index in the whole
  // flock is gathered where the part lives (WholeOfPlaces): a GPU's part sends the host its n
  // places' boids, slots and indices, never the whole index array.
  void own_boids(const Executor& exec, const Boid* boids, const index_t* slots,
                 const index_t* whole, index_t first, index_t n,
                 std::vector<IndexedBoid>& out) const {
    check_whole();
    std::vector<index_t> whole_at(n);
    if constexpr (Executor::kHostMemory) {
      exec.for_each(n, kernels::WholeOfPlaces{slots, whole, first, whole_at.data()});
    } else {
      Buffer<index_t> gathered(n);
      exec.for_each(n, kernels::WholeOfPlaces{slots, whole, first, gathered.data()});
      exec.download(whole_at.data(), gathered.data(), n);
    }
    boids += first;
    if (slots) slots += first;
    std::vector<Boid> host_boids;
    std::vector<index_t> host_slots;
    if constexpr (!Executor::kHostMemory) {
      host_boids.resize(n);
      exec.download(host_boids.data(), boids, n);
      if (slots) {
        host_slots.resize(n);
        exec.download(host_slots.data(), slots, n);
        slots = host_slots.data();
      }
      boids = host_boids.data();
    }
    out.clear();
    collect_own(boids, slots, whole_at.data(), own_, first, n, out);
  }

  // The memory a device's passes keep (the host's keep none beyond the flags).
  std::uint64_t bytes() const { return device_.bytes(); }

 private:
  std::vector<std::uint8_t> own_;           // by part slot
  bool split_ = false;                      // split, and not yet extended
  std::vector<index_t> merged_whole_;       // the host's merge
  DevicePasses<Real, D, Executor> device_;  // unused in host memory (its buffers stay empty)
};

}  // namespace boids::flock_part
