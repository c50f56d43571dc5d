// Couzin, Krause, James, Ruxton & Franks 2002 (J. Theor. Biol. 218, 1), "Collective memory and
// spatial sorting in animal groups": individuals at a constant speed s perceive others within
// three zones. A neighbour in the zone of repulsion (closer than r_r) takes priority: the
// individual turns away from the sum of the unit vectors to such neighbours. Else it aligns with
// the headings in the zone of orientation (its own included) and turns towards the neighbours in
// the zone of attraction, half of each normalised sum when both hold neighbours. With none it
// keeps its heading. A blind angle behind (--fov) hides neighbours in every zone. The desired
// direction turns by a Gaussian angle of s.d. sigma (--noise), and the heading turns towards it
// by at most theta dt (--turn-rate, --dt); positions advance by s dt along it.
//
// docs/models.md gives the step operation by operation; the reference
// (host/reference/models/couzin.cpp) follows it apart from this file.
#pragma once

#include <type_traits>

#include "kernels/rules.h"

namespace boids::kernels {

#if !defined(__CUDACC__)
template <typename Real, int Lanes, int D>
struct ZonePack;
#endif

// What a block's individuals have seen in their zones: how many neighbours in each, the sums of
// the unit vectors to those of repulsion and attraction, and of the headings in orientation.
template <typename Real, int Lanes, int D>
struct ZoneSums {
#if !defined(__CUDACC__)
  using Pack = ZonePack<Real, Lanes, D>;
#endif
  int repel[Lanes], orient[Lanes], attract[Lanes];
  Real away[D][Lanes], heading[D][Lanes], toward[D][Lanes];

  // What a lane has heard, for the neighbour check: its neighbours, and whether any repels it.
  BOIDS_HD int heard(int lane) const {
    return repel[lane] + orient[lane] + attract[lane];
  }
  BOIDS_HD bool pushed(int lane) const {
    return repel[lane] > 0;
  }

  // Each sum adds its term or a selected +0, as ZonePack does: the sums never hold a -0 (the
  // orientation sum starts at 0 + the own heading), so the bits are those of adding only the
  // neighbours of the zone.
  template <typename U>
  BOIDS_HD BOIDS_INLINE void add(int lane, const U (&u)[D], const Real (&h)[D], bool repels,
                                 bool orients, bool attracts) {
    repel[lane] += static_cast<int>(repels);
    orient[lane] += static_cast<int>(orients);
    attract[lane] += static_cast<int>(attracts);
    for (int a = 0; a < D; ++a) away[a][lane] += repels ? u[a] : Real(0);
    for (int a = 0; a < D; ++a) heading[a][lane] += orients ? h[a] : Real(0);
    for (int a = 0; a < D; ++a) toward[a][lane] += attracts ? u[a] : Real(0);
  }
};

#if !defined(__CUDACC__)
// ZoneSums as vectors of the lanes (kernels/lane_pack.h).
template <typename Real, int Lanes, int D>
struct ZonePack {
  using V = typename PackOf<Real, Lanes>::Values;
  using M = typename PackOf<Real, Lanes>::Mask;
  M repel, orient, attract;
  V away[D], heading[D], toward[D];

