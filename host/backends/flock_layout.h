// Conversions between the host's types and the kernels': FlockParams to the step's constants,
// and FlockState (double, input order) to packed boids (Real, D dimensions, possibly
// reordered, with an id array mapping back to input order). States move a stretch of boids at a
// time, so that a device flock passes through a bounded host buffer.
#pragma once

#include <cmath>
#include <cstddef>
#include <vector>

#include "host/backends/model_types.h"
#include "host/core/simulation.h"
#include "host/model/flock.h"
#include "kernels/flock_metrics.h"
#include "kernels/noise.h"
#include "kernels/rules.h"

namespace boids {

// The step's constants for `params`: the one place FlockParams becomes StepParams. Every
// derived constant is computed in double exactly as the reference computes it (r2 = r * r,
// s2 = r2 / 4, vmin = vmax / 2, gain = weight * K, ...), then rounded once to Real. `seed` keys
// the noise; the obstacles, the path's points and the step number are the simulation's to set
// (WorldTables, host/backends/world_tables.h).
template <typename Real>
kernels::StepParams<Real> step_params_of(const FlockParams& f, std::uint64_t seed) {
  kernels::StepParams<Real> p{};
  const double sides[3] = {f.world.width, f.world.height, f.world.depth};
  for (int a = 0; a < 3; ++a) {
    p.side[a] = static_cast<Real>(sides[a]);
    p.half_side[a] = static_cast<Real>(sides[a] / 2);
  }
  p.torus = f.world.torus();
  p.open = f.world.open();

  const double radius_sq = f.radius * f.radius;
  const double separation_radius = f.effective_separation_radius();
  p.radius_sq = static_cast<Real>(radius_sq);
  // The boids model's s2 = r2 / 4 for its own separation radius r / 2.
  p.separation_sq = static_cast<Real>(f.model == Model::kBoids && f.separation_radius == 0
                                          ? radius_sq / 4
                                          : separation_radius * separation_radius);
  p.limited_view = f.fov < 360;
  double c = 1, s = 0;
  kernels::cos_sin(f.fov / 2 * kPi / 180, c, s);
  p.cos_half_view = static_cast<Real>(c);
  p.signed_cos_sq_half_view = static_cast<Real>(c * std::abs(c));
  p.nearest = f.nearest;

  p.max_speed = static_cast<Real>(f.max_speed);
  p.dt = 1;
  with_model(f.model, [&](auto model) {
    using M = decltype(model);
    M::set_constants(p, f);
    kernels::set_term_constants<M>(kernels::AllTerms{}, p, f);  // each term's own slice
  });

  p.noise_key = kernels::noise_key_of(seed);
  return p;
}

template <typename Real>
std::vector<kernels::Obstacle<Real>> obstacles_of(const FlockParams& f) {
  std::vector<kernels::Obstacle<Real>> out;
  for (const Obstacle& o : f.obstacles) {
    out.push_back({{static_cast<Real>(o.x), static_cast<Real>(o.y), static_cast<Real>(o.z)},
                   static_cast<Real>(o.radius)});
  }
  return out;
}

// The path's points for the kernels, each with the path's length up to it: the lengths of the
// segments b - a (straight, as the points are given) added in order, in double.
template <typename Real>
std::vector<kernels::PathPoint<Real>> path_points_of(const FlockParams& f) {
  std::vector<kernels::PathPoint<Real>> out;
  double from_start = 0;
  for (std::size_t k = 0; k < f.path.size(); ++k) {
    const Vec3& a = f.path[k];
    if (k > 0) {
      const Vec3& before = f.path[k - 1];
      const double dx = a.x - before.x, dy = a.y - before.y, dz = a.z - before.z;
      from_start += std::sqrt(f.dimensions == 3 ? dx * dx + dy * dy + dz * dz : dx * dx + dy * dy);
    }
    out.push_back({{static_cast<Real>(a.x), static_cast<Real>(a.y), static_cast<Real>(a.z)},
                   static_cast<Real>(from_start)});
  }
  return out;
}

// A coordinate in [0, side) rounded to Real, kept in [0, side): one just below the side in
// double can round up to it in float, which is 0 on a torus (the torus identifies them) and
// just below the side between walls. Open space keeps any coordinate, rounded.
template <typename Real>
Real coordinate_in(double x, double side, Boundary boundary) {
  const Real rounded = static_cast<Real>(x), top = static_cast<Real>(side);
  if (boundary == Boundary::kOpen || rounded < top) return rounded;
  return boundary == Boundary::kTorus ? Real(0) : kernels::below(top);
}

// Boids [first, first + count) of `state`, packed into `out`, their positions in `world`.
template <typename Real, int D>
void pack_boids(const Particles& state, std::size_t first, std::size_t count, const World& world,
                kernels::Boid<Real, D>* out) {
  const std::vector<double>* position[3] = {&state.x, &state.y, &state.z};
  const std::vector<double>* velocity[3] = {&state.vx, &state.vy, &state.vz};
  const double side[3] = {world.width, world.height, world.depth};
  for (std::size_t k = 0; k < count; ++k) {
    const std::size_t i = first + k;
    for (int a = 0; a < D; ++a) {
      out[k].position[a] = coordinate_in<Real>((*position[a])[i], side[a], world.boundary);
      out[k].velocity[a] = static_cast<Real>((*velocity[a])[i]);
    }
  }
}

// Stores boid i's values in `out`.
template <typename Real, int D>
void store_boid(const kernels::Boid<Real, D>& boid, std::size_t i, const StateView& out) {
  const std::size_t to = i * out.stride;
  out.x[to] = boid.position[0];
  out.y[to] = boid.position[1];
  out.vx[to] = boid.velocity[0];
  out.vy[to] = boid.velocity[1];
  if constexpr (D == 3) {
    out.z[to] = boid.position[2];
    out.vz[to] = boid.velocity[2];
  }
}

// Stores `count` packed boids, which sit at positions [first, first + count) of the backend's
// order, into `out` in input order: boids[k] is boid ids[k], or boid first + k when `ids` is
// null (a backend that keeps input order).
template <typename Real, int D>
void unpack_boids(const kernels::Boid<Real, D>* boids, const kernels::index_t* ids,
                  std::size_t first, std::size_t count, const StateView& out) {
  for (std::size_t k = 0; k < count; ++k) store_boid(boids[k], ids ? ids[k] : first + k, out);
}

// The kernels' metrics as the host reports them.
inline FlockMetrics flock_metrics_of(const kernels::MetricsResult& r) {
  FlockMetrics m;
  m.polarization = r.polarization;
  m.milling = r.milling;
  m.order = r.order;
  m.flocks = static_cast<std::uint64_t>(r.flocks);
  m.largest_flock = r.largest_flock;
  m.mean_nn_distance = r.mean_nn_distance;
  m.mean_neighbors = r.mean_neighbors;
  return m;
}

}  // namespace boids
