// The rules, written once for every backend, pipeline and precision.
//
// A boid gathers its neighbours one at a time (accumulate_neighbor), then steers and moves
// (kernels/advance.h). A model is a type (Boids here; Steering and Vicsek in their own files):
//   Sums<Real, Lanes>                                  what a boid gathers, one entry per lane
//   start(sums, lane, self)                            the sums before any neighbour
//   add(sums, lane, dx, dy, d2, other, p, seen)        one candidate at offset (dx, dy)
//   steer<E, Large>(x, y, vx, vy, sums, terms, lane, p)  the boid's new velocity
//   displacement<E>(vx, vy, p, dx, dy)                 how far that moves it in a step
//   onto_torus(x, d, side)                             where a coordinate lands
// chosen at compile time, so that no inner loop branches on it. `E` (an Extras type) compiles
// the variants' terms in or out.
//
// Gathering in ascending index order adds the same terms in the same order as the seed's pair
// loop, which scatters each pair to both boids: -(x_i - x_j) is exactly x_j - x_i in IEEE
// arithmetic, and wrapping is symmetric, so the sums agree bit for bit.
#pragma once

#include <type_traits>

#include "kernels/host_device.h"
#include "kernels/step_params.h"
#include "kernels/world_terms.h"

namespace boids::kernels {

// What a group of `Lanes` boids has seen of their neighbours so far, one array entry per boid.
// Scalar code uses one lane; CPU blocks use several and vectorise across them.
template <typename Real, int Lanes = 1>
struct NeighborSums {
  int count[Lanes];
  Real velocity_x[Lanes], velocity_y[Lanes];  // sum of neighbour velocities (alignment)
  Real offset_x[Lanes], offset_y[Lanes];      // sum of offsets to neighbours (cohesion)
  Real push_x[Lanes], push_y[Lanes];          // sum of -d / |d|^2, close neighbours (separation)

  BOIDS_HD void clear(int lane) {
    count[lane] = 0;
    velocity_x[lane] = velocity_y[lane] = Real(0);
    offset_x[lane] = offset_y[lane] = Real(0);
    push_x[lane] = push_y[lane] = Real(0);
  }

