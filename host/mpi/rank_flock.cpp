#include "host/mpi/rank_flock.h"

#include <algorithm>
#include <limits>
#include <stdexcept>
#include <string>
#include <utility>

#include "host/backends/cuda_device_choice.h"
#include "host/base/errors.h"
#include "host/core/value_limits.h"
#include "host/io/checkpoint.h"
#include "host/model/initial_state.h"
#include "host/mpi/communicator.h"
#include "host/parts/part_access.h"

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

// The slabs a flight starts on, balanced on the start's coordinates along their axis (`along`:
// the whole start, or with `over_ranks` every rank's part of it), and how much the largest of
// equal slabs would have held over the mean (`largest_share`).
Slabs first_slabs(const FlockParams& p, const std::vector<double>& along, bool over_ranks,
                  double& largest_share) {
  const int n = ranks();
  std::vector<std::uint64_t> bins = empty_bins(n);
  const Slabs equal = equal_slabs(side_of(p), p.world.torus(), n);
  std::vector<std::uint64_t> in_equal(static_cast<std::size_t>(n), 0);
  for (const double s : along) {
    ++bins[bin_of(s, side_of(p), bins.size())];
    ++in_equal[static_cast<std::size_t>(equal.owner(s))];
  }
  if (over_ranks) {
    sum_over_ranks(bins);
    sum_over_ranks(in_equal);
  }
  std::uint64_t whole = 0;
  for (const std::uint64_t c : in_equal) whole += c;
  largest_share = 1;
  if (whole > 0) {
    largest_share = static_cast<double>(*std::max_element(in_equal.begin(), in_equal.end())) * n /
                    static_cast<double>(whole);
  }
  return balanced_slabs(side_of(p), p.world.torus(), n, bins);
}

// The flight's settings, from rank 0 on every rank: its configuration, as a checkpoint of one
// boid (`first`, the flock's first: a checkpoint's boids are held to a start's rules, outside
// the obstacles, at the Vicsek speed V, which a made-up boid may break).
SimulationConfig broadcast_config(const SimulationConfig& config, const FlockState& first,
                                  std::uint64_t steps_taken) {
  std::string settings;
  if (rank() == 0) settings = format_checkpoint(Checkpoint{config, steps_taken, first, {0}});
  broadcast(settings);
  return parse_checkpoint(settings, "the flight rank 0 sent").config;
}

FlockState first_boid_of(const FlockState& whole) {
  FlockState one;
  one.dimensions = whole.dimensions;
  one.resize(1);
  one.x[0] = whole.x[0];
  one.y[0] = whole.y[0];
  one.vx[0] = whole.vx[0];
  one.vy[0] = whole.vy[0];
  if (one.dimensions == 3) {
    one.z[0] = whole.z[0];
    one.vz[0] = whole.vz[0];
  }
  return one;
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
  Shape shape{0, 0, 1};
  Slabs slabs;
  std::vector<std::vector<IndexedBoid>> lists;
  const SimulationConfig flight =
      broadcast_config(config, rank() == 0 ? first_boid_of(*whole) : FlockState(), steps_taken);
  if (rank() == 0) {
    shape = {whole->size(), steps_taken, 1};
    const std::vector<double>& along_axis = config.params.dimensions == 3 ? whole->z : whole->y;
    slabs = first_slabs(config.params, along_axis, /*over_ranks=*/false, shape.largest_share);
    lists.resize(static_cast<std::size_t>(ranks()));
    for (std::size_t i = 0; i < whole->size(); ++i) {
      lists[static_cast<std::size_t>(slabs.owner(along_axis[i]))].push_back(indexed_of(*whole, i));
    }
  }
  broadcast(&shape, sizeof shape);
  slabs.bounds.resize(static_cast<std::size_t>(ranks()) + 1);
  broadcast(slabs.bounds.data(), sizeof(double) * slabs.bounds.size());
  std::vector<IndexedBoid> own = scatter(lists);
  lists = {};
  slabs.side = side_of(flight.params);
  slabs.torus = flight.params.world.torus();
  return RankFlock(flight, shape.whole_count, std::move(slabs), shape.largest_share, std::move(own),
                   shape.steps_taken);
}

