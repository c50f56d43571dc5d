// The neighbour check of the validation (see validation.h): for every ordered pair (i, j) the
// decisions of boid i about boid j are taken in double on S, written as the reference writes
// them, and in the backend's precision on S cast to it, with the kernels' own rule code:
//   seen     within the field of view          d.v >= cos(fov / 2) |d||v|
//   near     a neighbour                       d < r (steering: d <= r)
//   pushes   separation acts                   d < the separation radius, d > 0 (steering 1e-3)
//   wrap     how the offset wraps              at +-W / 2, +-H / 2 (and +-D / 2), on a torus
// In double the two must agree exactly: any difference is a bug. In float a difference is
// allowed only where rounding can cause it: the pair lies within a band around the threshold it
// crossed. The band is 1e-5 * max(r, W, H (, D)) for distances and offsets (float rounds positions
// by about 6e-8 of the world and r^2 by 6e-8 r^2, so rounding moves a distance by less than about
// 1e-6 of the larger), and 1e-5 |d||v| for the field of view. Any other difference is
// unexplained and fails the case. A boid with an allowed difference steers by another set of
// terms, so its float result may differ by far more than rounding: it is left out of the error
// maxima (and counted). Under topological neighbours (--nearest K) the K nearest seen are
// heeded, and rounding can change which they are only where the K-th nearest and the next lie
// within the band of each other: such a boid is left out likewise.
#include <algorithm>
#include <cmath>
#include <type_traits>
#include <vector>

#include "host/backends/flock_layout.h"
#include "host/reference/detail/world.h"
#include "host/validation/validation.h"
#include "kernels/models.h"

