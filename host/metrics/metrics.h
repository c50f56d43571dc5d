// The boids model's flock metrics, computed on the host in double precision from a FlockState.
// This is the reference for the backends' own metrics; it uses a cell grid, not all pairs,
// so a million boids take a fraction of a second.
#pragma once

#include <cstdint>

#include "host/model/flock.h"

namespace boids {

struct FlockMetrics {
  double polarization = 0;          ///< |(1/n) sum v_i / |v_i||; a boid at rest adds nothing
  double order = 0;                 ///< |sum v_i| / (n v_max): the steering model's order parameter
  std::uint64_t flocks = 0;         ///< connected components of the graph of pairs closer than r
  std::uint64_t largest_flock = 0;  ///< boids in the largest of them
  double mean_nn_distance = 0;      ///< mean distance to the nearest other boid (0 if n = 1)
  double mean_neighbors = 0;        ///< mean number of other boids closer than r
  std::uint64_t within_reach = 0;   ///< boids closer than the flee radius to a predator
  double milling = 0;  ///< Couzin's m_group: |(1/n) sum r_i x v_i / |v_i||, r_i from the centre
};

double polarization(const FlockState& state);
double order_parameter(const FlockState& state, double max_speed);
/// Couzin et al.'s m_group: |(1/n) sum r_i x u_i|, r_i the unit vector from the group's centre
/// to boid i and u_i its unit heading; the centre is each axis's circular mean on a torus
/// (host/metrics/milling.cpp).
double milling(const FlockState& state, const World& world);

struct FlockCount {
  std::uint64_t flocks;
  std::uint64_t largest;
};
FlockCount count_flocks(const FlockState& state, double radius, const World& world);
double mean_nearest_neighbor_distance(const FlockState& state, const World& world);
double mean_neighbor_count(const FlockState& state, double radius, const World& world);

/// The same on a square torus of side `world`.
FlockCount count_flocks(const FlockState& state, double radius, double world);
double mean_nearest_neighbor_distance(const FlockState& state, double world);

/// How many boids lie closer than the flee radius to one of the state's predators.
std::uint64_t boids_within_reach(const FlockState& state, const FlockParams& params);

/// Every metric; a flock in three dimensions goes to measure_flock_3d.
FlockMetrics measure_flock(const FlockState& state, const FlockParams& params);

/// The metrics in three dimensions, over every pair (host/metrics/metrics_3d.cpp, docs/3d.md).
FlockMetrics measure_flock_3d(const FlockState& state, const FlockParams& params);

}  // namespace boids
