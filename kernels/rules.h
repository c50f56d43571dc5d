// The rules' framework, written once for every backend, pipeline, precision and dimension
// (D = 2 or 3): what a model is, and how a boid gathers its neighbours for it.
//
// A boid gathers its neighbours one at a time (accumulate_neighbor), then steers and moves
// (kernels/advance.h). A model is a type (kernels/models/: Boids, Steering, Vicsek, side by
// side; kernels/models.h names them all):
//   Sums<Real, Lanes, D>                              what a boid gathers, one entry per lane
//   start(sums, lane, self)                           the sums before any neighbour
//   add(sums, d, d2, other, p, seen)                  one candidate at offset d, d2 = |d|^2, to
//                                                     one lane's sums (LaneOf) or a vector's
//   steer<E, Large>(x, v, sums, terms, lane, p)       the boid's new velocity v
//   displacement<E>(v, p, d)                          how far that moves it in a step
//   onto_torus(x, d, side)                            where a coordinate lands
// chosen at compile time, so that no inner loop branches on it. `E` (an Extras type) compiles
// the variants' terms in or out. Vectors are arrays of D coordinates, and every sum over axes
// adds in axis order, so a flock in a plane of a box flies the 2D step bit for bit.
//
// Gathering in ascending index order adds the same terms in the same order as the published step's
// pair loop, which scatters each pair to both boids: -(x_i - x_j) is exactly x_j - x_i in IEEE
// arithmetic, and wrapping is symmetric, so the sums agree bit for bit.
#pragma once

#include <type_traits>

#include "kernels/host_device.h"
#include "kernels/lane_pack.h"
#include "kernels/step_params.h"
#include "kernels/world_terms.h"

namespace boids::kernels {

#if !defined(__CUDACC__)
template <typename Real, int Lanes, int D>
struct NeighborPack;
#endif

// What a group of `Lanes` boids has seen of their neighbours so far, one array entry per boid.
// Scalar code uses one lane; CPU blocks use several and vectorise across them.
template <typename Real, int Lanes, int D>
struct NeighborSums {
#if !defined(__CUDACC__)
  using Pack = NeighborPack<Real, Lanes, D>;  // the same sums as vectors of the lanes
#endif

  int count[Lanes];
  Real velocity[D][Lanes];  // sum of neighbour velocities (alignment)
  Real offset[D][Lanes];    // sum of offsets to neighbours (cohesion)
  Real push[D][Lanes];      // sum of -d / |d|^2, close neighbours (separation)

  // What a lane has heard: its neighbours so far, and whether any pushes it (the neighbour
  // check's probes, host/validation).
  BOIDS_HD int heard(int lane) const {
    return count[lane];
  }
  BOIDS_HD bool pushed(int lane) const {
    bool any = false;
    for (int a = 0; a < D; ++a) any = any || push[a][lane] != Real(0);
    return any;
  }

  BOIDS_HD void clear(int lane) {
    count[lane] = 0;
    for (int a = 0; a < D; ++a) velocity[a][lane] = offset[a][lane] = push[a][lane] = Real(0);
  }

  // Adds a neighbour at offset d, d2 = |d|^2, moving at v, if `near`, and its push
  // -d / |d|^2 if `pushes`: each component divided by d2 (`DivideEach`) or multiplied by
  // 1 / d2. The updates are selects rather than branches so that lane loops vectorise. They
  // are exact: a sum that starts at +0 never becomes -0, so adding a selected +0 leaves it
  // unchanged, bit for bit, just as skipping the addition would.
  template <bool DivideEach>
  BOIDS_HD BOIDS_INLINE void add(int lane, const Real (&d)[D], Real d2, const Real (&v)[D],
                                 bool near, bool pushes) {
    // One loop per sum, not one per axis: so GCC keeps every sum of a vectorised block in a
    // register across the candidates (interleaved, the 2D step ran slower: bench/results).
    count[lane] += static_cast<int>(near);
    for (int a = 0; a < D; ++a) velocity[a][lane] += near ? v[a] : Real(0);
    for (int a = 0; a < D; ++a) offset[a][lane] += near ? d[a] : Real(0);
    if constexpr (DivideEach) {
      for (int a = 0; a < D; ++a) push[a][lane] -= pushes ? d[a] / d2 : Real(0);
    } else {
      const Real inverse = Real(1) / d2;
      for (int a = 0; a < D; ++a) push[a][lane] -= pushes ? d[a] * inverse : Real(0);
    }
  }
};

#if !defined(__CUDACC__)
// NeighborSums as vectors of the lanes (kernels/lane_pack.h), each update one masked
// operation: `near ? sum + x : sum` gives the bits of NeighborSums' `sum += near ? x : 0`,
// since those sums start at +0 and never become -0.
template <typename Real, int Lanes, int D>
struct NeighborPack {
  using V = typename PackOf<Real, Lanes>::Values;
  using M = typename PackOf<Real, Lanes>::Mask;
  M count;
  V velocity[D], offset[D], push[D];