  // Adds a neighbour at offset (dx, dy), d2 = |d|^2, moving at (vx, vy), if `near`, and its
  // push -d / |d|^2 if `pushes`: each component divided by d2 (`DivideEach`) or multiplied by
  // 1 / d2. The updates are selects rather than branches so that lane loops vectorise. They
  // are exact: a sum that starts at +0 never becomes -0, so adding a selected +0 leaves it
  // unchanged, bit for bit, just as skipping the addition would.
  template <bool DivideEach>
  BOIDS_HD BOIDS_INLINE void add(int lane, Real dx, Real dy, Real d2, Real vx, Real vy, bool near,
                                 bool pushes) {
    count[lane] += static_cast<int>(near);
    velocity_x[lane] += near ? vx : Real(0);
    velocity_y[lane] += near ? vy : Real(0);
    offset_x[lane] += near ? dx : Real(0);
    offset_y[lane] += near ? dy : Real(0);
    if constexpr (DivideEach) {
      push_x[lane] -= pushes ? dx / d2 : Real(0);
      push_y[lane] -= pushes ? dy / d2 : Real(0);
    } else {
      const Real inverse = Real(1) / d2;
      push_x[lane] -= pushes ? dx * inverse : Real(0);
      push_y[lane] -= pushes ? dy * inverse : Real(0);
    }
  }
};

// Starts a block of lanes: boids [first, first + Lanes), with the boid at `last` repeated in
// lanes past it (their results are never stored), and the model's empty sums.
template <typename Model, typename Real, typename Sums, int Lanes>
BOIDS_HD inline void start_lanes(const Boid<Real>* boids, index_t first, index_t last,
                                 LaneBoids<Real, Lanes>& self, Sums& sums) {
  for (int lane = 0; lane < Lanes; ++lane) {
    const Boid<Real>& b = boids[min_of<index_t>(first + lane, last)];
    self.x[lane] = b.x;
    self.y[lane] = b.y;
    self.vx[lane] = b.vx;
    self.vy[lane] = b.vy;
    Model::start(sums, lane, b);
  }
}

// Whether a neighbour at offset (dx, dy), d2 = |d|^2, lies within the field of view of a boid
// heading along (vx, vy): d.v >= c |d||v| with c = cos(fov / 2). Both sides go through the
// increasing map t -> t |t|, which keeps the order and leaves no square root to take per
// candidate: (d.v) |d.v| >= (c |c| |v|^2) |d|^2, the bracket the same for every candidate. A
// boid at rest sees all around (0 >= 0).
template <typename Real>
BOIDS_HD inline bool in_view(Real dx, Real dy, Real d2, Real vx, Real vy,
                             const StepParams<Real>& p) {
  const Real dot = dx * vx + dy * vy;
  return dot * absolute(dot) >= (p.signed_cos_sq_half_view * (vx * vx + vy * vy)) * d2;
}

// Adds `other` to the sums of lane `lane` if the model counts it. `counted` = false makes the
// call a no-op without a branch: vectorised loops use it to mask lanes past the end of a range
// or holding the boid itself. `Wraps` = false skips the torus wrap (walls, or offsets known to
// be within half the world); `LimitedView` applies the field of view.
template <typename Model, bool Wraps, bool LimitedView, typename Real, typename Sums, int Lanes>
BOIDS_HD inline void accumulate_neighbor(Sums& sums, int lane, const LaneBoids<Real, Lanes>& self,
                                         const Boid<Real>& other, const StepParams<Real>& p,
                                         bool counted = true) {
  const Real dx = Wraps ? wrap_x(other.x - self.x[lane], p) : other.x - self.x[lane];
  const Real dy = Wraps ? wrap_y(other.y - self.y[lane], p) : other.y - self.y[lane];
  const Real d2 = dx * dx + dy * dy;
  bool seen = counted;
  if constexpr (LimitedView) {
    seen = seen & in_view(dx, dy, d2, self.vx[lane], self.vy[lane], p);
  }
  Model::add(sums, lane, dx, dy, d2, other, p, seen);
}

// Calls `body` with the (Wraps, LimitedView) pair that the runtime flags select, so that loops
// over candidates are compiled once per pair and never test the flags per candidate. `body`
// may be host code (a kernel launch) or device code, hence no execution-space check.
#if defined(__CUDACC__)
#pragma nv_exec_check_disable
#endif
template <typename Body>
BOIDS_HD BOIDS_INLINE void with_pair_flags(bool wraps, bool limited_view, Body&& body) {
  if (wraps) {
    if (limited_view) {
      body(Flags<true, true>{});
    } else {
      body(Flags<true, false>{});
    }
  } else {
    if (limited_view) {
      body(Flags<false, true>{});
    } else {
      body(Flags<false, false>{});
    }
  }
}

// The extras a step's steering compiles in: the world's terms (walls, obstacles, a goal),
// wind, noise. A step without any is the seed's code alone, so that the variants cost the
// default step nothing; and no switch is tested inside a loop over lanes, which then
// vectorises. (Walls and obstacles also decide how boids move; that is tested per block.)
template <bool WorldTerms, bool Wind, bool Noise>
struct Extras {
  static constexpr bool kWorldTerms = WorldTerms;
  static constexpr bool kWind = Wind;
  static constexpr bool kNoise = Noise;
  static constexpr bool kAny = WorldTerms || Wind || Noise;
};

// Calls `body` with the Extras type that `p` asks for.
#if defined(__CUDACC__)
#pragma nv_exec_check_disable
#endif
template <typename Real, typename Body>
BOIDS_HD BOIDS_INLINE void with_extras(const StepParams<Real>& p, Body&& body) {
  const auto with_noise = [&](auto world, auto wind) BOIDS_LAMBDA_INLINE {
    if (p.has_noise) {
      body(Extras<decltype(world)::value, decltype(wind)::value, true>{});
    } else {
      body(Extras<decltype(world)::value, decltype(wind)::value, false>{});
    }
  };
  const auto with_wind = [&](auto world) BOIDS_LAMBDA_INLINE {
    if (p.has_wind) {
      with_noise(world, std::true_type{});
    } else {
      with_noise(world, std::false_type{});
    }
  };
  if (p.world_terms) {
    with_wind(std::true_type{});
  } else {
    with_wind(std::false_type{});
  }
}

// What the models of the three rules (Boids, Steering) share: the sums they gather, empty at
// the start.
struct GathersNeighbors {
  template <typename Real, int Lanes>
  using Sums = NeighborSums<Real, Lanes>;

