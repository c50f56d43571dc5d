// The reference's account of the box (docs/3d.md), written apart from the 2D world's and the
// kernels': offsets on the box's torus, the field of view as a cone, the goal's direction,
// the noise as a turn within a cone, and moving and wrapping. Internal to the reference.
#pragma once

#include <cstddef>
#include <cstdint>

#include "host/flock.h"
#include "host/reference/world.h"

namespace boids::reference {

struct Offset3 {
  double x, y, z;
  double d2;  // x*x + y*y + z*z, added in that order
};

// The offset from boid i to boid j of `s`, each axis wrapped as the seed wraps x and y.
Offset3 offset_3d(const FlockParams& p, const FlockState& s, std::size_t i, std::size_t j);

// Whether boid i, heading `v`, sees a neighbour at offset d: d.v >= cos(fov / 2) |d||v| in the
// 2D test's form (without a square root); always at fov = 360 and for a boid at rest.
bool sees_3d(const FlockParams& p, double cos_half, const Offset3& d, double vx, double vy,
             double vz);

// The unit direction from (x, y, z) to the goal, the shortest way; (0, 0, 0) without a goal or
// at it.
void goal_direction_3d(const FlockParams& p, double x, double y, double z, double& gx, double& gy,
                       double& gz);

// (x, y, z) turned by boid `id`'s noise at this step: to a direction uniform on the cap of
// half-angle noise / 2 around it, its length kept; nothing without noise or at rest.
void turn_within_cone(const FlockParams& p, const StepContext& context, std::uint64_t id, double& x,
                      double& y, double& z);

// Before a length is taken: components beyond 2^510 scaled by 2^-600 (exactly), as the 2D
// shrink_if_huge; true when it did.
bool shrink_if_huge_3d(double& x, double& y, double& z);

// How urgently the walls of the box push a boid at (x, y, z), and where: per axis, the sum of
// (1 - gap / reach) times the direction away from each wall within reach; 0 on the torus.
void wall_avoidance_3d(const FlockParams& p, double x, double y, double z, double& ux, double& uy,
                       double& uz);

// Boid i of `s` moves by (dx, dy, dz) with new velocity (vx, vy, vz), into `next`: wrapped as the
// seed wraps on the torus; between walls, reflected off each wall it crossed (its velocity
// turned on that axis), as the 2D world reflects.
void land_3d(const FlockParams& p, const FlockState& s, std::size_t i, double dx, double dy,
             double dz, double vx, double vy, double vz, FlockState& next);

}  // namespace boids::reference
