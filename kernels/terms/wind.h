// Wind: a constant velocity every boid is carried by, added by each model's steer (times dt;
// the Vicsek model's particles drift by it after their heading is set).
#pragma once

#include "kernels/param_values.h"
#include "kernels/step_params.h"

namespace boids::kernels {

// The wind's parameter (a field of FlockParams) and its slice of the step's constants, made
// from the flock's parameters (`f`, FlockParams).
struct WindTerm {
  static constexpr const char* kName = "wind";
  struct Params {
    Vec3 wind;  ///< a velocity added every step (times dt) before the clamp
  };
  template <typename Real>
  struct Constants {
    bool has_wind;
    Real wind[3];  // added to the velocity every step, times dt
  };
  template <typename Flock>
  static bool on(const Flock& f) {
    return f.wind.x != 0 || f.wind.y != 0 || (f.dimensions == 3 && f.wind.z != 0);
  }
  template <typename Model, typename Real, typename Flock>
  static void set_constants(StepParams<Real>& p, const Flock& f) {
    p.has_wind = on(f);
    const double wind[3] = {f.wind.x, f.wind.y, f.wind.z};
    for (int a = 0; a < 3; ++a) p.wind[a] = static_cast<Real>(wind[a]);
  }
};

}  // namespace boids::kernels