// Every rank draws the boids of its stripe of the input indices (a boid's start depends on
// the seed and its index alone) twice, in pieces: first to count them along the slabs' axis
// for the balance, then to hand each piece's boids to the ranks whose slabs hold them. A rank
// holds its share, its stripe's coordinates along the axis, and a piece.
RankFlock RankFlock::draw(const SimulationConfig& config, std::uint64_t count) {
  std::uint64_t whole = count;
  broadcast(&whole, sizeof whole);
  const SimulationConfig flight = broadcast_config(
      config, rank() == 0 ? make_initial_boids(0, 1, config.seed, config.params) : FlockState(), 0);
  const FlockParams& p = flight.params;
  const auto n = static_cast<std::uint64_t>(ranks()), k = static_cast<std::uint64_t>(rank());
  const std::uint64_t first = whole * k / n, last = whole * (k + 1) / n;
  constexpr std::uint64_t kPiece = 65536;
  const auto draw_piece = [&](std::uint64_t at) {
    return make_initial_boids(at, at < last ? std::min(kPiece, last - at) : 0, flight.seed, p);
  };
  std::vector<double> along;
  along.reserve(last - first);
  for (std::uint64_t at = first; at < last; at += kPiece) {
    const FlockState drawn = draw_piece(at);
    const std::vector<double>& axis = p.dimensions == 3 ? drawn.z : drawn.y;
    along.insert(along.end(), axis.begin(), axis.end());
  }
  double largest_share = 1;
  Slabs slabs = first_slabs(p, along, /*over_ranks=*/true, largest_share);
  slabs.side = side_of(p);
  slabs.torus = p.world.torus();
  std::vector<std::uint64_t> held(static_cast<std::size_t>(ranks()), 0);
  for (const double s : along) ++held[static_cast<std::size_t>(slabs.owner(s))];
  sum_over_ranks(held);
  along = {};
  std::vector<IndexedBoid> own;
  own.reserve(held[static_cast<std::size_t>(rank())]);
  // As many pieces on every rank (the stripes differ by a boid at most): each piece's boids in
  // the order of the ranks they go to, received where the rank's share grows.
  const auto owner = [&](const IndexedBoid& b) { return slabs.owner(along_of(b, p.dimensions)); };
  const std::uint64_t widest = (whole + n - 1) / n, pieces = (widest + kPiece - 1) / kPiece;
  std::vector<IndexedBoid> piece;
  std::vector<std::size_t> counts(static_cast<std::size_t>(ranks()));
  for (std::uint64_t r = 0; r < pieces; ++r) {
    const std::uint64_t at = first + r * kPiece;
    const FlockState drawn = draw_piece(at);
    piece.clear();
    for (std::size_t i = 0; i < drawn.size(); ++i) {
      piece.push_back(indexed_of(drawn, i));
      piece.back().id = at + i;
    }
    std::sort(piece.begin(), piece.end(),
              [&](const IndexedBoid& a, const IndexedBoid& b) { return owner(a) < owner(b); });
    std::fill(counts.begin(), counts.end(), 0);
    for (const IndexedBoid& b : piece) ++counts[static_cast<std::size_t>(owner(b))];
    const std::vector<IndexedBoid> got = to_ranks(piece, counts);
    own.insert(own.end(), got.begin(), got.end());
  }
  return RankFlock(flight, whole, std::move(slabs), largest_share, std::move(own), 0);
}

