#include "host/mpi/rank_flock.h"

#include <algorithm>
#include <limits>
#include <string>
#include <utility>

#include "host/checkpoint.h"
#include "host/cuda_device_choice.h"
#include "host/errors.h"
#include "host/mpi/communicator.h"
#include "host/value_limits.h"

namespace boids::mpi {
namespace {

bool by_id(const IndexedBoid& a, const IndexedBoid& b) {
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
double along_of(const IndexedBoid& b, int dimensions) {
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

IndexedBoid indexed_of(const FlockState& s, std::size_t i) {
  const bool box = s.dimensions == 3;
  return {i, s.x[i], s.y[i], box ? s.z[i] : 0.0, s.vx[i], s.vy[i], box ? s.vz[i] : 0.0};
}

// The slabs a flight starts on, balanced on the whole start, and how much the largest of
// equal slabs would have held over the mean (`largest_share`).
Slabs first_slabs(const FlockParams& p, const FlockState& whole, double& largest_share) {
  const int n = ranks();
  const std::vector<double>& along_axis = p.dimensions == 3 ? whole.z : whole.y;
  std::vector<std::uint64_t> bins = empty_bins(n);
  const Slabs equal = equal_slabs(side_of(p), p.world.torus(), n);
  std::vector<std::uint64_t> in_equal(static_cast<std::size_t>(n), 0);
  for (const double s : along_axis) {
    ++bins[bin_of(s, side_of(p), bins.size())];
    ++in_equal[static_cast<std::size_t>(equal.owner(s))];
  }
  largest_share = 1;
  if (whole.size() > 0) {
    largest_share = static_cast<double>(*std::max_element(in_equal.begin(), in_equal.end())) * n /
                    static_cast<double>(whole.size());
  }
  return balanced_slabs(side_of(p), p.world.torus(), n, bins);
}

}  // namespace

// Rank 0 holds the whole start: it balances the slabs on it and sends every rank the flight's
// settings, the slabs and its own boids (MPI_Scatterv), so that no other rank ever holds more
// than its share.
RankFlock RankFlock::start(const SimulationConfig& config, const FlockState* whole,
                           std::uint64_t steps_taken) {
  struct Shape {
    std::uint64_t whole_count, steps_taken;
    double largest_share;
  };
  std::string settings;  // the config, as a checkpoint of one boid
  Shape shape{0, 0, 1};
  Slabs slabs;
  std::vector<std::vector<IndexedBoid>> lists;
  if (rank() == 0) {
    FlockState one;
    one.dimensions = config.params.dimensions;
    one.resize(1);
    settings = format_checkpoint(Checkpoint{config, steps_taken, one, {0}});
    shape = {whole->size(), steps_taken, 1};
    slabs = first_slabs(config.params, *whole, shape.largest_share);
    lists.resize(static_cast<std::size_t>(ranks()));
    const std::vector<double>& along_axis = config.params.dimensions == 3 ? whole->z : whole->y;
    for (std::size_t i = 0; i < whole->size(); ++i) {
      lists[static_cast<std::size_t>(slabs.owner(along_axis[i]))].push_back(indexed_of(*whole, i));
    }
  }
  broadcast(settings);
  broadcast(&shape, sizeof shape);
  slabs.bounds.resize(static_cast<std::size_t>(ranks()) + 1);
  broadcast(slabs.bounds.data(), sizeof(double) * slabs.bounds.size());
  const std::vector<IndexedBoid> own = scatter(lists);
  lists = {};
  const Checkpoint c = parse_checkpoint(settings, "the flight rank 0 sent");
  slabs.side = side_of(c.config.params);
  slabs.torus = c.config.params.world.torus();
  return RankFlock(c.config, shape.whole_count, std::move(slabs), shape.largest_share, own,
                   shape.steps_taken);
}

// The backend's flock is made of one boid and started at once as this rank's part.
RankFlock::RankFlock(const SimulationConfig& config, std::uint64_t whole_count, Slabs slabs,
                     double largest_share, const std::vector<IndexedBoid>& own,
                     std::uint64_t steps_taken)
    : config_(config),
      slabs_(std::move(slabs)),
      rank_(rank()),
      whole_count_(whole_count),
      steps_taken_(steps_taken),
      largest_share_(largest_share),
      moved_to_(static_cast<std::size_t>(ranks())),
      ghosts_to_(static_cast<std::size_t>(ranks())) {
  config_.whole_count = whole_count_;
  if (config_.backend == Backend::kCuda) use_cuda_device_of_local_rank(local_rank());
  FlockState first;
  first.dimensions = config_.params.dimensions;
  first.resize(1);
  engine_ = make_simulation(config_, first);
  part_ = &engine_->part_access();
  part_->start_part(own, steps_taken_);
  find_neighbours();
}

double RankFlock::along(const IndexedBoid& b) const {
  return along_of(b, config_.params.dimensions);
}

std::vector<IndexedBoid> RankFlock::boids() const {
  std::vector<IndexedBoid> out;
  part_->own_boids(out);
  return out;
}

void RankFlock::step(std::uint64_t steps) {
  for (std::uint64_t s = 0; s < steps; ++s) {
    step_once();
    if (steps_taken_ % kBalanceEvery == 0) balance();
  }
}

// Moves the slab bounds so that each holds about as many boids, from the boids every rank
// counts in the bins of the axis; the next step's split hands over those whose slab changed.
void RankFlock::balance() {
  const FlockParams& p = config_.params;
  const std::vector<IndexedBoid> mine = boids();
  std::vector<std::uint64_t> bins = empty_bins(slabs_.ranks());
  for (const IndexedBoid& b : mine) ++bins[bin_of(along(b), side_of(p), bins.size())];
  sum_over_ranks(bins);
  const std::uint64_t largest = max_over_ranks(mine.size());
  largest_share_ = whole_count_ > 0 ? static_cast<double>(largest) * slabs_.ranks() /
                                          static_cast<double>(whole_count_)
                                    : 1.0;
  slabs_ = balanced_slabs(side_of(p), p.world.torus(), slabs_.ranks(), bins);
  find_neighbours();
  moved_slabs_ = true;
}

// A boid that leaves this slab lands within a step's move of it, and is a ghost of the slabs
// within reach of where it lands; one inside, of those within reach of the slab. (A hundredth
// more covers the rounding of a move.)
void RankFlock::find_neighbours() {
  const double radius = ghost_reach(config_) + 1.01 * furthest_move(config_.params);
  std::vector<int> ranks;
  for (const double edge : {slabs_.bounds[rank_], slabs_.bounds[rank_ + 1]}) {
    slabs_.ranks_within(edge, radius, rank_, ranks);
  }
  std::sort(ranks.begin(), ranks.end());
  ranks.erase(std::unique(ranks.begin(), ranks.end()), ranks.end());
  near_ = Neighbourhood(ranks);
}

PartBounds RankFlock::bounds() const {
  return {config_.params.dimensions - 1, slabs_.bounds[rank_], slabs_.bounds[rank_ + 1],
          ghost_reach(config_)};
}

void RankFlock::step_once() {
  exchange();
  engine_->step(1);
  ++steps_taken_;
}

void RankFlock::exchange() {
  const double reach = ghost_reach(config_);
  edge_.clear();
  part_->split_part(bounds(), edge_);
  for (std::vector<IndexedBoid>& to : moved_to_) to.clear();
  for (std::vector<IndexedBoid>& to : ghosts_to_) to.clear();
  // A boid that left the slab goes to its owner now, and as a ghost to the others near it
  // (this rank among them, maybe); one still inside, as a ghost to the others near it.
  bool near = !moved_slabs_;  // whether every record goes to a neighbour
  const std::vector<int>& neighbours = near_.ranks();
  const auto is_neighbour = [&](int k) {
    return std::binary_search(neighbours.begin(), neighbours.end(), k);
  };
  for (const IndexedBoid& b : edge_) {
    const double s = along(b);
    const int owner = slabs_.owner(s);
    if (owner != rank_) {
      moved_to_[owner].push_back(b);
      near = near && is_neighbour(owner);
    }
    within_.clear();
    slabs_.ranks_within(s, reach, owner, within_);
    for (const int k : within_) {
      ghosts_to_[k].push_back(b);
      near = near && is_neighbour(k);
    }
  }
  // A step's move seldom takes a boid beyond the neighbours (furthest_move does not count an
  // obstacle's push), but one that does sends this step's records to every rank.
  static const Neighbourhood every_rank;
  near = on_every_rank(near);
  std::vector<std::vector<IndexedBoid>> got =
      exchange_lists<IndexedBoid>({&moved_to_, &ghosts_to_}, near ? near_ : every_rank);
  moved_slabs_ = false;
  std::vector<IndexedBoid>& arrived = got[0];
  ghosts_ = std::move(got[1]);
  std::sort(arrived.begin(), arrived.end(), by_id);
  std::sort(ghosts_.begin(), ghosts_.end(), by_id);
  part_->extend_part(arrived, ghosts_);
}

}  // namespace boids::mpi
