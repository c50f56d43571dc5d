// The reference's account of the box (docs/3d.md), written apart from the 2D world's and the
// kernels': offsets on the box's torus, the field of view as a cone, the goal's direction,
// the noise as a turn within a cone, and moving and wrapping. Internal to the reference.
#pragma once

#include <cstddef>
#include <cstdint>

#include "host/model/flock.h"
#include "host/reference/detail/world.h"

namespace boids::reference {

struct Offset3 {
  double x, y, z;
  double d2;  // x*x + y*y + z*z, added in that order
};

// The offset from boid i to boid j of `s`, each axis wrapped as the published step wraps x and y.
Offset3 offset_3d(const FlockParams& p, const FlockState& s, std::size_t i, std::size_t j);

// Whether boid i, heading `v`, sees a neighbour at offset d: d.v >= cos(fov / 2) |d||v| in the
// 2D test's form (without a square root); always at fov = 360 and for a boid at rest.
bool sees_3d(const FlockParams& p, double cos_half, const Offset3& d, double vx, double vy,
             double vz);

// The unit direction from (x, y, z) to the goal, the shortest way; (0, 0, 0) without a goal or
// at it. With an arrival radius R, over max(distance, R), as in two dimensions.
void goal_direction_3d(const FlockParams& p, double x, double y, double z, double& gx, double& gy,
                       double& gz);

// (x, y, z) turned by boid `id`'s noise at this step: to a direction uniform on the cap of
// half-angle noise / 2 around it, its length kept; nothing without noise or at rest.
void turn_within_cone(const FlockParams& p, const StepContext& context, std::uint64_t id, double& x,
                      double& y, double& z);

// cos and sin of the azimuth of boid `id`'s noise at this step, uniform in [-pi, pi): the draw
// turn_within_cone makes, keyed apart from its polar angle's.
void noise_azimuth(const StepContext& context, std::uint64_t id, double& cos_p, double& sin_p);

// (x, y, z) turned by the polar angle t and the azimuth p, given by their cosines and sines:
// to (cos t u + sin t (cos p e1 + sin p e2)) |(x, y, z)|, u its direction and e1, e2 the
// perpendicular_basis of u; its length kept; nothing at rest. The body of turn_within_cone, for
// a model that draws its angles otherwise.
void turn_in_cone(double cos_t, double sin_t, double cos_p, double sin_p, double& x, double& y,
                  double& z);

// Two unit vectors perpendicular to the unit vector u and to each other, without trigonometry
// (Duff et al., "Building an orthonormal basis, revisited", 2017).
void perpendicular_basis(double ux, double uy, double uz, double (&e1)[3], double (&e2)[3]);

// Before a length is taken: components beyond 2^510 scaled by 2^-600 (exactly), as the 2D
// shrink_if_huge; true when it did.
bool shrink_if_huge_3d(double& x, double& y, double& z);

// How urgently the walls of the box and the spheres push a boid at (x, y, z), and where: the
// sum of (1 - gap / reach) times the direction away from each wall (per axis) and each sphere
// within reach, as in 2D; 0 on a torus without obstacles.
void avoidance_3d(const FlockParams& p, double x, double y, double z, double& ux, double& uy,
                  double& uz);

// Whether (x, y, z) lies inside one of the spheres.
bool inside_an_obstacle_3d(const FlockParams& p, double x, double y, double z);

// Puts a moved boid at x, moving at v, back inside the walls (reflected off each it crossed,
// its velocity turned on that axis) and out of the spheres (on the surface, its velocity into
// the sphere reflected; left at `before` and turned back when still inside one), as the 2D
// world keeps its boids.
void keep_inside_3d(const FlockParams& p, double (&x)[3], double (&v)[3],
                    const double (&before)[3]);

// Boid i of `s` moves by (dx, dy, dz) with new velocity (vx, vy, vz), into `next`: wrapped as the
// published step wraps on the torus, then kept inside (keep_inside_3d).
void land_3d(const FlockParams& p, const FlockState& s, std::size_t i, double dx, double dy,
             double dz, double vx, double vy, double vz, FlockState& next);

}  // namespace boids::reference