// The backend's flock is made of one boid and started at once as this rank's part.
RankFlock::RankFlock(const SimulationConfig& config, std::uint64_t whole_count, Slabs slabs,
                     double largest_share, std::vector<IndexedBoid> own, std::uint64_t steps_taken)
    : config_(config),
      slabs_(std::move(slabs)),
      rank_(rank()),
      whole_count_(whole_count),
      steps_taken_(steps_taken),
      largest_share_(largest_share),
      moved_to_(static_cast<std::size_t>(ranks())),
      ghosts_to_(static_cast<std::size_t>(ranks())) {
  config_.whole_count = whole_count_;
  band_ = 2 * ghost_reach(config_) + 2.02 * furthest_move(config_.params);
  if (config_.backend == Backend::kCuda) use_cuda_device_of_local_rank(local_rank());
  cut_parts();
  start_parts(std::move(own));
  find_neighbours();
}

// A slab at least four bands wide is held as three parts, a band at each face and the
// interior; a narrower one as one part.
void RankFlock::cut_parts() {
  const double low = slabs_.bounds[rank_], high = slabs_.bounds[rank_ + 1];
  const std::size_t before = cuts_.bounds.empty() ? 0 : cuts_.bounds.size() - 1;
  cuts_.side = slabs_.side;
  cuts_.torus = slabs_.torus;
  if (high - low >= 4 * band_) {
    cuts_.bounds = {low, low + band_, high - band_, high};
  } else {
    cuts_.bounds = {low, high};
  }
  if (before > 0 && before != parts_.size()) throw std::logic_error("parts and cuts apart");
  if (before > 0 && cuts_.bounds.size() - 1 != before) start_parts(boids());
}

// The parts made anew, each started with the boids of `own` in its bounds (a boid beyond
// them, in the part nearest it: its split hands it over), read where they lie in `own`.
void RankFlock::start_parts(std::vector<IndexedBoid> own) {
  const std::size_t n = cuts_.bounds.size() - 1;
  const auto part_of = [&](const IndexedBoid& b) {
    return static_cast<std::size_t>(cuts_.owner(along(b)));
  };
  std::sort(own.begin(), own.end(), [&](const IndexedBoid& a, const IndexedBoid& b) {
    const std::size_t pa = part_of(a), pb = part_of(b);
    return pa != pb ? pa < pb : a.id < b.id;
  });
  FlockState first;
  first.dimensions = config_.params.dimensions;
  first.resize(1);
  parts_.clear();
  parts_.resize(n);
  std::size_t from = 0;
  for (std::size_t k = 0; k < n; ++k) {
    std::size_t to = from;
    while (to < own.size() && part_of(own[to]) == k) ++to;
    parts_[k].engine = make_simulation(config_, first);
    parts_[k].access = &part_access(*parts_[k].engine);
    parts_[k].access->start_part({own.data() + from, to - from}, steps_taken_);
    from = to;
  }
}

std::uint64_t RankFlock::bytes_allocated() const {
  std::uint64_t bytes = 0;
  for (const Part& part : parts_) bytes += part.engine->bytes_allocated();
  return bytes;
}

double RankFlock::along(const IndexedBoid& b) const {
  return along_of(b, config_.params.dimensions);
}

