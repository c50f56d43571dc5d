// The whole flock's metrics over the ranks (RankFlock::metrics), from each rank's share of
// them (PartAccess::measure_part) put together as host/parts/joined_metrics.h says:
//   sums     one MPI_Allreduce, then one more for milling's turning about the centre they place
//   nearest  the far boids (whose nearest may lie beyond their rank's ghosts: a lone boid
//            near a face) go to every rank, each finds its own boids' nearest to them, and an
//            MPI_Allreduce takes the least
//   flocks   each ghost's piece goes to the rank that owns the boid, which joins it to its own
//            piece there; rank 0 joins the pieces (a few a face, not a boid each)
#include <algorithm>
#include <limits>
#include <stdexcept>
#include <utility>

#include "host/mpi/communicator.h"
#include "host/mpi/rank_flock.h"
#include "host/mpi/slab_axis.h"
#include "host/parts/joined_metrics.h"
#include "host/parts/part_access.h"

namespace boids::mpi {
namespace {

// A far boid, with the nearest distance its rank found (-1: none).
struct FarBoid {
  IndexedBoid boid;
  double nearest;
};

}  // namespace

FlockMetrics RankFlock::metrics() {
  exchange(/*step=*/false);
  std::vector<PartMetrics> m;
  std::vector<double> sums;
  for (std::size_t k = 0; k < parts_.size(); ++k) {
    m.push_back(parts_[k].access->measure_part(bounds_of(k)));
    const std::vector<double> part = part_metrics::sums_of(m.back());
    sums.resize(part.size(), 0.0);
    for (std::size_t i = 0; i < part.size(); ++i) sums[i] += part[i];
  }
  sum_over_ranks(sums);
  double centre[3], turning[3];
  part_metrics::centre_of(sums, config_.params, centre);
  std::vector<double> turns(3, 0.0);
  for (std::size_t k = 0; k < parts_.size(); ++k) {
    parts_[k].access->part_turning(centre, turning);
    for (int c = 0; c < 3; ++c) turns[c] += turning[c];
  }
  sum_over_ranks(turns);
  for (int c = 0; c < 3; ++c) turning[c] = turns[c];
  const double far = far_nearest(m);
  const FlockCount flocks = join_flocks(m);
  return part_metrics::whole_metrics(sums, turning, far, flocks, config_.params, config_.precision);
}

// The far boids' nearest distances, added in rank order (the same on every rank).
double RankFlock::far_nearest(const std::vector<PartMetrics>& m) {
  std::vector<FarBoid> mine;
  for (const PartMetrics& part : m) {
    for (std::size_t i = 0; i < part.far.size(); ++i) {
      mine.push_back({part.far[i], part.far_nearest[i]});
    }
  }
  const std::vector<FarBoid> far = all_gather(mine);
  if (far.empty()) return 0;
  constexpr double kNone = std::numeric_limits<double>::infinity();
  std::vector<double> nearest(far.size(), kNone);
  for (std::size_t k = 0; k < far.size(); ++k) {
    if (far[k].nearest >= 0) nearest[k] = far[k].nearest;
  }
  // A piece at a time (for_each_piece): each piece's own boids, searched for each far boid
  // nearer than the nearest found so far. The least distance does not depend on the order the
  // boids are searched in. Pieces of 16,384 (0.9 MB): the metrics' arrays are the rank's peak.
  for_each_piece(
      [&](std::vector<IndexedBoid>& piece) {
        const part_metrics::NearestOwn own(std::move(piece), config_.params, config_.precision);
        for (std::size_t k = 0; k < far.size(); ++k) {
          nearest[k] = own.distance(far[k].boid, nearest[k]);
        }
      },
      16384);
  min_over_ranks(nearest);
  double total = 0;
  for (const double d : nearest) total += d < kNone ? d : 0.0;  // a lone boid: none
  return total;
}

// Each ghost's piece, joined with the piece its boid lies in where it is own: by this rank,
// or by the rank that owns it; the joins, the pieces and the inner flocks at rank 0.
FlockCount RankFlock::join_flocks(const std::vector<PartMetrics>& m) {
  std::vector<std::vector<PartMetrics::Member>> asks(static_cast<std::size_t>(slabs_.ranks()));
  std::vector<PartMetrics::Member> mine;  // ghosts of boids this rank owns
  bool near = true;
  const std::vector<int>& neighbors = near_.ranks();
  for (std::size_t k = 0; k < parts_.size(); ++k) {
    const std::vector<IndexedBoid>& ghosts = parts_[k].ghosts;
    for (const PartMetrics::Member& g : m[k].ghosts) {
      const IndexedBoid key{g.id, 0, 0, 0, 0, 0, 0};
      const auto it = std::lower_bound(ghosts.begin(), ghosts.end(), key, by_id);
      if (it == ghosts.end() || it->id != g.id) {
        throw std::logic_error("a ghost a part measured is not one it was given");
      }
      const int owner = slabs_.owner(along(*it));
      if (owner == rank_) {
        mine.push_back(g);
        continue;
      }
      asks[static_cast<std::size_t>(owner)].push_back(g);
      near = near && std::binary_search(neighbors.begin(), neighbors.end(), owner);
    }
  }
  static const Neighborhood every_rank;
  near = on_every_rank(near);
  const std::vector<PartMetrics::Member> asked =
      exchange_lists<PartMetrics::Member>({&asks}, near ? near_ : every_rank)[0];
  std::vector<part_metrics::Join> joins;
  part_metrics::joins_of(mine, m, joins);
  part_metrics::joins_of(asked, m, joins);
  std::sort(joins.begin(), joins.end(),
            [](const auto& a, const auto& b) { return a.a != b.a ? a.a < b.a : a.b < b.b; });
  joins.erase(std::unique(joins.begin(), joins.end(),
                          [](const auto& a, const auto& b) { return a.a == b.a && a.b == b.b; }),
              joins.end());
  std::vector<std::uint64_t> inner{0};
  std::uint64_t largest = 0;
  std::vector<PartMetrics::Piece> pieces;
  for (const PartMetrics& part : m) {
    inner[0] += part.inner_flocks;
    largest = std::max(largest, part.largest_inner);
    pieces.insert(pieces.end(), part.pieces.begin(), part.pieces.end());
  }
  sum_over_ranks(inner);
  const std::uint64_t largest_inner = max_over_ranks(largest);
  const std::vector<part_metrics::Join> all_joins = gather(joins);
  const std::vector<PartMetrics::Piece> all_pieces = gather(pieces);
  if (rank() != 0) return {};
  return part_metrics::join_flocks(all_pieces, all_joins, inner[0], largest_inner);
}

}  // namespace boids::mpi
