// The whole flock's metrics from its parts' shares (PartMetrics, host/core/simulation.h), as the
// ranks of an MPI run put them together (host/mpi/rank_metrics.cpp) and as tests do with
// parts side by side:
//   sums     each part's sums over its own boids, added
//   nearest  a far boid's nearest (one whose nearest may lie beyond its part's ghosts): the
//            nearest its part found, or a nearer own boid of another part (NearestOwn)
//   flocks   the parts' pieces joined wherever a ghost of one is an own boid of another
//            (joins_of), then counted with the parts' inner flocks (join_flocks)
// The flocks and the neighbour counts are exactly one process's; the other metrics are sums
// of the same terms in another order (the same to rounding).
#pragma once

#include <cstdint>
#include <vector>

#include "host/core/simulation.h"
#include "host/metrics/metrics.h"
#include "host/parts/part_access.h"

namespace boids::part_metrics {

// A part's sums as one array, to add over the parts element by element: the own boids, the
// unit headings (3), the velocities (3), the neighbours, the certain nearest distances and the
// sums that place the centre (6).
std::vector<double> sums_of(const PartMetrics& m);

// The whole flock's centre from its parts' summed `sums` (sums_of), for its milling
// (PartAccess::part_turning): the mean position between walls, each axis's circular mean on a
// torus, as kernels/milling.h places it.
void centre_of(const std::vector<double>& sums, const FlockParams& params, double (&centre)[3]);

// A part's own boids, searched for the nearest to a boid of any part.
class NearestOwn {
 public:
  // Distances measured in `precision`, the flock's, as its backend measures them.
  NearestOwn(std::vector<IndexedBoid> own, const FlockParams& params, Precision precision);
  // The distance from `query` to the nearest of these boids other than itself, where below
  // `bound`; else `bound` (infinity: no bound).
  double distance(const IndexedBoid& query, double bound) const;

 private:
  std::vector<IndexedBoid> own_;  // ascending along the last axis
  FlockParams params_;
  Precision precision_;
};

// Two labels of one flock.
struct Join {
  std::uint64_t a, b;
};

// The joins of `ghosts` (other parts' ghosts) with the pieces of the parts `owners` that own
// their boids: each at the edge of one of them. Appends to `out`; throws std::logic_error for
// a ghost none of them holds at its edge.
void joins_of(const std::vector<PartMetrics::Member>& ghosts,
              const std::vector<PartMetrics>& owners, std::vector<Join>& out);

// The flocks of the whole flock: every part's `pieces`, joined by `joins`, and the parts'
// inner flocks (their count and the largest).
FlockCount join_flocks(const std::vector<PartMetrics::Piece>& pieces,
                       const std::vector<Join>& joins, std::uint64_t inner_flocks,
                       std::uint64_t largest_inner);

// The whole flock's metrics from its parts' summed `sums` (sums_of) and `turning`
// (part_turning's), the far boids' nearest distances added (`far_nearest`) and its flocks, for
// a flock flown in `precision`.
FlockMetrics whole_metrics(const std::vector<double>& sums, const double (&turning)[3],
                           double far_nearest, const FlockCount& flocks, const FlockParams& params,
                           Precision precision);

}  // namespace boids::part_metrics
