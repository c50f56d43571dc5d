// Measures of each boid, not of the flock as a whole: how many boids lie within its radius,
// and which flock it flies in. The page colours boids by them (host/serve/frame.h); the
// flock-wide metrics (metrics.h) are their sums, which the tests hold them to.
//
// A page may ask for them at any radius its slider reaches (half the world) or a replay holds,
// where every boid neighbours most of the flock: the counts stop at a bound, flocks are joined
// a cell at a time, and a server that no longer wants them stops them (MeasureLimits).
#pragma once

#include <atomic>
#include <cstdint>
#include <limits>
#include <stdexcept>
#include <vector>

#include "host/model/flock.h"

namespace boids {

/// How far a per-boid measure goes: a count stops at `most_neighbors` (a boid counted at it has
/// at least as many), and the measure throws MeasureCancelled soon after `cancelled` is raised.
struct MeasureLimits {
  std::uint32_t most_neighbors = std::numeric_limits<std::uint32_t>::max();
  const std::atomic<bool>* cancelled = nullptr;
};

/// A measure stopped by its MeasureLimits::cancelled.
class MeasureCancelled : public std::runtime_error {
 public:
  MeasureCancelled() : std::runtime_error("the measure was cancelled") {}
};

/// For each boid, the other boids closer than `radius` (across the torus's edges, or between
/// walls), in two or three dimensions, to at most limits.most_neighbors. Work: a boid's cells'
/// boids, to its bound.
std::vector<std::uint32_t> neighbor_counts(const FlockState& state, double radius,
                                           const World& world, const MeasureLimits& limits = {});

/// For each boid, its flock's rank by size: 0 for the largest flock (a connected component of
/// the graph of pairs closer than `radius`), 1 for the next, ...; flocks of a size ranked by
/// their lowest boid. A boid with no neighbour is a flock of one, ranked as any other. Work:
/// cells narrower than the radius are flocks already, so two cells are joined by one pair.
std::vector<std::uint32_t> flock_ranks(const FlockState& state, double radius, const World& world,
                                       const MeasureLimits& limits = {});

}  // namespace boids
