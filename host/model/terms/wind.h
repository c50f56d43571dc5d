// Wind: its row of the parameter table (kernels/terms/wind.h).
#pragma once

#include "host/model/param_rows.h"

namespace boids {

// What its rows need and their sliders' ranges.
namespace wind_term {

// Wind, each axis: within v_max; under Vicsek, all axes together within the room the speed
// leaves of a step.
inline double most_wind(const FlockParams& p) {
  FlockParams calm = p;
  calm.wind = Vec3{};
  const double room = spec_of(p.model).wind_drifts
                          ? param_rows::largest_max_speed(calm) - p.max_speed
                          : p.max_speed;
  return std::max(0.0, std::min(p.max_speed, room / std::sqrt(double(p.dimensions))));
}
inline double least_wind(const FlockParams& p) {
  return -most_wind(p);
}

}  // namespace wind_term

inline HostTerm host_term(kernels::WindTerm) {
  using namespace param_rows;
  using namespace wind_term;
  return {"flee_radius",
          {
              Row("wind", "--wind", "WX,WY|WX,WY,WZ", K::kVector, S::kVariants,
                  "a velocity added to every boid each step (times dt)")
                  .rules_variant()
                  .length()
                  .control(least_wind, most_wind),
          }};
}

}  // namespace boids