  template <typename Real, int Lanes>
  BOIDS_HD static void start(Sums<Real, Lanes>& sums, int lane, const Boid<Real>&) {
    sums.clear(lane);
  }
};

// Separation pushes from neighbours whose d2 exceeds this: 0 in double, as the seed has it
// (d / d2 is at most about 1e162 there); in float, which takes 1 / d2, the largest subnormal,
// so that 1 / d2 stays finite: a pair closer than about 1e-19 is then coincident to float.
template <typename Real>
BOIDS_HD BOIDS_INLINE constexpr Real closest_push() {
  return sizeof(Real) == sizeof(double) ? Real(0) : Real(0x1.fffffcp-127);
}

// Seed 000's three rules: separation from boids closer than the separation radius weighted by
// 1 / distance, alignment with the neighbours' mean velocity, cohesion towards their centre;
// the speed clamped into [v_max / 2, v_max].
struct Boids : GathersNeighbors {
  // A coincident boid counts as a neighbour but exerts no separation (its direction is
  // undefined). Double divides as the seed does; float takes one division, not two (within
  // 1 ulp).
  template <typename Real, int Lanes>
  BOIDS_HD static void add(Sums<Real, Lanes>& sums, int lane, Real dx, Real dy, Real d2,
                           const Boid<Real>& other, const StepParams<Real>& p, bool seen) {
    const bool near = seen & (d2 < p.radius_sq);
    const bool pushes = near & (d2 < p.separation_sq) & (d2 > closest_push<Real>());
    sums.template add<sizeof(Real) == sizeof(double)>(lane, dx, dy, d2, other.vx, other.vy, near,
                                                      pushes);
  }

  // The new velocity: the three rules, the world's terms and wind (if compiled in); the speed
  // clamped into [v_max / 2, v_max]; the noise's turn. Selects, not branches, so that a block's
  // lanes vectorise: a boid without neighbours keeps its velocity exactly. Returns whether a
  // length was too large for the seed's arithmetic, to be taken again under `Large`
  // (length_of).
  template <typename E, bool Large, typename Real, int Lanes>
  BOIDS_HD BOIDS_INLINE static bool steer(Real, Real, Real& vx, Real& vy,
                                          const Sums<Real, Lanes>& sums,
                                          const LaneTerms<Real, Lanes>& terms, int lane,
                                          const StepParams<Real>& p) {
    const bool seen_any = sums.count[lane] > 0;
    const Real n = static_cast<Real>(seen_any ? sums.count[lane] : 1);
    const Real steer_x = p.separation_gain * sums.push_x[lane] +
                         p.alignment_gain * (sums.velocity_x[lane] / n - vx) +
                         p.cohesion_gain * (sums.offset_x[lane] / n);
    const Real steer_y = p.separation_gain * sums.push_y[lane] +
                         p.alignment_gain * (sums.velocity_y[lane] / n - vy) +
                         p.cohesion_gain * (sums.offset_y[lane] / n);
    vx = seen_any ? vx + steer_x : vx;
    vy = seen_any ? vy + steer_y : vy;
    if constexpr (E::kWorldTerms) {  // no goal: its direction is 0
      const Real avoid = Real(kAvoidGain) * p.max_speed;
      const Real seek = Real(kGoalGain) * p.goal_weight * p.max_speed;
      vx += avoid * terms.avoid_x[lane] + seek * terms.goal_x[lane];
      vy += avoid * terms.avoid_y[lane] + seek * terms.goal_y[lane];
    }
    if constexpr (E::kWind) {
      vx += p.wind_x * p.dt;
      vy += p.wind_y * p.dt;
    }
    // The speed of a velocity whose square would overflow is taken at a smaller scale (an
    // infinite speed would zero it): such a boid is fast whatever the scaled speed says.
    Real ux = vx, uy = vy, scale;
    bool large = false;
    const Real speed = length_of<Large>(ux, uy, scale, large);
    const bool fast = (scale < Real(1)) | (speed > p.max_speed);
    const bool slow = (speed < p.min_speed) & (speed > Real(0));
    const Real target = fast ? p.max_speed : p.min_speed;
    vx = fast | slow ? ux / speed * target : vx;
    vy = fast | slow ? uy / speed * target : vy;
    if constexpr (E::kNoise) rotate(vx, vy, terms.turn_cos[lane], terms.turn_sin[lane]);
    return large;
  }

  // A step moves a boid by its new velocity.
  template <typename E, typename Real>
  BOIDS_HD BOIDS_INLINE static void displacement(Real vx, Real vy, const StepParams<Real>&,
                                                 Real& dx, Real& dy) {
    dx = vx;
    dy = vy;
  }

  // Where a coordinate moved by d lands on a torus of the given side.
  template <typename Real>
  BOIDS_HD BOIDS_INLINE static Real onto_torus(Real x, Real d, Real side) {
    return wrap_position(x + d, side);
  }
};

}  // namespace boids::kernels
