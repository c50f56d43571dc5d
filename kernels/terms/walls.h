// Walls: how urgently they push each boid, and what that push adds to its steering (the
// obstacles add theirs to the same push, kernels/terms/obstacles.h).
#pragma once

#include "kernels/terms/lane_terms.h"

namespace boids::kernels {

// The walls, a world's term where the world is closed: their parameter (a field of
// FlockParams), their slice of the step's constants, made from the flock's parameters (`f`,
// FlockParams), and when they act. Their push (with the obstacles') is a lane term.
struct WallsTerm {
  static constexpr const char* kName = "walls";
  struct Params {
    double wall_distance = 0;  ///< walls push boids closer than this; 0 means the radius
  };
  template <typename Real>
  struct Constants {
    Real wall_distance;  // walls push boids closer than this
  };
  template <typename Real, int Lanes, int D>
  struct LaneValues {
    Real avoid[D][Lanes];  // walls' and obstacles' push (see avoid_walls)
  };
  template <typename Flock>
  static bool on(const Flock& f) {
    return f.world.walled();
  }
  template <typename Model, typename Real, typename Flock>
  static void set_constants(StepParams<Real>& p, const Flock& f) {
    p.wall_distance = static_cast<Real>(f.effective_wall_distance());
  }
};

// How urgently walls push each boid, and where: the sum over each wall closer than
// wall_distance of (1 - gap / wall_distance) times the direction away from it. Selects, not
// branches, so that the lanes vectorise; adding a selected +0 to a sum that starts at +0 changes
// nothing, bit for bit.
template <typename Real, int Lanes, int D>
BOIDS_HD inline void avoid_walls(LaneTerms<Real, Lanes, D>& t,
                                 const LaneBoids<Real, Lanes, D>& self, const StepParams<Real>& p) {
  const Real reach = p.wall_distance;
  for (int a = 0; a < D; ++a) {
    const Real side = p.side[a];
#if !defined(__CUDA_ARCH__)
#pragma omp simd
#endif
    for (int lane = 0; lane < Lanes; ++lane) {
      const Real x = self.position[a][lane];
      Real u = 0;
      if (walled(p)) {
        u += x < reach ? Real(1) - x / reach : Real(0);
        u -= side - x < reach ? Real(1) - (side - x) / reach : Real(0);
      }
      t.avoid[a][lane] = u;
    }
  }
}

// The push of walls and obstacles as a boids-model velocity change: kAvoidGain v_max at a
// wall's very edge.
template <typename Real, int Lanes, int D>
BOIDS_HD BOIDS_INLINE void push_velocity(Real (&out)[D], const LaneTerms<Real, Lanes, D>& t,
                                         int lane, const StepParams<Real>& p) {
  const Real gain = Real(kAvoidGain) * p.max_speed;
  for (int a = 0; a < D; ++a) out[a] = gain * t.avoid[a][lane];
}

// The same as a steering force: up to the maximum force.
template <typename Real, int Lanes, int D>
BOIDS_HD BOIDS_INLINE void add_push_force(Real (&force)[D], const LaneTerms<Real, Lanes, D>& t,
                                          int lane, const StepParams<Real>& p) {
  for (int a = 0; a < D; ++a) force[a] += p.max_force * t.avoid[a][lane];
}

}  // namespace boids::kernels
