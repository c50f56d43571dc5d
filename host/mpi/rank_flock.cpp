#include "host/mpi/rank_flock.h"

#include <algorithm>
#include <string>

#include "host/errors.h"
#include "host/mpi/communicator.h"

namespace boids::mpi {
namespace {

bool by_id(const BoidRecord& a, const BoidRecord& b) {
  return a.id < b.id;
}

// A ghost is sent wherever a boid lies within the radius of a slab, and a little beyond, so
// that rounding (a float flock's offsets) never leaves out a neighbour.
constexpr double kGhostMargin = 1.01;

Slabs slabs_for(const FlockParams& p, int ranks) {
  const World& w = p.world;
  const double side = p.dimensions == 3 ? w.depth : w.height;
  return equal_slabs(side, w.torus(), ranks);
}

}  // namespace

BoidRecord record_of(const FlockState& s, std::size_t i) {
  const bool box = s.dimensions == 3;
  return {i, s.x[i], s.y[i], box ? s.z[i] : 0.0, s.vx[i], s.vy[i], box ? s.vz[i] : 0.0};
}

FlockState state_of(const std::vector<BoidRecord>& boids, int dimensions) {
  FlockState s;
  s.dimensions = dimensions;
  s.resize(boids.size());
  for (std::size_t i = 0; i < boids.size(); ++i) {
    const BoidRecord& b = boids[i];
    s.x[i] = b.x;
    s.y[i] = b.y;
    s.vx[i] = b.vx;
    s.vy[i] = b.vy;
    if (dimensions == 3) {
      s.z[i] = b.z;
      s.vz[i] = b.vz;
    }
  }
  return s;
}

RankFlock::RankFlock(const SimulationConfig& config, const FlockState& whole,
                     std::uint64_t steps_taken)
    : config_(config),
      slabs_(slabs_for(config.params, ranks())),
      rank_(rank()),
      whole_count_(whole.size()),
      steps_taken_(steps_taken) {
  config_.whole_count = whole_count_;
  for (std::size_t i = 0; i < whole.size(); ++i) {
    BoidRecord b = record_of(whole, i);
    if (slabs_.owner(along(b)) == rank_) boids_.push_back(b);
  }
}

double RankFlock::along(const BoidRecord& b) const {
  return config_.params.dimensions == 3 ? b.z : b.y;
}

void RankFlock::step(std::uint64_t steps) {
  for (std::uint64_t s = 0; s < steps; ++s) step_once();
}

std::vector<BoidRecord> RankFlock::exchange_ghosts() const {
  const double reach = config_.params.radius * kGhostMargin;
  const double low = slabs_.bounds[rank_], high = slabs_.bounds[rank_ + 1];
  std::vector<std::vector<BoidRecord>> to_rank(slabs_.ranks());
  std::vector<int> near;
  for (const BoidRecord& b : boids_) {
    const double s = along(b);
    if (s - low > reach && high - s > reach) continue;  // no other slab is within reach
    near.clear();
    slabs_.ranks_within(s, reach, rank_, near);
    for (const int k : near) to_rank[k].push_back(b);
  }
  std::vector<BoidRecord> ghosts = exchange(to_rank);
  std::sort(ghosts.begin(), ghosts.end(), by_id);
  return ghosts;
}

void RankFlock::step_once() {
  const std::vector<BoidRecord> ghosts = exchange_ghosts();
  // This rank's boids and the ghosts by input index; mine[k] is where boid k of this rank
  // lies among them.
  std::vector<BoidRecord> local;
  local.reserve(boids_.size() + ghosts.size());
  std::merge(boids_.begin(), boids_.end(), ghosts.begin(), ghosts.end(), std::back_inserter(local),
             by_id);
  std::vector<std::uint64_t> ids(local.size());
  std::vector<std::size_t> mine;
  mine.reserve(boids_.size());
  for (std::size_t i = 0, k = 0; i < local.size(); ++i) {
    ids[i] = local[i].id;
    if (k < boids_.size() && boids_[k].id == local[i].id) {
      mine.push_back(i);
      ++k;
    }
  }
  std::vector<BoidRecord> moved;
  if (!local.empty()) {
    const int dimensions = config_.params.dimensions;
    const FlockState before = state_of(local, dimensions);
    const std::unique_ptr<Simulation> sim = make_simulation(config_, before);
    sim->resume(before, input_order(before.size()), steps_taken_);
    sim->key_noise_by(ids);
    sim->step(1);
    bytes_ = sim->bytes_allocated();
    const FlockState after = sim->state();
    std::vector<BoidRecord> kept;
    kept.reserve(boids_.size());
    for (const std::size_t i : mine) {
      BoidRecord b = record_of(after, i);
      b.id = ids[i];
      (slabs_.owner(along(b)) == rank_ ? kept : moved).push_back(b);
    }
    boids_ = std::move(kept);
  }
  hand_over(std::move(moved));
  ++steps_taken_;
}

void RankFlock::hand_over(std::vector<BoidRecord> moved) {
  std::vector<std::vector<BoidRecord>> to_rank(slabs_.ranks());
  for (const BoidRecord& b : moved) to_rank[slabs_.owner(along(b))].push_back(b);
  std::vector<BoidRecord> arrived = exchange(to_rank);
  std::sort(arrived.begin(), arrived.end(), by_id);
  std::vector<BoidRecord> all;
  all.reserve(boids_.size() + arrived.size());
  std::merge(boids_.begin(), boids_.end(), arrived.begin(), arrived.end(), std::back_inserter(all),
             by_id);
  boids_ = std::move(all);
}

}  // namespace boids::mpi