  BOIDS_INLINE void load(const NeighborSums<Real, Lanes, D>& s) {
    count = load_lanes<M>(s.count);
    for (int a = 0; a < D; ++a) {
      velocity[a] = load_lanes<V>(s.velocity[a]);
      offset[a] = load_lanes<V>(s.offset[a]);
      push[a] = load_lanes<V>(s.push[a]);
    }
  }
  BOIDS_INLINE void store(NeighborSums<Real, Lanes, D>& s) const {
    store_lanes(count, s.count);
    for (int a = 0; a < D; ++a) {
      store_lanes(velocity[a], s.velocity[a]);
      store_lanes(offset[a], s.offset[a]);
      store_lanes(push[a], s.push[a]);
    }
  }

  // NeighborSums::add, for every lane at once.
  template <bool DivideEach>
  BOIDS_INLINE void add(const V (&d)[D], V d2, const Real (&v)[D], M near, M pushes) {
    count = near ? count + 1 : count;
    for (int a = 0; a < D; ++a) velocity[a] = near ? velocity[a] + v[a] : velocity[a];
    for (int a = 0; a < D; ++a) offset[a] = near ? offset[a] + d[a] : offset[a];
    if constexpr (DivideEach) {
      for (int a = 0; a < D; ++a) push[a] = pushes ? push[a] - d[a] / d2 : push[a];
    } else {
      const V inverse = Real(1) / d2;
      for (int a = 0; a < D; ++a) push[a] = pushes ? push[a] - d[a] * inverse : push[a];
    }
  }
};
#endif

// Both conditions: `a & b` for one lane's bools, which lane loops vectorise; a select for a
// vector's masks (kernels/lane_pack.h), whose `&` GCC 12 takes lane by lane.
BOIDS_HD BOIDS_INLINE bool both(bool a, bool b) {
  return a & b;
}
#if !defined(__CUDACC__)
template <typename M>
BOIDS_INLINE M both(M a, M b) {
  return a ? b : M{};
}
#endif

// One lane of a block's sums, as a model's add sees them: a model writes its rules once, for
// this and for a vector of lanes (a Pack of its sums).
template <typename Sums>
struct LaneOf {
  Sums& sums;
  int lane;
  template <bool DivideEach, typename... Args>
  BOIDS_HD BOIDS_INLINE void add(const Args&... args) {
    sums.template add<DivideEach>(lane, args...);
  }
  template <typename... Args>
  BOIDS_HD BOIDS_INLINE void add(const Args&... args) {
    sums.add(lane, args...);
  }
};

// Which boid each lane of a block holds: `active` consecutive boids from `first`. Lanes from
// `active` on hold no boid.
struct ConsecutiveSlots {
  index_t first;
  int active;
  BOIDS_HD index_t operator[](int lane) const { return first + static_cast<index_t>(lane); }
};

// Starts a block of lanes: the boids in `slots`, with the last repeated in lanes past it
// (their results are never stored), and the model's empty sums.
template <typename Model, typename Real, typename Slots, typename Sums, int Lanes, int D>
BOIDS_HD inline void start_lanes(const Boid<Real, D>* boids, const Slots& slots,
                                 LaneBoids<Real, Lanes, D>& self, Sums& sums) {
  for (int lane = 0; lane < Lanes; ++lane) {
    const Boid<Real, D>& b = boids[slots[min_of(lane, slots.active - 1)]];
    self.set(lane, b);
    Model::start(sums, lane, b);
  }
}

// Whether a neighbour at offset d, d2 = |d|^2, lies within the field of view (a cone in 3D) of
// a boid heading along v: d.v >= c |d||v| with c = cos(fov / 2). Both sides go through the
// increasing map t -> t |t|, which keeps the order and leaves no square root to take per
// candidate: (d.v) |d.v| >= (c |c| |v|^2) |d|^2, the bracket the same for every candidate. A
// boid at rest sees all around (0 >= 0).
template <typename Real, int D>
BOIDS_HD inline bool in_view(const Real (&d)[D], Real d2, const Real (&v)[D],
                             const StepParams<Real>& p) {
  const Real along = dot(d, v);
  return along * absolute(along) >= (p.signed_cos_sq_half_view * length_sq(v)) * d2;
}

// Adds `other` to the sums of lane `lane` if the model counts it. `counted` = false makes the
// call a no-op without a branch: vectorised loops use it to mask lanes past the end of a range
// or holding the boid itself. `Wraps` = false skips the torus wrap (walls, or offsets known to
// be within half the world); `LimitedView` applies the field of view.
template <typename Model, bool Wraps, bool LimitedView, typename Real, typename Sums, int Lanes,
          int D>
BOIDS_HD inline void accumulate_neighbor(Sums& sums, int lane,
                                         const LaneBoids<Real, Lanes, D>& self,
                                         const Boid<Real, D>& other, const StepParams<Real>& p,
                                         bool counted = true) {
  Real d[D];
  for (int a = 0; a < D; ++a) {
    const Real delta = other.position[a] - self.position[a][lane];
    d[a] = Wraps ? wrap_axis(delta, a, p) : delta;
  }
  const Real d2 = length_sq(d);
  bool seen = counted;
  if constexpr (LimitedView) {
    Real v[D];
    for (int a = 0; a < D; ++a) v[a] = self.velocity[a][lane];
    seen = seen & in_view(d, d2, v, p);
  }
  LaneOf<Sums> one{sums, lane};
  Model::add(one, d, d2, other, p, seen);
}

#if !defined(__CUDACC__)
// The offsets d from every lane at x to `other`, across the torus's edges if `Wraps`.
template <bool Wraps, typename V, typename Real, int D>
BOIDS_INLINE void offsets_to(V (&d)[D], const V (&x)[D], const Boid<Real, D>& other,
                             const StepParams<Real>& p) {
  for (int a = 0; a < D; ++a) {
    const V delta = other.position[a] - x[a];
    d[a] = Wraps ? wrap_lanes(delta, p.side[a], p.half_side[a]) : delta;
  }
}

// Whether `other` lies within r of any lane at x, its distance taken as accumulate_lanes takes
// it. Every model's neighbours lie within r (each model's add counts none farther: d2 < r^2,
// or d2 <= r^2 in the steering model), so a candidate this rejects adds nothing to any lane.
template <bool Wraps, typename V, typename Real, int D>
BOIDS_INLINE bool within_reach_of_any(const V (&x)[D], const Boid<Real, D>& other,
                                      const StepParams<Real>& p) {
  V d[D];
  offsets_to<Wraps>(d, x, other, p);
  return any_at_most(length_sq(d), p.radius_sq);
}

// accumulate_neighbor for every lane of a block at once: `sums` a Pack of the block's sums,
// `x` and `v` the lanes' positions and velocities, `counted` the lanes that count `other`.
template <typename Model, bool Wraps, bool LimitedView, typename Pack, typename V, typename M,
          typename Real, int D>
BOIDS_INLINE void accumulate_lanes(Pack& sums, const V (&x)[D], const V (&v)[D],
                                   const Boid<Real, D>& other, const StepParams<Real>& p,
                                   M counted) {
  V d[D];
  offsets_to<Wraps>(d, x, other, p);
  const V d2 = length_sq(d);
  M seen = counted;
  if constexpr (LimitedView) seen = seen & in_view_lanes(d, d2, v, p.signed_cos_sq_half_view);
  Model::add(sums, d, d2, other, p, seen);
}
#endif

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
// wind, noise. A step without any is the published step's code alone, so that the variants cost the
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
  template <typename Real, int Lanes, int D>
  using Sums = NeighborSums<Real, Lanes, D>;

  template <typename Real, int Lanes, int D>
  BOIDS_HD static void start(Sums<Real, Lanes, D>& sums, int lane, const Boid<Real, D>&) {
    sums.clear(lane);
  }
};

}  // namespace boids::kernels
