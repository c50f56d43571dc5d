// A flock in parts: what a part of a larger flock (a rank's share under MPI) offers beyond the
// Simulation interface, the records its boids travel in, and its share of the metrics. The
// kernel backends' flocks offer it (host/backends/part_passes.h); a rank asks for it with
// part_access(flock).
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

namespace boids {

class Simulation;

// A boid of a part of a larger flock, with its index in the whole flock (its input index,
// which keys its noise): what ranks send one another under MPI. z and vz are 0 in 2D.
struct IndexedBoid {
  std::uint64_t id;
  double x, y, z, vx, vy, vz;
};

// Boids read in place: a list's, or a run of one (a part's share of a rank's boids).
class IndexedBoids {
 public:
  IndexedBoids() = default;
  IndexedBoids(const std::vector<IndexedBoid>& list)  // NOLINT: a list is a run of boids
      : first_(list.data()), size_(list.size()) {}
  IndexedBoids(const IndexedBoid* first, std::size_t size) : first_(first), size_(size) {}
  const IndexedBoid* begin() const { return first_; }
  const IndexedBoid* end() const { return first_ + size_; }
  std::size_t size() const { return size_; }
  bool empty() const { return size_ == 0; }
  const IndexedBoid& operator[](std::size_t i) const { return first_[i]; }

 private:
  const IndexedBoid* first_ = nullptr;
  std::size_t size_ = 0;
};

// Where a part's own boids belong: along `axis` (0 = x, 1 = y, 2 = z), in [low, high) (a
// rank's slab). An own boid within `reach` of either end, or outside them, is at the edge.
struct PartBounds {
  int axis = 0;
  double low = 0, high = 0, reach = 0;
};

// A part's share of the whole flock's metrics (PartAccess::measure_part): what it can tell
// alone, for host/parts/joined_metrics.h to add up over the parts and join. Sums are over the own
// boids; a flock (a component of the graph of pairs closer than r) is named by a label, the
// index in the whole flock of one of its boids.
struct PartMetrics {
  std::uint64_t own = 0;
  double headings[3] = {}, velocities[3] = {};  // unit headings, velocities
  double neighbors = 0;                         // other boids closer than r
  double nearest = 0;     // distances to the nearest other boid, where it is surely in the part
  double centre[6] = {};  // the sums that place the flock's centre, two per axis (milling)
  // The own boids whose nearest boid may lie in another part, each with the nearest distance
  // found here (-1: none).
  std::vector<IndexedBoid> far;
  std::vector<double> far_nearest;
  // The part's flocks among its boids and ghosts that hold no ghost and no boid at the edge:
  // whole flocks of the whole flock, and the boids in the largest.
  std::uint64_t inner_flocks = 0, largest_inner = 0;
  // The others: pieces of flocks that other parts may join.
  struct Piece {
    std::uint64_t label, own;  // own: the piece's own boids
  };
  struct Member {
    std::uint64_t id, label;  // a boid's index in the whole flock, and its piece's label
  };
  std::vector<Piece> pieces;
  std::vector<Member> ghosts;  // every ghost
  std::vector<Member> edge;    // every own boid within the ghosts' reach of a face, by id
};

// A part of a larger flock that stays in a backend between steps (a rank's share under MPI,
// host/mpi/rank_flock.h): its own boids, and ghosts, copies of other parts' boids near its own
// that it steps with them, read-only, and drops. A boid is known by its index in the whole
// flock (below 2^32), which keys its noise, so a part flies its boids as the whole flock does.
// Only the boids that change hands or serve as ghosts pass through the host's records; the
// rest keep their place in the backend's arrays and order.
class PartAccess {
 public:
  // Replaces the flock by `own` (ascending by id), `steps_taken` steps into its flight.
  void start_part(IndexedBoids own, std::uint64_t steps_taken) {
    open_part(own.size(), steps_taken);
    fill_part(0, own);
  }
  // The same a piece at a time, so that the part's boids are never held twice (a rank's start,
  // handed over in pieces): replaces the flock by `count` own boids, `steps_taken` steps into
  // its flight, whose places fill_part writes, each once, before any other call. The part is
  // then what start_part makes of them in the order of their places (ascending by id).
  virtual void open_part(std::uint64_t count, std::uint64_t steps_taken) = 0;
  virtual void fill_part(std::uint64_t at, IndexedBoids boids) = 0;

  // Drops the ghosts, appends to `edge` every own boid at the edge of `bounds` (or outside
  // them), and removes from the part those outside them.
  virtual void split_part(const PartBounds& bounds, std::vector<IndexedBoid>& edge) = 0;

  // Adds `arrived` to the own boids and `ghosts` as ghosts, each ascending by id.
  virtual void extend_part(IndexedBoids arrived, IndexedBoids ghosts) = 0;

  // The own boids, into `out` (replaced), in the backend's order.
  void own_boids(std::vector<IndexedBoid>& out) const { own_boids(out, 0, held()); }
  // The own boids among the backend's places [first, first + count) (its own boids and
  // ghosts, in its order; clipped to held()), into `out` (replaced): a part read a piece at a
  // time, never copied whole.
  virtual void own_boids(std::vector<IndexedBoid>& out, std::uint64_t first,
                         std::uint64_t count) const = 0;
  // The boids the backend holds: the own boids and the ghosts.
  virtual std::uint64_t held() const = 0;

  // The part's share of the whole flock's metrics, its ghosts those of an extend since the
  // last step (fresh), its own boids in `bounds` (whose reach is the ghosts').
  virtual PartMetrics measure_part(const PartBounds& bounds) = 0;
  // The own boids' sums of (unit offset from `centre`, the whole flock's) x (unit heading),
  // for its milling: (x, y, z), z alone in 2D. After measure_part, before the part steps.
  virtual void part_turning(const double (&centre)[3], double (&out)[3]) = 0;

 protected:
  ~PartAccess() = default;
};

// `flock` as a part. Throws InputError for a backend that flies whole flocks only (the
// reference).
PartAccess& part_access(Simulation& flock);

}  // namespace boids
