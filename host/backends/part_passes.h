// A part of a larger flock (PartAccess, host/core/simulation.h) in a backend's arrays, and the
// passes over host memory that keep it between steps. Slot i of the backend's arrays holds
// the boid of part slot p = slots[i] (the hashed method's ids; p = i where `slots` is null:
// the naive method keeps its order); whole[p] is that boid's index in the whole flock, which
// keys its noise, and own[p] whether it is the part's own or a ghost.
//   split   one pass over the slots: ghosts dropped, own boids at the edge copied out, and
//           those still inside kept, in their order, as part slots 0, 1, ... (the hashed
//           method's next sort finds them in the last step's cell order)
//   append  the arrivals and the ghosts after the kept boids (hashed: the sort files them)
//   merge   the kept boids, the arrivals and the ghosts by their index in the whole flock
//           (naive: its sums then add the others in that order, as one process adds them in
//           input order, bit for bit)
#pragma once

#include <cmath>
#include <cstdint>
#include <stdexcept>
#include <vector>

#include "host/backends/flock_layout.h"
#include "host/core/simulation.h"
#include "host/parts/part_access.h"
#include "kernels/part_share.h"
#include "kernels/rules.h"

namespace boids::flock_part {

template <typename Real, int D>
IndexedBoid indexed_boid(const kernels::Boid<Real, D>& b, std::uint64_t id) {
  return {id,
          b.position[0],
          b.position[1],
          D == 3 ? static_cast<double>(b.position[D - 1]) : 0.0,
          b.velocity[0],
          b.velocity[1],
          D == 3 ? static_cast<double>(b.velocity[D - 1]) : 0.0};
}

template <typename Real, int D>
kernels::Boid<Real, D> packed_boid(const IndexedBoid& b, const World& world) {
  const double position[3] = {b.x, b.y, b.z}, velocity[3] = {b.vx, b.vy, b.vz};
  const double side[3] = {world.width, world.height, world.depth};
  kernels::Boid<Real, D> out;
  for (int a = 0; a < D; ++a) {
    out.position[a] = coordinate_in<Real>(position[a], side[a], world.torus());
    out.velocity[a] = static_cast<Real>(velocity[a]);
  }
  return out;
}

// Where a part's grid is a window of the world's along an axis (kernels/cell_grid.h), a
// ghost's coordinate along it is taken across the torus's edge where that brings it next to
// the slab, around `middle` (`side` 0: never).
struct Unwrap {
  int axis = 0;
  double middle = 0, side = 0;
};

// A ghost as the part steps it: its coordinates as they are (within the part's reach), not
// kept inside the world.
template <typename Real, int D>
kernels::Boid<Real, D> packed_ghost(const IndexedBoid& b, const Unwrap& unwrap) {
  double position[3] = {b.x, b.y, b.z};
  const double velocity[3] = {b.vx, b.vy, b.vz};
  if (unwrap.side > 0) {
    double& s = position[unwrap.axis];
    if (s - unwrap.middle > unwrap.side / 2) {
      s -= unwrap.side;
    } else if (unwrap.middle - s > unwrap.side / 2) {
      s += unwrap.side;
    }
  }
  kernels::Boid<Real, D> out;
  for (int a = 0; a < D; ++a) {
    out.position[a] = static_cast<Real>(position[a]);
    out.velocity[a] = static_cast<Real>(velocity[a]);
  }
  return out;
}

inline bool same_bounds(const PartBounds& a, const PartBounds& b) {
  return a.axis == b.axis && a.low == b.low && a.high == b.high && a.reach == b.reach;
}

// A part's grid: the rows of `whole` (the whole flock's grid, on a world of `side` along its
// last axis) around bounds `b` and its ghosts' reach, a row more each way, as a window from
// `origin`; `whole` itself where that would be all of it, or `b` cuts another axis.
template <typename Real, int D>
kernels::CellGrid<Real, D> window_of(kernels::CellGrid<Real, D> whole, double side,
                                     const PartBounds& b) {
  const double width = side / whole.counts[D - 1];
  const double first = std::floor((b.low - b.reach) / width) - 1;
  const double last = std::floor((b.high + b.reach) / width) + 1;
  if (b.axis == D - 1 && last - first + 1 < whole.counts[D - 1]) {
    whole.counts[D - 1] = static_cast<kernels::index_t>(last - first + 1);
    whole.origin = static_cast<Real>(first * width);
    whole.window = true;
  }
  return whole;
}

// The split of `count` slots: returns how many own boids stay, moved to boids[0, kept) in
// their order, with their indices in the whole flock in slots[0, kept), or in whole[0, kept)
// where `slots` is null (either way a slot is read before it is written). Their cell keys
// move with them where `keys` is not null.
template <typename Real, int D>
kernels::index_t split(kernels::Boid<Real, D>* boids, kernels::index_t* slots,
                       kernels::index_t* whole, kernels::index_t* keys,
                       const std::vector<std::uint8_t>& own, kernels::index_t count,
                       const PartBounds& bounds, std::vector<IndexedBoid>& edge) {
  kernels::index_t* kept_whole = slots ? slots : whole;
  kernels::index_t kept = 0;
  for (kernels::index_t i = 0; i < count; ++i) {
    const kernels::index_t p = slots ? slots[i] : i;
    if (!own[p]) continue;
    const kernels::Boid<Real, D> b = boids[i];
    const kernels::index_t id = whole[p];
    const double s = b.position[bounds.axis];
    if (!(s - bounds.low > bounds.reach && bounds.high - s > bounds.reach))
      edge.push_back(indexed_boid(b, id));
    if (s >= bounds.low && s < bounds.high) {
      boids[kept] = b;
      kept_whole[kept] = id;
      if (keys) keys[kept] = keys[i];
      ++kept;
    }
  }
  return kept;
}

// The part after `kept` boids (part slots 0 to kept - 1, all own) of `boids` and `whole`:
// the arrivals and then the ghosts, appended in place (the arrays hold room for them).
template <typename Real, int D>
void append(kernels::Boid<Real, D>* boids, kernels::index_t* whole, std::vector<std::uint8_t>& own,
            kernels::index_t kept, IndexedBoids arrived, IndexedBoids ghosts, const World& world,
            const Unwrap& unwrap) {
  own.assign(kept + arrived.size(), 1);
  own.resize(own.size() + ghosts.size(), 0);
  kernels::index_t at = kept;
  for (const IndexedBoid& b : arrived) {
    boids[at] = packed_boid<Real, D>(b, world);
    whole[at++] = static_cast<kernels::index_t>(b.id);
  }
  for (const IndexedBoid& b : ghosts) {
    boids[at] = packed_ghost<Real, D>(b, unwrap);
    whole[at++] = static_cast<kernels::index_t>(b.id);
  }
}

// The same merged by index in the whole flock, into `out_boids` and `out_whole`: the kept
// boids, the arrivals and the ghosts are each ascending by it.
template <typename Real, int D>
void merge(const kernels::Boid<Real, D>* boids, const kernels::index_t* whole,
           kernels::index_t kept, IndexedBoids arrived, IndexedBoids ghosts, const World& world,
           kernels::Boid<Real, D>* out_boids, kernels::index_t* out_whole,
           std::vector<std::uint8_t>& own) {
  own.clear();
  std::size_t k = 0, a = 0, g = 0, at = 0;
  constexpr std::uint64_t kNone = ~std::uint64_t{0};
  for (;;) {
    const std::uint64_t next_kept = k < kept ? whole[k] : kNone;
    const std::uint64_t next_arrived = a < arrived.size() ? arrived[a].id : kNone;
    const std::uint64_t next_ghost = g < ghosts.size() ? ghosts[g].id : kNone;
    if (next_kept == kNone && next_arrived == kNone && next_ghost == kNone) return;
    if (next_kept <= next_arrived && next_kept <= next_ghost) {
      out_boids[at] = boids[k++];
      out_whole[at] = static_cast<kernels::index_t>(next_kept);
      own.push_back(1);
    } else {
      const bool arrival = next_arrived <= next_ghost;
      const IndexedBoid& b = arrival ? arrived[a++] : ghosts[g++];
      out_boids[at] = arrival ? packed_boid<Real, D>(b, world) : packed_ghost<Real, D>(b, {});
      out_whole[at] = static_cast<kernels::index_t>(b.id);
      own.push_back(arrival ? 1 : 0);
    }
    ++at;
  }
}

// Appends the own boids of places [first, first + count) to `out`: `boids` and `slots` (null:
// each place its own slot) begin at place `first`; `whole` and `own` are by slot.
template <typename Real, int D>
void collect_own(const kernels::Boid<Real, D>* boids, const kernels::index_t* slots,
                 const kernels::index_t* whole_at, const std::vector<std::uint8_t>& own,
                 kernels::index_t first, kernels::index_t count, std::vector<IndexedBoid>& out) {
  // Room for them all at once (the own boids and the ghosts): grown boid by boid, the list held
  // the part's boids up to twice over while it moved them.
  out.reserve(out.size() + count);
  for (kernels::index_t i = 0; i < count; ++i) {
    const kernels::index_t p = slots ? slots[i] : first + i;
    if (own[p]) out.push_back(indexed_boid(boids[i], whole_at[i]));
  }
}

// A part's passes over a flock's arrays in `Executor`'s memory: in place where that is the
// host's, else over copies on the host (a GPU's part goes to the host and back each step; a
// split on the device, by a selection and a scan, is still to come; reading its own boids a
// piece at a time gathers on the device). It keeps whether each part slot is own.
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
  const std::vector<std::uint8_t>& own() const { return own_; }  // by part slot
  // Starts a part anew: the next call is its extend.
  void start() {
    own_.clear();
    split_ = true;
  }
  // A split leaves the part for its extend alone (a GPU's part is then only on the host).
  void check_whole() const {
    if (split_) throw std::logic_error("a part was split and not yet extended");
  }