std::vector<IndexedBoid> RankFlock::boids() const {
  std::vector<IndexedBoid> out, part;
  for (const Part& p : parts_) {
    p.access->own_boids(part);
    out.insert(out.end(), part.begin(), part.end());
  }
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

PartBounds RankFlock::bounds_of(std::size_t part) const {
  return {config_.params.dimensions - 1, cuts_.bounds[part], cuts_.bounds[part + 1],
          ghost_reach(config_)};
}

void RankFlock::step_once() {
  exchange(/*step=*/true);
  ++steps_taken_;
}

void RankFlock::exchange(bool step) {
  const double reach = ghost_reach(config_);
  cut_parts();
  edge_.clear();
  edge_from_.clear();
  for (std::size_t k = 0; k < parts_.size(); ++k) {
    parts_[k].arrived.clear();
    parts_[k].ghosts.clear();
    parts_[k].access->split_part(bounds_of(k), edge_);
    edge_from_.resize(edge_.size(), k);
  }
  for (std::vector<IndexedBoid>& to : moved_to_) to.clear();
  for (std::vector<IndexedBoid>& to : ghosts_to_) to.clear();
  // A boid that left the slab goes to its owner now, and as a ghost to the others near it
  // (this rank among them, maybe); one still inside, to the part it lies in and as a ghost to
  // the other parts and ranks near it.
  bool near = !moved_slabs_;  // whether every record goes to a neighbour
  bool shallow = true;        // whether every boid that changes ranks stays in a band
  const std::vector<int>& neighbours = near_.ranks();
  const auto is_neighbour = [&](int k) {
    return std::binary_search(neighbours.begin(), neighbours.end(), k);
  };
  for (std::size_t i = 0; i < edge_.size(); ++i) {
    const IndexedBoid& b = edge_[i];
    const double s = along(b);
    const int owner = slabs_.owner(s);
    if (owner == rank_) {
      const int part = cuts_.owner(s);
      if (static_cast<std::size_t>(part) != edge_from_[i]) parts_[part].arrived.push_back(b);
      within_.clear();
      cuts_.ranks_within(s, reach, part, within_);
      for (const int k : within_) parts_[k].ghosts.push_back(b);
    } else {
      moved_to_[owner].push_back(b);
      near = near && is_neighbour(owner);
      const double depth = std::min(s - slabs_.bounds[owner], slabs_.bounds[owner + 1] - s);
      // (a quarter of the reach to spare, so that no rounding of where the parts' bounds lie
      // files it with the interior)
      shallow = shallow && depth < band_ - 1.25 * reach;
    }
    within_.clear();
    slabs_.ranks_within(s, reach, owner, within_);
    for (const int k : within_) {
      ghosts_to_[k].push_back(b);
      near = near && is_neighbour(k);
    }
  }
  // A step's move seldom takes a boid beyond the neighbours, or deeper than a band
  // (furthest_move does not count an obstacle's push), but one that does sends this step's
  // records to every rank, or makes the interior wait for them.
  static const Neighbourhood every_rank;
  const std::vector<bool> all = on_every_rank({near, shallow});
  ListExchange<IndexedBoid> received({&moved_to_, &ghosts_to_}, all[0] ? near_ : every_rank);
  moved_slabs_ = false;
  const bool overlap = all[1] && parts_.size() == 3;
  constexpr std::size_t kInterior = 1;
  if (overlap) {  // while the records are in flight
    extend(parts_[kInterior], step);
    parts_[kInterior].extended = true;
  }
  const std::vector<std::vector<IndexedBoid>> got = received.wait();
  for (const IndexedBoid& b : got[0]) file_received(b, /*arrived=*/true, reach);
  for (const IndexedBoid& b : got[1]) file_received(b, /*arrived=*/false, reach);
  for (Part& part : parts_) {
    if (!part.extended) extend(part, step);
    part.extended = false;
  }
}

void RankFlock::file_received(const IndexedBoid& b, bool arrived, double reach) {
  const double s = along(b);
  const int part = arrived ? cuts_.owner(s) : -1;
  within_.clear();
  cuts_.ranks_within(s, reach, part, within_);
  if (arrived) within_.push_back(part);
  for (const int k : within_) {
    if (parts_[k].extended) throw std::logic_error("a record came for a part already stepped");
    if (k == part) {
      parts_[k].arrived.push_back(b);
    } else {
      parts_[k].ghosts.push_back(b);
    }
  }
}

void RankFlock::extend(Part& part, bool step) {
  std::sort(part.arrived.begin(), part.arrived.end(), by_id);
  std::sort(part.ghosts.begin(), part.ghosts.end(), by_id);
  part.access->extend_part(part.arrived, part.ghosts);
  if (step) part.engine->step(1);
}

}  // namespace boids::mpi
