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
    out.position[a] = coordinate_in<Real>(position[a], side[a], world.boundary);
    out.velocity[a] = static_cast<Real>(velocity[a]);
  }
  return out;
}

// Writes `own`, a part's own boids, from place `at` of `boids` and `whole`: each packed, beside
// its index in the whole flock. Returns the place after them.
template <typename Real, int D>
kernels::index_t pack_own(kernels::Boid<Real, D>* boids, kernels::index_t* whole,
                          kernels::index_t at, IndexedBoids own, const World& world) {
  for (const IndexedBoid& b : own) {
    boids[at] = packed_boid<Real, D>(b, world);
    whole[at++] = static_cast<kernels::index_t>(b.id);
  }
  return at;
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
  kernels::index_t at = pack_own<Real, D>(boids, whole, kept, arrived, world);
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

}  // namespace boids::flock_part
