// One rank's share of a distributed flock: the boids of its slab (host/mpi/slabs.h), kept in
// the order of their input index in the whole flock. The slabs start, and every
// kBalanceEvery steps are moved, so that each holds about as many boids (a flock that gathers
// in a few places would load some ranks far more than others). Each step (step_once) it
//   ghosts   sends its boids within the radius of another slab to that slab's rank, and
//            receives theirs
//   steps    its boids and the ghosts together, in the order of their input index, on its
//            backend: the step of one process, seen from here (the naive method adds the
//            same neighbours in the same order, bit for bit; noise is keyed by the input
//            index); the ghosts' results are dropped
//   hands    each boid that left the slab to the rank that owns it now
// Every rank takes part in every step: the calls are collective.
#pragma once

#include <cstdint>
#include <memory>
#include <vector>

#include "host/flock.h"
#include "host/mpi/slabs.h"
#include "host/simulation.h"

namespace boids::mpi {

// A boid between ranks: its input index and its values (z and vz 0 in 2D).
struct BoidRecord {
  std::uint64_t id;
  double x, y, z, vx, vy, vz;
};

class RankFlock {
 public:
  // This rank's boids of `whole` (input order), `steps_taken` into their flight.
  RankFlock(const SimulationConfig& config, const FlockState& whole, std::uint64_t steps_taken);

  void step(std::uint64_t steps);

  // This rank's boids, by ascending input index.
  const std::vector<BoidRecord>& boids() const { return boids_; }
  std::uint64_t steps_taken() const { return steps_taken_; }
  std::uint64_t whole_count() const { return whole_count_; }
  // The largest rank's boids over the mean before the slabs were last balanced: at the start,
  // in slabs of equal width.
  double largest_share() const { return largest_share_; }
  // Bytes this rank's backend held at its last step.
  std::uint64_t bytes_allocated() const { return bytes_; }

 private:
  void step_once();
  double along(const BoidRecord& b) const;  // the coordinate the slabs cut
  std::vector<BoidRecord> exchange_ghosts() const;
  void hand_over(const std::vector<BoidRecord>& moved);
  void balance();

  SimulationConfig config_;
  Slabs slabs_;
  std::unique_ptr<Simulation> engine_;  // this rank's boids and ghosts on its backend
  FlockState before_, after_;           // the engine's flock before and after a step
  int rank_ = 0;
  std::uint64_t whole_count_ = 0, steps_taken_ = 0, bytes_ = 0;
  double largest_share_ = 1;
  std::vector<BoidRecord> boids_;
  // A step's arrays, kept between steps (see step_once).
  std::vector<BoidRecord> local_, spare_;
  std::vector<std::uint64_t> ids_;
  std::vector<std::size_t> mine_;
};

// The record of boid i of `state`, and the state of records (into `out`, keeping its arrays).
BoidRecord record_of(const FlockState& state, std::size_t i);
void fill_state(const std::vector<BoidRecord>& boids, int dimensions, FlockState& out);

}  // namespace boids::mpi
