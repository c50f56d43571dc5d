// Vicsek et al. 1995 (Phys. Rev. Lett. 75, 1226): particles at a constant speed V take the
// mean heading of their neighbours within r, themselves included, plus noise uniform in
// [-eta/2, eta/2] (in 3D, a direction uniform within the cone of half-angle eta/2 about
// it); positions advance with the new velocity, one unit of time a step. The boids'
// weights do not apply. Velocities keep the speed V, so the sum of the neighbours' velocities
// points where the sum of their headings does.
//
// Variants: a goal adds goal_weight times the unit direction to it to the mean heading; wind is
// a drift added to every step's displacement; walls and obstacles reflect particles, which do
// not steer around them.
#pragma once

#include "kernels/rules.h"

namespace boids::kernels {

#if !defined(__CUDACC__)
template <typename Real, int Lanes, int D>
struct HeadingPack;
#endif

// What the particles of a block have seen: how many neighbours, the sum of their velocities.
template <typename Real, int Lanes, int D>
struct HeadingSums {
#if !defined(__CUDACC__)
  using Pack = HeadingPack<Real, Lanes, D>;
#endif
  int count[Lanes];
  Real velocity[D][Lanes];

  BOIDS_HD int heard(int lane) const {
    return count[lane];
  }
  BOIDS_HD bool pushed(int) const {
    return false;
  }

  BOIDS_HD BOIDS_INLINE void add(int lane, const Real (&v)[D], bool near) {
    count[lane] += static_cast<int>(near);
    for (int a = 0; a < D; ++a) velocity[a][lane] += near ? v[a] : Real(0);
  }
};

#if !defined(__CUDACC__)
// HeadingSums as vectors of the lanes (kernels/lane_pack.h). A sum starts at the particle's
// own velocity, which may hold a -0, so a velocity adds a selected 0 as the lanes' loop does.
template <typename Real, int Lanes, int D>
struct HeadingPack {
  using V = typename PackOf<Real, Lanes>::Values;
  using M = typename PackOf<Real, Lanes>::Mask;
  M count;
  V velocity[D];

  BOIDS_INLINE void load(const HeadingSums<Real, Lanes, D>& s) {
    count = load_lanes<M>(s.count);
    for (int a = 0; a < D; ++a) velocity[a] = load_lanes<V>(s.velocity[a]);
  }
  BOIDS_INLINE void store(HeadingSums<Real, Lanes, D>& s) const {
    store_lanes(count, s.count);
    for (int a = 0; a < D; ++a) store_lanes(velocity[a], s.velocity[a]);
  }
  BOIDS_INLINE void add(const Real (&v)[D], M near) {
    count = near ? count + 1 : count;
    for (int a = 0; a < D; ++a) velocity[a] = velocity[a] + (near ? splat<V>(v[a]) : V{});
  }
};
#endif

struct Vicsek {
  static constexpr const char* kName = "vicsek";
  static constexpr bool kSteersByForce = false;  // its goal turns its heading

  // The constant speed is the clamp's floor too.
  template <typename Real, typename Flock>
  static void set_constants(StepParams<Real>& p, const Flock&) {
    p.min_speed = p.max_speed;
  }

  template <typename Real, int Lanes, int D>
  using Sums = HeadingSums<Real, Lanes, D>;

  // The particle is its own first neighbour.
  template <typename Real, int Lanes, int D>
  BOIDS_HD static void start(Sums<Real, Lanes, D>& sums, int lane, const Boid<Real, D>& self) {
    sums.count[lane] = 1;
    for (int a = 0; a < D; ++a) sums.velocity[a][lane] = self.velocity[a];
  }

  template <typename S, typename V, typename M, typename Real, int D>
  BOIDS_HD BOIDS_INLINE static void add(S& sums, const V (&)[D], V d2, const Boid<Real, D>& other,
                                        const StepParams<Real>& p, M seen) {
    const M near = seen & (d2 < p.radius_sq);
    sums.add(other.velocity, near);
  }

  // The new velocity: speed V along the neighbours' mean heading (one's own where the headings
  // cancel, +x for a particle at rest too), turned towards the goal and by the noise. Selects,
  // not branches, so that a block's lanes vectorise.
  // Returns whether a length was too large for the published step's arithmetic (see length_of).
  template <typename E, bool Large, typename Real, int Lanes, int D>
  BOIDS_HD BOIDS_INLINE static bool steer(const Real (&)[D], Real (&v)[D],
                                          const Sums<Real, Lanes, D>& sums,
                                          const LaneTerms<Real, Lanes, D>& terms, int lane,
                                          const StepParams<Real>& p) {
    // Lengths whose square would overflow are taken at a smaller scale (see length_of),
    // which keeps the direction.
    Real s[D], scale;
    for (int a = 0; a < D; ++a) s[a] = sums.velocity[a][lane];
    bool large = false;
    const Real mean = length_of<Large>(s, scale, large);
    const Real own = length_of<Large>(v, scale, large);
    Real h[D];
    for (int a = 0; a < D; ++a) {
      const Real alone = own > Real(0) ? v[a] / own : (a == 0 ? Real(1) : Real(0));
      h[a] = mean > Real(0) ? s[a] / mean : alone;
    }
    if constexpr (E::kWorldTerms) add_heading_terms(h, terms, lane, p);
    if constexpr (E::kNoise) apply_turn(h, terms, lane);
    for (int a = 0; a < D; ++a) v[a] = p.max_speed * h[a];
    return large;
  }

  // Wind drifts the particles: it adds to the displacement, not to the heading.
  template <typename E, typename Real, int D>
  BOIDS_HD BOIDS_INLINE static void displacement(const Real (&v)[D], const StepParams<Real>& p,
                                                 Real (&d)[D]) {
    for (int a = 0; a < D; ++a) d[a] = E::kWind ? v[a] + p.wind[a] : v[a];
  }

  template <typename Real>
  BOIDS_HD BOIDS_INLINE static Real onto_torus(Real x, Real d, Real side) {
    return wrap_position(x + d, side);
  }
};

}  // namespace boids::kernels
