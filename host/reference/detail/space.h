// The reference's world over the dimension, written once for the plane and the box: offsets on
// the torus or between walls, the field of view, what walls, obstacles and a goal add, the
// noise's turn (a rotation in the plane, a turn within a cone in the box), and moving and
// keeping a boid inside (space.cpp, instantiated for 2 and 3). A 2D step keeps the plane's
// arithmetic: its sums add in axis order. Written apart from the kernels' (kernels/world.h) to
// the same specification. Internal to the reference.
#pragma once

#include <array>
#include <cmath>
#include <cstddef>
#include <cstdint>

#include "host/model/flock.h"
#include "host/reference/detail/heeding.h"
#include "host/reference/detail/world.h"

namespace boids::reference {

template <int D>
using Vector = std::array<double, D>;

// |v|^2, the squares added in axis order.
template <int D>
double length_sq(const Vector<D>& v) {
  double sum = v[0] * v[0];
  for (int a = 1; a < D; ++a) sum += v[a] * v[a];
  return sum;
}

// a.b, the products added in axis order.
template <int D>
double dot(const Vector<D>& a, const Vector<D>& b) {
  double sum = a[0] * b[0];
  for (int k = 1; k < D; ++k) sum += a[k] * b[k];
  return sum;
}

template <int D>
Vector<D> position_of(const FlockState& s, std::size_t i) {
  if constexpr (D == 3) {
    return {s.x[i], s.y[i], s.z[i]};
  } else {
    return {s.x[i], s.y[i]};
  }
}

template <int D>
Vector<D> velocity_of(const FlockState& s, std::size_t i) {
  if constexpr (D == 3) {
    return {s.vx[i], s.vy[i], s.vz[i]};
  } else {
    return {s.vx[i], s.vy[i]};
  }
}

// (x, y, z) as a vector of the dimension (z dropped in the plane).
template <int D>
Vector<D> vector_of(double x, double y, double z) {
  if constexpr (D == 3) {
    return {x, y, z};
  } else {
    return {x, y};
  }
}

// The world's sides, and the wind, as vectors of the dimension.
template <int D>
Vector<D> sides_of(const FlockParams& p) {
  return vector_of<D>(p.world.width, p.world.height, p.world.depth);
}

template <int D>
Vector<D> wind_of(const FlockParams& p) {
  return vector_of<D>(p.wind.x, p.wind.y, p.wind.z);
}

// The offset from a to b: each axis wrapped as the published step wraps x and y on a torus,
// plain between walls and in open space.
template <int D>
Vector<D> offset_between(const FlockParams& p, const Vector<D>& a, const Vector<D>& b);

// Whether a boid heading v sees a neighbour at offset d, d2 = |d|^2: d.v >= cos(fov / 2) |d||v|
// after t -> t |t| on both sides (increasing, so the same test), which needs no square root:
// the kernels' form, so that naive double agrees bit for bit. Always at fov = 360, and for a
// boid at rest.
template <int D>
bool sees_at(const FlockParams& p, double cos_half_view, const Vector<D>& d, double d2,
             const Vector<D>& v);

// What boid i sees of boid j: the offset d to it and d2 = |d|^2; false for i itself and for a
// boid outside i's field of view.
template <int D>
bool look_at(const FlockParams& p, double cos_half_view, const FlockState& s, std::size_t i,
             std::size_t j, Vector<D>& d, double& d2);

// The neighbours boid i heeds (heeding.h).
template <int D>
Heeding heeding_of(const FlockParams& p, double cos_half_view, const FlockState& s, std::size_t i) {
  return Heeding::of<D>(p, cos_half_view, s, i);
}

// shrink_if_huge over the dimension.
template <int D>
bool shrink_huge(Vector<D>& v) {
  return shrink_if_huge(v.data(), D);
}

// How urgently walls and obstacles push a boid at x, and where: the sum of (1 - gap / reach)
// times the direction away from each wall (per axis) and each obstacle within reach; 0 on a
// torus without obstacles.
template <int D>
Vector<D> avoidance_at(const FlockParams& p, const Vector<D>& x);

// The unit direction from x to the goal, the shortest way; 0 without a goal or at it. With an
// arrival radius R, the offset over max(distance, R): within R, shorter with the distance.
template <int D>
Vector<D> goal_at(const FlockParams& p, const Vector<D>& x);

// v turned by boid `id`'s noise at this step: in the plane, by an angle uniform in
// [-eta/2, eta/2]; in the box, to a direction uniform on the cap of half-angle eta/2 around it,
// its length kept. Nothing without noise (or at rest, in the box).
template <int D>
void turn_by_noise_at(const FlockParams& p, const StepContext& context, std::uint64_t id,
                      Vector<D>& v);

// A moved boid at x, moving at v, put back inside the walls and out of the obstacles: one that
// crossed a wall comes back and turns; one inside an obstacle is put on its edge, its velocity
// into it reflected; one left inside another (overlapping obstacles) or outside the world stays
// at `before`, where it was, turned back.
template <int D>
void keep_inside_at(const FlockParams& p, Vector<D>& x, Vector<D>& v, const Vector<D>& before);

// Boid i of `s` moves by `by` with new velocity v: wrapped as the published step wraps on a
// torus, then kept inside (keep_inside_at), into `next`.
template <int D>
void land_at(const FlockParams& p, const FlockState& s, std::size_t i, const Vector<D>& by,
             const Vector<D>& v, FlockState& next);

// The box's turn within a cone, for a model that draws its angles otherwise: cos and sin of
// boid `id`'s azimuth at this step, uniform in [-pi, pi), keyed apart from the polar angle's;
// (x, y, z) turned by the polar angle t and the azimuth p to
// (cos t u + sin t (cos p e1 + sin p e2)) |(x, y, z)|, u its direction and e1, e2 the
// perpendicular_basis of u (nothing at rest); and two unit vectors perpendicular to the unit
// vector u and to each other, without trigonometry (Duff et al., "Building an orthonormal
// basis, revisited", 2017).
void noise_azimuth(const StepContext& context, std::uint64_t id, double& cos_p, double& sin_p);
void turn_in_cone(double cos_t, double sin_t, double cos_p, double sin_p, double& x, double& y,
                  double& z);
void perpendicular_basis(double ux, double uy, double uz, double (&e1)[3], double (&e2)[3]);

// Stores boid i's position x and velocity v in `next`.
template <int D>
void store(FlockState& next, std::size_t i, const Vector<D>& x, const Vector<D>& v) {
  next.x[i] = x[0];
  next.y[i] = x[1];
  next.vx[i] = v[0];
  next.vy[i] = v[1];
  if constexpr (D == 3) {
    next.z[i] = x[2];
    next.vz[i] = v[2];
  }
}

}  // namespace boids::reference
