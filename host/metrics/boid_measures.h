// Measures of each boid, not of the flock as a whole: how many boids lie within its radius,
// and which flock it flies in. The page colours boids by them (host/serve/frame.h); the
// flock-wide metrics (metrics.h) are their sums, which the tests hold them to.
#pragma once

#include <cstdint>
#include <vector>

#include "host/model/flock.h"

namespace boids {

/// For each boid, the other boids closer than `radius` (across the torus's edges, or between
/// walls), in two or three dimensions.
std::vector<std::uint32_t> neighbor_counts(const FlockState& state, double radius,
                                           const World& world);

/// For each boid, its flock's rank by size: 0 for the largest flock (a connected component of
/// the graph of pairs closer than `radius`), 1 for the next, ...; flocks of a size ranked by
/// their lowest boid. A boid with no neighbour is a flock of one, ranked as any other.
std::vector<std::uint32_t> flock_ranks(const FlockState& state, double radius, const World& world);

}  // namespace boids
