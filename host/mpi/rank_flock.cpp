#include "host/mpi/rank_flock.h"

#include <malloc.h>

#include <algorithm>
#include <limits>
#include <stdexcept>
#include <string>
#include <utility>

#include "host/backends/cuda_device_choice.h"
#include "host/base/errors.h"
#include "host/base/memory.h"
#include "host/core/value_limits.h"
#include "host/mpi/communicator.h"
#include "host/mpi/slab_axis.h"
#include "host/parts/part_access.h"

namespace boids::mpi {
namespace {

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

// Steps between moves of the slab bounds.
constexpr std::uint64_t kBalanceEvery = 100;

}  // namespace

RankFlock::RankFlock(const SimulationConfig& config, std::uint64_t whole_count, Slabs slabs,
                     double largest_share, std::vector<IndexedBoid> own, std::uint64_t steps_taken)
    : RankFlock(config, whole_count, std::move(slabs), largest_share, steps_taken) {
  start_parts(std::move(own));
}

RankFlock::RankFlock(const SimulationConfig& config, std::uint64_t whole_count, Slabs slabs,
                     double largest_share, std::uint64_t steps_taken)
    : config_(config),
      slabs_(std::move(slabs)),
      rank_(rank()),
      whole_count_(whole_count),
      steps_taken_(steps_taken),
      largest_share_(largest_share),
      moved_to_(static_cast<std::size_t>(ranks())),
      ghosts_to_(static_cast<std::size_t>(ranks())) {
  config_.whole_count = whole_count_;
  // Arrays of 128 kB or more are mapped on their own and given back when freed. glibc's
  // threshold rises past every mapped array freed (a start's list of coordinates, 8 bytes a
  // boid), and the rank's larger arrays then land in its heap, which keeps what they free.
  mallopt(M_MMAP_THRESHOLD, 128 * 1024);
  band_ = 2 * ghost_reach(config_) + 2.02 * furthest_move(config_.params);
  if (config_.backend == Backend::kCuda) use_cuda_device_of_local_rank(local_rank());
  cut_parts();
  find_neighbors();
}

// A slab at least four bands wide is held as three parts, a band at each face and the
// interior; a narrower one as one part.
void RankFlock::cut_parts() {
  const std::size_t before = cuts_.bounds.empty() ? 0 : cuts_.bounds.size() - 1;
  cuts_ = cuts_of(rank_);
  if (before > 0 && before != parts_.size()) throw std::logic_error("parts and cuts apart");
  if (before > 0 && cuts_.bounds.size() - 1 != before) start_parts(boids());
}

Slabs RankFlock::cuts_of(int k) const {
  const double low = slabs_.bounds[k], high = slabs_.bounds[k + 1];
  Slabs cuts;
  cuts.side = slabs_.side;
  cuts.torus = slabs_.torus;
  if (high - low >= 4 * band_) {
    cuts.bounds = {low, low + band_, high - band_, high};
  } else {
    cuts.bounds = {low, high};
  }
  return cuts;
}

// The parts made anew, each started with the boids of `own` in its bounds (a boid beyond
// them, in the part nearest it: its split hands it over), read where they lie in `own`.
void RankFlock::start_parts(std::vector<IndexedBoid> own) {
  std::vector<std::uint64_t> counts(cuts_.bounds.size() - 1, 0);
  const auto part_of = [&](const IndexedBoid& b) {
    return static_cast<std::size_t>(cuts_.owner(along(b)));
  };
  std::sort(own.begin(), own.end(), [&](const IndexedBoid& a, const IndexedBoid& b) {
    const std::size_t pa = part_of(a), pb = part_of(b);
    return pa != pb ? pa < pb : a.id < b.id;
  });
  for (const IndexedBoid& b : own) ++counts[part_of(b)];
  open_parts(counts);
  std::size_t from = 0;
  for (std::size_t k = 0; k < counts.size(); ++k) {
    parts_[k].access->fill_part(0, {own.data() + from, counts[k]});
    from += counts[k];
  }
}

// Each part's backend is made of one boid, then opened as the part.
void RankFlock::open_parts(const std::vector<std::uint64_t>& counts) {
  if (counts.size() != cuts_.bounds.size() - 1) throw std::logic_error("parts and cuts apart");
  FlockState first;
  first.dimensions = config_.params.dimensions;
  first.resize(1);
  parts_.clear();
  parts_.resize(counts.size());
  for (std::size_t k = 0; k < counts.size(); ++k) {
    parts_[k].engine = make_simulation(config_, first);
    parts_[k].access = &part_access(*parts_[k].engine);
    parts_[k].access->open_part(counts[k], steps_taken_);
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

// The parts read out a piece of places at a time: the rank's boids are never copied out whole
// (a whole part's copy was a rank's largest peak, in the metrics and the files).
void RankFlock::for_each_piece(const std::function<void(std::vector<IndexedBoid>&)>& visit,
                               std::uint64_t places) const {
  std::vector<IndexedBoid> piece;
  for (const Part& p : parts_) {
    for (std::uint64_t first = 0; first < p.access->held(); first += places) {
      p.access->own_boids(piece, first, places);
      visit(piece);
    }
  }
}

void RankFlock::for_each_boid(const std::function<void(const IndexedBoid&)>& visit) const {
  for_each_piece([&](const std::vector<IndexedBoid>& piece) {
    for (const IndexedBoid& b : piece) visit(b);
  });
}

// Each part's boids first, then one list of their number: a list grown part by part held the
// rank's boids up to three times over in its reallocations.
std::vector<IndexedBoid> RankFlock::boids() const {
  std::vector<std::vector<IndexedBoid>> each(parts_.size());
  std::size_t count = 0;
  for (std::size_t k = 0; k < parts_.size(); ++k) {
    parts_[k].access->own_boids(each[k]);
    count += each[k].size();
  }
  if (each.size() == 1) return std::move(each[0]);
  std::vector<IndexedBoid> out;
  out.reserve(count);
  for (std::vector<IndexedBoid>& part : each) {
    out.insert(out.end(), part.begin(), part.end());
    release(part);
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
  find_neighbors();
  moved_slabs_ = true;
}

// A boid that leaves this slab lands within a step's move of it, and is a ghost of the slabs
// within reach of where it lands; one inside, of those within reach of the slab. (A hundredth
// more covers the rounding of a move.)
void RankFlock::find_neighbors() {
  const double radius = ghost_reach(config_) + 1.01 * furthest_move(config_.params);
  std::vector<int> ranks;
  for (const double edge : {slabs_.bounds[rank_], slabs_.bounds[rank_ + 1]}) {
    slabs_.ranks_within(edge, radius, rank_, ranks);
  }
  std::sort(ranks.begin(), ranks.end());
  ranks.erase(std::unique(ranks.begin(), ranks.end()), ranks.end());
  near_ = Neighborhood(ranks);
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
  const std::vector<int>& neighbors = near_.ranks();
  const auto is_neighbor = [&](int k) {
    return std::binary_search(neighbors.begin(), neighbors.end(), k);
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
      near = near && is_neighbor(owner);
      const double depth = std::min(s - slabs_.bounds[owner], slabs_.bounds[owner + 1] - s);
      // (a quarter of the reach to spare, so that no rounding of where the parts' bounds lie
      // files it with the interior)
      shallow = shallow && depth < band_ - 1.25 * reach;
    }
    within_.clear();
    slabs_.ranks_within(s, reach, owner, within_);
    for (const int k : within_) {
      ghosts_to_[k].push_back(b);
      near = near && is_neighbor(k);
    }
  }
  // A step's move seldom takes a boid beyond the neighbours, or deeper than a band
  // (furthest_move does not count an obstacle's push), but one that does sends this step's
  // records to every rank, or makes the interior wait for them.
  static const Neighborhood every_rank;
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
