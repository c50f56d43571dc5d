// Walls: the parameter table's row of a closed world's edges (kernels/terms/walls.h), and
// the variant that flies them.
#pragma once

#include "host/model/param_rows.h"
#include "host/model/variants.h"

namespace boids {

// What its rows need and their sliders' ranges.
namespace walls_term {

inline bool walled(const FlockParams& p) {
  return p.world.walled();
}
inline const ParamNeed kNeedsWalls{walled, "--boundary walls"};

}  // namespace walls_term

inline HostTerm host_term(kernels::WallsTerm) {
  using namespace param_rows;
  using namespace variant_kit;
  using namespace walls_term;
  return {"boundary",
          {
              Row("wall_distance", "--wall-distance", "D", K::kNumber, S::kWorld,
                  "walls push boids closer than D")
                  .needs(kNeedsWalls)
                  .number(&FlockParams::wall_distance, 0)
                  .derived([](const FlockParams& p) { return p.radius; }, "the radius")
                  .positive()
                  .length()
                  .control(radius_tenth, half_side, true)
                  .sweep(),
          },
          {
              {Model::kBoids, {4, "walls", "--boundary walls", walls}},
          }};
}

}  // namespace boids
