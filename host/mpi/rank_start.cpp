// How a rank's share of a flock begins: from a whole start on rank 0 (a start file, a
// checkpoint), scattered; or from a random start, each rank drawing its own.
#include <algorithm>
#include <string>
#include <utility>

#include "host/io/checkpoint.h"
#include "host/model/initial_state.h"
#include "host/mpi/communicator.h"
#include "host/mpi/rank_flock.h"
#include "host/mpi/slab_axis.h"

namespace boids::mpi {
namespace {

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

}  // namespace boids::mpi
