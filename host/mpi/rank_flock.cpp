#include "host/mpi/rank_flock.h"

#include <algorithm>
#include <limits>
#include <string>

#include "host/errors.h"
#include "host/mpi/communicator.h"

namespace boids::mpi {
namespace {

bool by_id(const BoidRecord& a, const BoidRecord& b) {
  return a.id < b.id;
}

// A ghost is sent wherever a boid lies within the radius of a slab, and beyond it by more than
// the step's rounding of an offset can take off: a hundredth of the radius, and a few units in
// the last place of the world's widest side in the flock's precision (an offset across the
// torus's edge is a difference of two coordinates near the side, rounded there).
double ghost_reach(const SimulationConfig& c) {
  const World& w = c.params.world;
  double widest = std::max(w.width, w.height);
  if (c.params.dimensions == 3) widest = std::max(widest, w.depth);
  const double epsilon = c.precision == Precision::kFloat ? std::numeric_limits<float>::epsilon()
                                                          : std::numeric_limits<double>::epsilon();
  return 1.01 * c.params.radius + 8 * epsilon * widest;
}

// The slabs' axis, the last: y in 2D, z in 3D.
double along_of(const BoidRecord& b, int dimensions) {
  return dimensions == 3 ? b.z : b.y;
}
double side_of(const FlockParams& p) {
  return p.dimensions == 3 ? p.world.depth : p.world.height;
}

// Steps between moves of the slab bounds, and the bins of the axis a rank counts its boids in
// for them.
constexpr std::uint64_t kBalanceEvery = 100;
constexpr std::size_t kBinsPerRank = 64;

// The bins a rank counts boids in, to balance the slabs.
std::vector<std::uint64_t> empty_bins(int ranks) {
  return std::vector<std::uint64_t>(kBinsPerRank * static_cast<std::size_t>(ranks), 0);
}

}  // namespace

BoidRecord record_of(const FlockState& s, std::size_t i) {
  const bool box = s.dimensions == 3;
  return {i, s.x[i], s.y[i], box ? s.z[i] : 0.0, s.vx[i], s.vy[i], box ? s.vz[i] : 0.0};
}

void fill_state(const std::vector<BoidRecord>& boids, int dimensions, FlockState& s) {
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
}

// Every rank holds the whole start: each balances the slabs on it alone, alike.
RankFlock::RankFlock(const SimulationConfig& config, const FlockState& whole,
                     std::uint64_t steps_taken)
    : config_(config), rank_(rank()), whole_count_(whole.size()), steps_taken_(steps_taken) {
  config_.whole_count = whole_count_;
  const FlockParams& p = config_.params;
  const std::vector<double>& along_axis = p.dimensions == 3 ? whole.z : whole.y;
  std::vector<std::uint64_t> bins = empty_bins(ranks());
  const Slabs equal = equal_slabs(side_of(p), p.world.torus(), ranks());
  std::vector<std::uint64_t> in_equal(static_cast<std::size_t>(ranks()), 0);
  for (const double s : along_axis) {
    ++bins[bin_of(s, side_of(p), bins.size())];
    ++in_equal[static_cast<std::size_t>(equal.owner(s))];
  }
  if (whole_count_ > 0) {
    largest_share_ = static_cast<double>(*std::max_element(in_equal.begin(), in_equal.end())) *
                     ranks() / static_cast<double>(whole_count_);
  }
  slabs_ = balanced_slabs(side_of(p), p.world.torus(), ranks(), bins);
  for (std::size_t i = 0; i < whole.size(); ++i) {
    if (slabs_.owner(along_axis[i]) == rank_) boids_.push_back(record_of(whole, i));
  }
}

double RankFlock::along(const BoidRecord& b) const {
  return along_of(b, config_.params.dimensions);
}

void RankFlock::step(std::uint64_t steps) {
  for (std::uint64_t s = 0; s < steps; ++s) {
    step_once();
    if (steps_taken_ % kBalanceEvery == 0) balance();
  }
}

// Moves the slab bounds so that each holds about as many boids, from the boids every rank
// counts in the bins of the axis, and hands over the boids whose slab changed.
void RankFlock::balance() {
  const FlockParams& p = config_.params;
  std::vector<std::uint64_t> bins = empty_bins(slabs_.ranks());
  for (const BoidRecord& b : boids_) ++bins[bin_of(along(b), side_of(p), bins.size())];
  sum_over_ranks(bins);
  const std::uint64_t largest = max_over_ranks(boids_.size());
  largest_share_ = whole_count_ > 0 ? static_cast<double>(largest) * slabs_.ranks() /
                                          static_cast<double>(whole_count_)
                                    : 1.0;
  slabs_ = balanced_slabs(side_of(p), p.world.torus(), slabs_.ranks(), bins);
  std::vector<BoidRecord> moved;
  spare_.clear();
  for (const BoidRecord& b : boids_)
    (slabs_.owner(along(b)) == rank_ ? spare_ : moved).push_back(b);
  boids_.swap(spare_);
  hand_over(moved);
}

std::vector<BoidRecord> RankFlock::exchange_ghosts() const {
  const double reach = ghost_reach(config_);
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

// The step's arrays live as long as the rank's flock: made anew each step, the largest of
// them cost more in page faults than the step's own work.
void RankFlock::step_once() {
  const std::vector<BoidRecord> ghosts = exchange_ghosts();
  // This rank's boids and the ghosts by input index; mine_[k] is where boid k of this rank
  // lies among them.
  local_.clear();
  std::merge(boids_.begin(), boids_.end(), ghosts.begin(), ghosts.end(), std::back_inserter(local_),
             by_id);
  ids_.resize(local_.size());
  mine_.clear();
  for (std::size_t i = 0, k = 0; i < local_.size(); ++i) {
    ids_[i] = local_[i].id;
    if (k < boids_.size() && boids_[k].id == local_[i].id) {
      mine_.push_back(i);
      ++k;
    }
  }
  std::vector<BoidRecord> moved;
  if (!local_.empty()) {
    // The backend's flock is made once and loaded anew each step, in its arrays while they
    // are large enough.
    fill_state(local_, config_.params.dimensions, before_);
    if (!engine_) engine_ = make_simulation(config_, before_);
    engine_->load_part(before_, ids_, steps_taken_);
    engine_->step(1);
    bytes_ = engine_->bytes_allocated();
    after_.dimensions = config_.params.dimensions;
    after_.resize(local_.size());
    engine_->state_into(StateView::of(after_));
    spare_.clear();
    for (const std::size_t i : mine_) {
      BoidRecord b = record_of(after_, i);
      b.id = ids_[i];
      (slabs_.owner(along(b)) == rank_ ? spare_ : moved).push_back(b);
    }
    boids_.swap(spare_);
  }
  hand_over(moved);
  ++steps_taken_;
}

void RankFlock::hand_over(const std::vector<BoidRecord>& moved) {
  std::vector<std::vector<BoidRecord>> to_rank(slabs_.ranks());
  for (const BoidRecord& b : moved) to_rank[slabs_.owner(along(b))].push_back(b);
  std::vector<BoidRecord> arrived = exchange(to_rank);
  if (arrived.empty()) return;
  std::sort(arrived.begin(), arrived.end(), by_id);
  spare_.clear();
  std::merge(boids_.begin(), boids_.end(), arrived.begin(), arrived.end(),
             std::back_inserter(spare_), by_id);
  boids_.swap(spare_);
}

}  // namespace boids::mpi
