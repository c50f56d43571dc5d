// The reference's world over the dimension: the plane's account (world.h) and the box's
// (space_3d.h) behind one template each, so that a model's step is written once for 2D and 3D,
// as the kernels' are. Each forwards to the account of its dimension, whose arithmetic it keeps
// (a 2D step's bits are the plane's). Internal to the reference.
#pragma once

#include <array>
#include <cmath>
#include <cstddef>

#include "host/model/flock.h"
#include "host/reference/detail/heeding.h"
#include "host/reference/detail/space_3d.h"
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

// What boid i sees of boid j: the offset d to it (wrapped on a torus) and d2 = |d|^2; false for
// i itself and for a boid outside i's field of view.
template <int D>
bool look_at(const FlockParams& p, double cos_half, const FlockState& s, std::size_t i,
             std::size_t j, Vector<D>& d, double& d2) {
  if constexpr (D == 3) {
    if (j == i) return false;
    const Offset3 o = offset_3d(p, s, i, j);
    d = {o.x, o.y, o.z};
    d2 = o.d2;
    return sees_3d(p, cos_half, o, s.vx[i], s.vy[i], s.vz[i]);
  } else {
    return look(p, cos_half, s, i, j, d[0], d[1], d2);
  }
}

// The neighbours boid i heeds (heeding.h).
template <int D>
Heeding heeding_of(const FlockParams& p, double cos_half, const FlockState& s, std::size_t i) {
  return D == 3 ? Heeding::of_3d(p, cos_half, s, i) : Heeding::of_2d(p, cos_half, s, i);
}

// shrink_if_huge over the dimension.
template <int D>
bool shrink_huge(Vector<D>& v) {
  if constexpr (D == 3) {
    return shrink_if_huge_3d(v[0], v[1], v[2]);
  } else {
    return shrink_if_huge(v[0], v[1]);
  }
}

// How urgently walls and obstacles push a boid at x, and where (avoidance).
template <int D>
Vector<D> avoidance_at(const FlockParams& p, const Vector<D>& x) {
  Vector<D> u{};
  if constexpr (D == 3) {
    avoidance_3d(p, x[0], x[1], x[2], u[0], u[1], u[2]);
  } else {
    avoidance(p, x[0], x[1], u[0], u[1]);
  }
  return u;
}

// The unit direction from x to the goal (goal_direction).
template <int D>
Vector<D> goal_at(const FlockParams& p, const Vector<D>& x) {
  Vector<D> g{};
  if constexpr (D == 3) {
    goal_direction_3d(p, x[0], x[1], x[2], g[0], g[1], g[2]);
  } else {
    goal_direction(p, x[0], x[1], g[0], g[1]);
  }
  return g;
}

// v turned by boid `id`'s noise at this step: a rotation in the plane, a turn within a cone in
// the box.
template <int D>
void turn_by_noise_at(const FlockParams& p, const StepContext& context, std::uint64_t id,
                      Vector<D>& v) {
  if constexpr (D == 3) {
    turn_within_cone(p, context, id, v[0], v[1], v[2]);
  } else {
    turn_by_noise(p, context, id, v[0], v[1]);
  }
}

// The wind as a vector of the dimension.
template <int D>
Vector<D> wind_of(const FlockParams& p) {
  if constexpr (D == 3) {
    return {p.wind.x, p.wind.y, p.wind.z};
  } else {
    return {p.wind.x, p.wind.y};
  }
}

// Boid i moves by `by` with new velocity v, into `next` (land).
template <int D>
void land_at(const FlockParams& p, const FlockState& s, std::size_t i, const Vector<D>& by,
             const Vector<D>& v, FlockState& next) {
  if constexpr (D == 3) {
    land_3d(p, s, i, by[0], by[1], by[2], v[0], v[1], v[2], next);
  } else {
    land(p, s, i, by[0], by[1], v[0], v[1], next);
  }
}

// A moved boid at x, moving at v, put back inside the walls and out of the obstacles; `before`
// is where it was (keep_inside).
template <int D>
void keep_inside_at(const FlockParams& p, Vector<D>& x, Vector<D>& v, const Vector<D>& before) {
  if constexpr (D == 3) {
    double at[3] = {x[0], x[1], x[2]}, velocity[3] = {v[0], v[1], v[2]};
    keep_inside_3d(p, at, velocity, {before[0], before[1], before[2]});
    x = {at[0], at[1], at[2]};
    v = {velocity[0], velocity[1], velocity[2]};
  } else {
    keep_inside(p, x[0], x[1], v[0], v[1], before[0], before[1]);
  }
}

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