  BOIDS_INLINE void load(const ZoneSums<Real, Lanes, D>& s) {
    repel = load_lanes<M>(s.repel);
    orient = load_lanes<M>(s.orient);
    attract = load_lanes<M>(s.attract);
    for (int a = 0; a < D; ++a) {
      away[a] = load_lanes<V>(s.away[a]);
      heading[a] = load_lanes<V>(s.heading[a]);
      toward[a] = load_lanes<V>(s.toward[a]);
    }
  }
  BOIDS_INLINE void store(ZoneSums<Real, Lanes, D>& s) const {
    store_lanes(repel, s.repel);
    store_lanes(orient, s.orient);
    store_lanes(attract, s.attract);
    for (int a = 0; a < D; ++a) {
      store_lanes(away[a], s.away[a]);
      store_lanes(heading[a], s.heading[a]);
      store_lanes(toward[a], s.toward[a]);
    }
  }
  BOIDS_INLINE void add(const V (&u)[D], const Real (&h)[D], M repels, M orients, M attracts) {
    repel = repels ? repel + 1 : repel;
    orient = orients ? orient + 1 : orient;
    attract = attracts ? attract + 1 : attract;
    for (int a = 0; a < D; ++a) away[a] = away[a] + (repels ? u[a] : V{});
    for (int a = 0; a < D; ++a) heading[a] = heading[a] + (orients ? splat<V>(h[a]) : V{});
    for (int a = 0; a < D; ++a) toward[a] = toward[a] + (attracts ? u[a] : V{});
  }
};
#endif

// The square root of one number or of each lane of a vector (correctly rounded either way).
template <typename V>
BOIDS_HD BOIDS_INLINE V root_of(V x) {
  if constexpr (std::is_floating_point_v<V>) {
    return square_root(x);
  } else {
    V r;
    for (unsigned lane = 0; lane < sizeof(V) / sizeof(x[0]); ++lane) r[lane] = square_root(x[lane]);
    return r;
  }
}

// v / |v|, or `fallback` where v has no length.
template <typename Real, int D>
BOIDS_HD BOIDS_INLINE void unit_or(Real (&v)[D], const Real (&fallback)[D]) {
  const Real length = square_root(length_sq(v));
  for (int a = 0; a < D; ++a) v[a] = length > Real(0) ? v[a] / length : fallback[a];
}

struct Couzin {
  static constexpr const char* kName = "couzin";
  static constexpr bool kSteersByForce = false;  // it takes none of the world's terms

  template <typename Real, int Lanes, int D>
  using Sums = ZoneSums<Real, Lanes, D>;

  // The model's constants of a step, from the flock's parameters (`f`, FlockParams): the zones'
  // squared edges and the most a heading turns in a step.
  template <typename Real, typename Flock>
  static void set_constants(StepParams<Real>& p, const Flock& f) {
    p.min_speed = p.max_speed;
    p.dt = static_cast<Real>(f.dt);
    p.repulsion_sq = static_cast<Real>(f.repulsion_radius * f.repulsion_radius);
    const double orientation = f.repulsion_radius + f.orientation_width;
    p.orientation_sq = static_cast<Real>(orientation * orientation);
    const double angle = f.turn_rate * f.dt * 3.141592653589793 / 180;
    p.limited_turn = angle < 3.141592653589793;
    double c = -1, s = 0;
    if (p.limited_turn) cos_sin(angle, c, s);
    p.cos_turn = static_cast<Real>(c);
    p.sin_turn = static_cast<Real>(s);
    p.gaussian_noise = true;
  }

  // The heading of a velocity; +x at rest.
  template <typename Real, int D>
  BOIDS_HD BOIDS_INLINE static void heading_of(const Real (&v)[D], Real (&h)[D]) {
    Real x[D] = {};
    x[0] = Real(1);
    for (int a = 0; a < D; ++a) h[a] = v[a];
    unit_or(h, x);
  }

  template <typename Real, int Lanes, int D>
  BOIDS_HD static void start(Sums<Real, Lanes, D>& sums, int lane, const Boid<Real, D>& self) {
    Real h[D];
    heading_of(self.velocity, h);
    sums.repel[lane] = sums.orient[lane] = sums.attract[lane] = 0;
    for (int a = 0; a < D; ++a) {
      sums.away[a][lane] = sums.toward[a][lane] = Real(0);
      sums.heading[a][lane] = Real(0) + h[a];
    }
  }

  template <typename S, typename V, typename M, typename Real, int D>
  BOIDS_HD BOIDS_INLINE static void add(S& sums, const V (&d)[D], V d2, const Boid<Real, D>& other,
                                        const StepParams<Real>& p, M seen) {
    const M near = both(seen, M((d2 < p.radius_sq) & (d2 > Real(0))));
    const M repels = both(near, M(d2 < p.repulsion_sq));
    const M orients = both(near, M((d2 >= p.repulsion_sq) & (d2 < p.orientation_sq)));
    const M attracts = both(near, M(d2 >= p.orientation_sq));
    const V length = root_of(d2);
    V u[D];
    for (int a = 0; a < D; ++a) u[a] = d[a] / length;
    Real g[D];
    const Real zero[D] = {};
    for (int a = 0; a < D; ++a) g[a] = other.velocity[a];
    unit_or(g, zero);
    sums.add(u, g, repels, orients, attracts);
  }