  // Returns how many own boids stay, at the front of the arrays with their indices in whole
  // (on the host only, for a GPU's part, until extend uploads the part put together).
  index_t split(Executor& exec, const Arrays& a, const PartBounds& bounds,
                std::vector<IndexedBoid>& edge) {
    check_whole();
    split_ = true;
    Boid* boids = a.boids.data();
    index_t* slots = a.slots;
    index_t* whole = a.whole.data();
    if constexpr (!Executor::kHostMemory) {
      copy_to_host(exec, boids, slots, whole, a.count);
      boids = boids_.data();
      whole = whole_.data();
      slots = slots ? slots_.data() : nullptr;
    }
    const index_t kept =
        flock_part::split(boids, slots, whole, a.keys, own_, a.count, bounds, edge);
    if (slots) {  // the kept boids are part slots 0, 1, ... now
      for (index_t k = 0; k < kept; ++k) {
        whole[k] = slots[k];
        slots[k] = k;
      }
    }
    own_.assign(kept, 1);
    return kept;
  }

  // Puts the part together from the `kept` boids split left, `arrived` and `ghosts`, appended
  // or (`merged`) merged by index; the arrays hold room for them all. Returns the part's size.
  // In host memory, the appended boids' slots (and keys, on `grid`) are written too.
  index_t extend(Executor& exec, Arrays a, index_t kept, bool merged, IndexedBoids arrived,
                 IndexedBoids ghosts, const World& world, const Unwrap& unwrap,
                 const kernels::CellGrid<Real, D>& grid) {
    if (!split_) throw std::logic_error("a part is extended once after each split");
    split_ = false;
    const std::size_t n = kept + arrived.size() + ghosts.size();
    constexpr bool host = Executor::kHostMemory;
    if constexpr (!host) {
      boids_.resize(n);
      whole_.resize(n);
    }
    Boid* boids = host ? a.boids.data() : boids_.data();
    index_t* whole = host ? a.whole.data() : whole_.data();
    if (!merged) {
      append(boids, whole, own_, kept, arrived, ghosts, world, unwrap);
      if constexpr (host) {
        for (index_t k = kept; k < n; ++k) {
          if (a.slots) a.slots[k] = k;
          if (a.keys) {
            a.keys[k] = grid.key(boids[k].position);
            a.order[k] = k;
          }
        }
      }
    } else {
      merged_.resize(host ? 0 : n);
      merged_whole_.resize(n);
      Boid* into = host ? a.scratch.data() : merged_.data();
      merge(boids, whole, kept, arrived, ghosts, world, into, merged_whole_.data(), own_);
      if constexpr (host) {
        std::swap(a.boids, a.scratch);
        std::copy(merged_whole_.begin(), merged_whole_.end(), a.whole.data());
      }
      boids = into;
      whole = merged_whole_.data();
    }
    if constexpr (!host) {
      exec.upload(a.boids.data(), boids, n);
      exec.upload(a.whole.data(), whole, n);
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

 private:
  void copy_to_host(const Executor& exec, const Boid* boids, const index_t* slots,
                    const index_t* whole, index_t count) {
    boids_.resize(count);
    whole_.resize(count);
    slots_.resize(slots ? count : 0);
    exec.download(boids_.data(), boids, count);
    exec.download(whole_.data(), whole, count);
    if (slots) exec.download(slots_.data(), slots, count);
  }

  std::vector<std::uint8_t> own_;     // by part slot
  bool split_ = false;                // split, and not yet extended
  std::vector<Boid> boids_, merged_;  // a GPU's part on the host
  std::vector<index_t> slots_, whole_, merged_whole_;
};

}  // namespace boids::flock_part
