// The neighbour check of the validation (see validation.h): for every ordered pair (i, j) the
// decisions of boid i about boid j are taken in double on S, written as the reference writes
// them, and in the backend's precision on S cast to it, with the kernels' own rule code:
//   seen     within the field of view          d.v >= cos(fov / 2) |d||v|
//   near     a neighbour                       d < r (steering: d <= r)
//   pushes   separation acts                   d < the separation radius, d > 0 (steering 1e-3)
//   wrap     how the offset wraps              at +-W / 2 and +-H / 2, on a torus
// In double the two must agree exactly: any difference is a bug. In float a difference is
// allowed only where rounding can cause it: the pair lies within a band around the threshold it
// crossed. The band is 1e-5 * max(r, W, H) for distances and offsets (float rounds positions by
// about 6e-8 of the world and r^2 by 6e-8 r^2, so rounding moves a distance by less than about
// 1e-6 of the larger), and 1e-5 |d||v| for the field of view. Any other difference is
// unexplained and fails the case. A boid with an allowed difference steers by another set of
// terms, so its float result may differ by far more than rounding: it is left out of the error
// maxima (and counted).
#include <algorithm>
#include <cmath>
#include <type_traits>

#include "host/backends/flock_layout.h"
#include "host/reference/world.h"
#include "host/validation.h"
#include "kernels/steering.h"
#include "kernels/vicsek.h"