namespace boids {
namespace {

struct PairDecision {
  bool seen = true;
  bool near = false;
  bool pushes = false;
  int shift[3] = {0, 0, 0};  // per axis -1, 0 or +1: how the offset was wrapped
};

// What the double decisions measured, for the bands.
struct PairGeometry {
  double distance = 0;
  double raw[3] = {0, 0, 0};  // offsets before wrapping
  double view_margin = 0;     // d.v - cos(fov / 2) |d||v|
  double view_scale = 0;      // |d||v|
};

// The radius closer than which a neighbour pushes under the model's pair rule; 0: none pushes.
double pushing_radius(const FlockParams& p) {
  const PairRule& rule = spec_of(p.model).pairs;
  return rule.pushing_radius ? rule.pushing_radius(p) : 0.0;
}

// In double, written as the reference writes it (and sharing no code with the kernels), for
// boid i at position xi heading vi and boid j at xj, in `dims` dimensions.
PairDecision decide_in_double(const double (&xi)[3], const double (&vi)[3], const double (&xj)[3],
                              int dims, const FlockParams& p, double cos_half, PairGeometry& g) {
  PairDecision d;
  const double sides[3] = {p.world.width, p.world.height, p.world.depth};
  double delta[3] = {0, 0, 0};
  for (int a = 0; a < dims; ++a) {
    delta[a] = g.raw[a] = xj[a] - xi[a];
    if (!p.world.torus()) continue;
    if (delta[a] > sides[a] / 2) {
      delta[a] -= sides[a];
      d.shift[a] = -1;
    } else if (delta[a] < -(sides[a] / 2)) {
      delta[a] += sides[a];
      d.shift[a] = 1;
    }
  }
  double d2 = delta[0] * delta[0], v2 = vi[0] * vi[0], along = delta[0] * vi[0];
  for (int a = 1; a < dims; ++a) {
    d2 += delta[a] * delta[a];
    v2 += vi[a] * vi[a];
    along += delta[a] * vi[a];
  }
  g.distance = std::sqrt(d2);
  if (p.fov < 360) {
    g.view_scale = std::sqrt(d2 * v2);
    g.view_margin = along - cos_half * g.view_scale;
    // d.v >= c |d||v|, tested as the reference tests it (without a square root); a boid at
    // rest sees all around.
    d.seen = v2 == 0 || along * std::fabs(along) >= cos_half * std::fabs(cos_half) * v2 * d2;
  }
  // A neighbour closer than r (or at r, where the rule says) pushes closer than the pushing
  // radius, beyond the rule's floor (a coincident boid has no direction to push along).
  const PairRule& rule = spec_of(p.model).pairs;
  const double r2 = p.radius * p.radius;
  const double sr = pushing_radius(p);
  d.near = d.seen && (rule.radius_inclusive ? d2 <= r2 : d2 < r2) &&
           (rule.coincident_neighbour || d2 > 0);
  d.pushes = d.near && rule.pushing_radius && d2 < sr * sr && d2 > rule.push_floor_sq;
  return d;
}

// In the backend's precision, with the kernels' own rule code: what boid i gathers of boid j.
template <typename Model, typename Real, int D>
PairDecision decide_in_kernels(const kernels::Boid<Real, D>& self,
                               const kernels::Boid<Real, D>& other,
                               const kernels::StepParams<Real>& p) {
  typename Model::template Sums<Real, 1, D> sums;
  Model::start(sums, 0, self);
  const int before = sums.heard(0);
  kernels::LaneBoids<Real, 1, D> lane;
  lane.set(0, self);
  PairDecision d;
  kernels::with_pair_flags(p.torus, p.limited_view, [&](auto flags) {
    using F = decltype(flags);
    kernels::accumulate_neighbor<Model, F::kWraps, F::kLimitedView>(sums, 0, lane, other, p);
  });
  d.near = sums.heard(0) == before + 1;
  d.pushes = sums.pushed(0);
  Real delta[D];
  for (int a = 0; a < D; ++a) {
    const Real raw = other.position[a] - self.position[a];
    delta[a] = p.torus ? kernels::wrap_axis(raw, a, p) : raw;
    d.shift[a] = (delta[a] > raw) - (delta[a] < raw);
  }
  if (p.limited_view) d.seen = kernels::in_view(delta, kernels::length_sq(delta), self.velocity, p);
  return d;
}

// Boid i's position and velocity, as three coordinates (the third 0 in 2D).
void boid_of(const FlockState& s, std::size_t i, double (&x)[3], double (&v)[3]) {
  const bool box = s.dimensions == 3;
  x[0] = s.x[i], x[1] = s.y[i], x[2] = box ? s.z[i] : 0.0;
  v[0] = s.vx[i], v[1] = s.vy[i], v[2] = box ? s.vz[i] : 0.0;
}

template <typename Model, typename Real, int D>
NeighborCheck check_neighbors_in(const FlockState& s, const FlockParams& params) {
  const std::size_t n = s.size();
  const auto p = step_params_of<Real>(params, 0);
  std::vector<kernels::Boid<Real, D>> cast(n);
  pack_boids(s, 0, n, params.world, cast.data());
  const bool may_round = sizeof(Real) < sizeof(double);
  const double sides[3] = {params.world.width, params.world.height, params.world.depth};
  double largest = std::max(params.radius, sides[0]);
  for (int a = 1; a < D; ++a) largest = std::max(largest, sides[a]);
  const double band = 1e-5 * largest;
  const auto within = [band](double value, double threshold) {
    return std::abs(value - threshold) <= band;
  };
  const double c = reference::cos_half_view(params);
  const double separation_radius = pushing_radius(params);

  NeighborCheck check;
  check.rounding.assign(n, false);
  for (std::size_t i = 0; i < n; ++i) {
    std::uint64_t count_double = 0, count_real = 0;
    bool rounding = false, unexplained = false;
    double xi[3], vi[3], xj[3], vj[3];
    boid_of(s, i, xi, vi);
    std::vector<double> seen_distances;  // in double, for --nearest
    for (std::size_t j = 0; j < n; ++j) {
      if (j == i) continue;
      boid_of(s, j, xj, vj);
      PairGeometry g;
      const PairDecision dd = decide_in_double(xi, vi, xj, D, params, c, g);
      if (dd.seen) seen_distances.push_back(g.distance);
      const PairDecision dr = decide_in_kernels<Model>(cast[i], cast[j], p);
      count_double += dd.near;
      count_real += dr.near;
      bool differs = false, explained = true;
      if (dd.seen != dr.seen) {
        differs = true;
        explained = explained && std::abs(g.view_margin) <= 1e-5 * g.view_scale;
      }
      if (dd.near != dr.near && dd.seen == dr.seen) {
        differs = true;
        explained = explained && within(g.distance, params.radius);
      }
      if (dd.pushes != dr.pushes && dd.near == dr.near) {
        differs = true;
        explained = explained && (within(g.distance, separation_radius) ||
                                  within(g.distance, 0.0) || within(g.distance, 1e-3));
      }
      // Under --nearest a boid's neighbours may lie as far as half the world, where offsets wrap.
      const bool heeded = params.nearest > 0 ? dd.seen && dr.seen : dd.near && dr.near;
      for (int a = 0; a < D; ++a) {
        if (heeded && dd.shift[a] != dr.shift[a]) {
          differs = true;
          explained = explained && within(std::abs(g.raw[a]), sides[a] / 2);
        }
      }
      if (!differs) continue;
      if (may_round && explained) {
        rounding = true;
      } else {
        unexplained = true;
      }
    }
    const auto k = static_cast<std::size_t>(params.nearest);
    if (may_round && k > 0 && seen_distances.size() > k) {
      std::sort(seen_distances.begin(), seen_distances.end());
      rounding = rounding || within(seen_distances[k], seen_distances[k - 1]);
    }
    check.neighbor_mismatches += count_double != count_real;
    check.rounding[i] = rounding && !unexplained;
    check.rounding_boids += rounding && !unexplained;
    check.unexplained_boids += unexplained;
  }
  return check;
}

template <typename Real, int D>
NeighborCheck check_for_model(const FlockState& state, const FlockParams& params) {
  NeighborCheck check;
  with_model(params.model, [&](auto model) {
    check = check_neighbors_in<decltype(model), Real, D>(state, params);
  });
  return check;
}

template <typename Real>
NeighborCheck check_in_dimensions(const FlockState& state, const FlockParams& params) {
  if (params.dimensions == 3) return check_for_model<Real, 3>(state, params);
  return check_for_model<Real, 2>(state, params);
}

}  // namespace

NeighborCheck check_neighbors(const FlockState& state, const FlockParams& params,
                              Precision precision) {
  if (precision == Precision::kFloat) return check_in_dimensions<float>(state, params);
  return check_in_dimensions<double>(state, params);
}

}  // namespace boids
