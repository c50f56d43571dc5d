// One rank's share of a distributed flock: the boids of its slab (host/mpi/slabs.h), kept in
// its backend between steps as a part of the whole flock (PartAccess, host/simulation.h). The
// slabs start, and every kBalanceEvery steps are moved, so that each holds about as many
// boids (a flock that gathers in a few places would load some ranks far more than others).
// Each step (step_once) it
//   splits   its own boids at the slab's edges out of the backend, and drops its ghosts
//   sends    each that left the slab to the rank that owns it now, and each within the radius
//            of another slab to that slab's rank as a ghost; receives the same
//   steps    its boids and the ghosts together on its backend: the step of one process, seen
//            from here (noise is keyed by the input index; the naive method adds the
//            neighbours in input order, bit for bit; the hashed one adds the same neighbours,
//            in another order); the ghosts' results are dropped at the next split
// Only the boids at the edges pass through the host; the rest stay in the backend's arrays,
// in its order (the hashed method's sort finds them in cell order). Every rank takes part in
// every step: the calls are collective.
#pragma once

#include <cstdint>
#include <memory>
#include <vector>

#include "host/mpi/communicator.h"
#include "host/mpi/slabs.h"
#include "host/simulation.h"

namespace boids::mpi {

class RankFlock {
 public:
  // Every rank's part of a start, together: rank 0 (`whole`, in input order, not null) cuts
  // the flock into slabs and sends each rank its boids; `config` is read on rank 0 alone.
  static RankFlock start(const SimulationConfig& config, const FlockState* whole,
                         std::uint64_t steps_taken);

  // This rank's share of a flock of `whole_count` boids cut into `slabs`: its boids `own`
  // (ascending by index), `steps_taken` into their flight.
  RankFlock(const SimulationConfig& config, std::uint64_t whole_count, Slabs slabs,
            double largest_share, const std::vector<IndexedBoid>& own, std::uint64_t steps_taken);

  void step(std::uint64_t steps);

  // The whole flock's metrics at rank 0 (elsewhere, what this rank knows of them): each rank
  // measures its boids where they lie, with ghosts brought up to date by an exchange without
  // a step, and the ranks add their shares and join their flocks' pieces
  // (host/mpi/rank_metrics.cpp). The flight goes on as it would have.
  FlockMetrics metrics();

  // This rank's boids, in its backend's order.
  std::vector<IndexedBoid> boids() const;
  std::uint64_t steps_taken() const { return steps_taken_; }
  std::uint64_t whole_count() const { return whole_count_; }
  // The largest rank's boids over the mean before the slabs were last balanced: at the start,
  // in slabs of equal width.
  double largest_share() const { return largest_share_; }
  // Bytes this rank's backend holds.
  std::uint64_t bytes_allocated() const { return engine_->bytes_allocated(); }

 private:
  void step_once();
  // Split, hand over and extend: the first half of a step, after which the part holds fresh
  // ghosts (kept in ghosts_).
  void exchange();
  PartBounds bounds() const;
  // metrics()'s collective parts.
  double far_nearest(const PartMetrics& m);
  FlockCount join_flocks(const PartMetrics& m);
  double along(const IndexedBoid& b) const;  // the coordinate the slabs cut
  void balance();

  SimulationConfig config_;
  Slabs slabs_;
  std::unique_ptr<Simulation> engine_;  // this rank's boids and ghosts on its backend
  PartAccess* part_ = nullptr;          // engine_ as a part
  int rank_ = 0;
  std::uint64_t whole_count_ = 0, steps_taken_ = 0;
  double largest_share_ = 1;
  // A step's records, kept between steps.
  std::vector<IndexedBoid> edge_, ghosts_;  // ghosts_: the last exchange's, ascending by id
  std::vector<std::vector<IndexedBoid>> moved_to_, ghosts_to_;  // by rank
  std::vector<int> within_;
  // The ranks a step's exchange goes to: those whose slabs lie within a ghost's reach and a
  // step's move of this one's. A step after the slabs moved goes to every rank (its boids may
  // lie anywhere).
  Neighbourhood near_;
  bool moved_slabs_ = false;
  void find_neighbours();
};

}  // namespace boids::mpi