  // The new velocity: the desired direction by the zones, turned by the noise, then the heading
  // turned towards it by at most the step's turn.
  template <typename E, bool Large, typename Real, int Lanes, int D>
  BOIDS_HD BOIDS_INLINE static bool steer(const Real (&)[D], Real (&v)[D],
                                          const Sums<Real, Lanes, D>& sums,
                                          const LaneTerms<Real, Lanes, D>& terms, int lane,
                                          const StepParams<Real>& p) {
    Real h[D], w[D];
    heading_of(v, h);
    desired(sums, lane, h, w);
    if constexpr (E::kNoise) apply_turn(w, terms, lane);
    Real n[D];
    turn_towards(h, w, p, n);
    for (int a = 0; a < D; ++a) v[a] = p.max_speed * n[a];
    return false;
  }

  template <typename E, typename Real, int D>
  BOIDS_HD BOIDS_INLINE static void displacement(const Real (&v)[D], const StepParams<Real>& p,
                                                 Real (&d)[D]) {
    for (int a = 0; a < D; ++a) d[a] = v[a] * p.dt;
  }

  template <typename Real>
  BOIDS_HD BOIDS_INLINE static Real onto_torus(Real x, Real d, Real side) {
    return wrap_position(x + d, side);
  }

 private:
  // The zones' rule: repulsion first; else orientation, attraction or half of each normalised;
  // else the heading kept. A direction of no length is the heading.
  template <typename Real, int Lanes, int D>
  BOIDS_HD BOIDS_INLINE static void desired(const Sums<Real, Lanes, D>& sums, int lane,
                                            const Real (&h)[D], Real (&w)[D]) {
    Real o[D], q[D];
    for (int a = 0; a < D; ++a) {
      o[a] = sums.heading[a][lane];
      q[a] = sums.toward[a][lane];
    }
    const bool orients = sums.orient[lane] > 0, attracts = sums.attract[lane] > 0;
    if (sums.repel[lane] > 0) {
      for (int a = 0; a < D; ++a) w[a] = -sums.away[a][lane];
    } else if (orients && attracts) {
      unit_or(o, o);
      unit_or(q, q);
      for (int a = 0; a < D; ++a) w[a] = Real(0.5) * (o[a] + q[a]);
    } else if (orients) {
      for (int a = 0; a < D; ++a) w[a] = o[a];
    } else if (attracts) {
      for (int a = 0; a < D; ++a) w[a] = q[a];
    } else {
      for (int a = 0; a < D; ++a) w[a] = h[a];
    }
    unit_or(w, h);
  }

  // The heading after at most the step's turn from h towards w: w itself within the turn, else
  // h rotated by the turn in the plane of h and w (about a fixed perpendicular where w is -h),
  // normalised: where w is nearly -h, the part of w across h is what cancellation leaves, not
  // quite perpendicular to h, and the rotated heading would stray from unit length.
  template <typename Real, int D>
  BOIDS_HD BOIDS_INLINE static void turn_towards(const Real (&h)[D], const Real (&w)[D],
                                                 const StepParams<Real>& p, Real (&n)[D]) {
    const Real c = dot(h, w);
    if (!p.limited_turn || c >= p.cos_turn) {
      for (int a = 0; a < D; ++a) n[a] = w[a];
      return;
    }
    Real across[D], fallback[D];
    for (int a = 0; a < D; ++a) across[a] = w[a] - c * h[a];
    perpendicular(h, fallback);
    unit_or(across, fallback);
    for (int a = 0; a < D; ++a) n[a] = p.cos_turn * h[a] + p.sin_turn * across[a];
    unit_or(n, n);
  }

  // A unit vector across the unit h: its left in 2D; in 3D the first of the basis the noise's
  // cone turn builds about h.
  template <typename Real, int D>
  BOIDS_HD BOIDS_INLINE static void perpendicular(const Real (&h)[D], Real (&e)[D]) {
    if constexpr (D == 2) {
      e[0] = -h[1];
      e[1] = h[0];
    } else {
      const Real sign = h[2] >= Real(0) ? Real(1) : Real(-1);
      const Real k = Real(-1) / (sign + h[2]);
      e[0] = Real(1) + sign * h[0] * h[0] * k;
      e[1] = sign * (h[0] * h[1] * k);
      e[2] = -sign * h[0];
    }
  }
};

}  // namespace boids::kernels