namespace boids {
namespace {

struct PairDecision {
  bool seen = true;
  bool near = false;
  bool pushes = false;
  int shift_x = 0, shift_y = 0;  // -1, 0 or +1: how the offset was wrapped
};

// What the double decisions measured, for the bands.
struct PairGeometry {
  double distance = 0;
  double raw_x = 0, raw_y = 0;  // offsets before wrapping
  double view_margin = 0;       // d.v - cos(fov / 2) |d||v|
  double view_scale = 0;        // |d||v|
};

// In double, written as the reference writes it (and sharing no code with the kernels).
PairDecision decide_in_double(double xi, double yi, double vxi, double vyi, double xj, double yj,
                              const FlockParams& p, double cos_half, PairGeometry& g) {
  PairDecision d;
  double dx = xj - xi, dy = yj - yi;
  g.raw_x = dx;
  g.raw_y = dy;
  if (p.world.torus()) {
    const double W = p.world.width, H = p.world.height;
    if (dx > W / 2) {
      dx -= W;
      d.shift_x = -1;
    } else if (dx < -(W / 2)) {
      dx += W;
      d.shift_x = 1;
    }
    if (dy > H / 2) {
      dy -= H;
      d.shift_y = -1;
    } else if (dy < -(H / 2)) {
      dy += H;
      d.shift_y = 1;
    }
  }
  const double d2 = dx * dx + dy * dy;
  g.distance = std::sqrt(d2);
  if (p.fov < 360) {
    const double v2 = vxi * vxi + vyi * vyi;
    g.view_scale = std::sqrt(d2 * v2);
    g.view_margin = dx * vxi + dy * vyi - cos_half * g.view_scale;
    d.seen = reference::sees(p, cos_half, dx, dy, d2, vxi, vyi);
  }
  const double r2 = p.radius * p.radius;
  const double sr = p.effective_separation_radius();
  const double s2 = p.model == Model::kBoids && p.separation_radius == 0 ? r2 / 4 : sr * sr;
  switch (p.model) {
    case Model::kBoids:
      d.near = d.seen && d2 < r2;
      d.pushes = d.near && d2 < s2 && d2 > 0;
      break;
    case Model::kSteering:
      d.near = d.seen && d2 <= r2;
      d.pushes = d.near && d2 < s2 && d2 > 1e-6;
      break;
    case Model::kVicsek:
      d.near = d.seen && d2 < r2;
      break;
  }
  return d;
}

// In the backend's precision, with the kernels' own rule code: what boid i gathers of boid j.
template <typename Model, typename Real>
PairDecision decide_in_kernels(const kernels::Boid<Real>& self, const kernels::Boid<Real>& other,
                               const kernels::StepParams<Real>& p) {
  typename Model::template Sums<Real, 1> sums;
  Model::start(sums, 0, self);
  const int before = sums.count[0];
  const kernels::LaneBoids<Real, 1> lane{{self.x}, {self.y}, {self.vx}, {self.vy}};
  PairDecision d;
  kernels::with_pair_flags(p.torus, p.limited_view, [&](auto flags) {
    using F = decltype(flags);
    kernels::accumulate_neighbor<Model, F::kWraps, F::kLimitedView>(sums, 0, lane, other, p);
  });
  d.near = sums.count[0] == before + 1;
  if constexpr (!std::is_same_v<Model, kernels::Vicsek>) {
    d.pushes = sums.push_x[0] != Real(0) || sums.push_y[0] != Real(0);
  }
  Real dx = other.x - self.x, dy = other.y - self.y;
  const Real raw_x = dx, raw_y = dy;
  if (p.torus) {
    dx = kernels::wrap_x(dx, p);
    dy = kernels::wrap_y(dy, p);
  }
  d.shift_x = (dx > raw_x) - (dx < raw_x);
  d.shift_y = (dy > raw_y) - (dy < raw_y);
  if (p.limited_view) {
    d.seen = kernels::in_view(dx, dy, dx * dx + dy * dy, self.vx, self.vy, p);
  }
  return d;
}

template <typename Model, typename Real>
NeighbourCheck check_neighbours_in(const FlockState& s, const FlockParams& params) {
  const std::size_t n = s.size();
  const auto p = step_params_of<Real>(params, 0);
  std::vector<kernels::Boid<Real>> cast(n);
  pack_boids(s, 0, n, params.world, cast.data());
  const bool may_round = sizeof(Real) < sizeof(double);
  const double band = 1e-5 * std::max({params.radius, params.world.width, params.world.height});
  const auto within = [band](double value, double threshold) {
    return std::abs(value - threshold) <= band;
  };
  const double c = reference::cos_half_view(params);
  const double separation_radius = params.effective_separation_radius();

  NeighbourCheck check;
  check.rounding.assign(n, false);
  for (std::size_t i = 0; i < n; ++i) {
    std::uint64_t count_double = 0, count_real = 0;
    bool rounding = false, unexplained = false;
    for (std::size_t j = 0; j < n; ++j) {
      if (j == i) continue;
      PairGeometry g;
      const PairDecision dd =
          decide_in_double(s.x[i], s.y[i], s.vx[i], s.vy[i], s.x[j], s.y[j], params, c, g);
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
      if (dd.near && dr.near && dd.shift_x != dr.shift_x) {
        differs = true;
        explained = explained && within(std::abs(g.raw_x), params.world.width / 2);
      }
      if (dd.near && dr.near && dd.shift_y != dr.shift_y) {
        differs = true;
        explained = explained && within(std::abs(g.raw_y), params.world.height / 2);
      }
      if (!differs) continue;
      if (may_round && explained) {
        rounding = true;
      } else {
        unexplained = true;
      }
    }
    check.neighbour_mismatches += count_double != count_real;
    check.rounding[i] = rounding && !unexplained;
    check.rounding_boids += rounding && !unexplained;
    check.unexplained_boids += unexplained;
  }
  return check;
}

template <typename Real>
NeighbourCheck check_for_model(const FlockState& state, const FlockParams& params) {
  switch (params.model) {
    case Model::kSteering:
      return check_neighbours_in<kernels::Steering, Real>(state, params);
    case Model::kVicsek:
      return check_neighbours_in<kernels::Vicsek, Real>(state, params);
    case Model::kBoids:
      break;
  }
  return check_neighbours_in<kernels::Boids, Real>(state, params);
}

}  // namespace

NeighbourCheck check_neighbours(const FlockState& state, const FlockParams& params,
                                Precision precision) {
  if (precision == Precision::kFloat) return check_for_model<float>(state, params);
  return check_for_model<double>(state, params);
}

}  // namespace boids
