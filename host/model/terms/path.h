// Reynolds' path following: its rows of the parameter table (kernels/terms/path.h), and the
// variants that fly it.
#pragma once

#include "host/model/param_rows.h"
#include "host/model/variants.h"

namespace boids {

// What its rows need and their sliders' ranges.
namespace path_term {

inline bool has_path(const FlockParams& p) {
  return !p.path.empty();
}
inline const ParamNeed kNeedsPath{has_path, "--path FILE"};

}  // namespace path_term

inline HostTerm host_term(kernels::PathTerm) {
  using namespace param_rows;
  using namespace variant_kit;
  using namespace path_term;
  return {
      "obstacles",
      {
          Row("path", "--path", "FILE", K::kRows, S::kVariants,
              "a polyline the boids follow (Reynolds' path following), from a CSV file with the "
              "header x,y (x,y,z in three dimensions); closed when its last point repeats its "
              "first")
              .rules_variant()
              .refused(
                  "path following steers the boids and steering models; under vicsek a heading "
                  "only aligns and turns by the noise (--noise)")
              .length(),
          Row("path_radius", "--path-radius", "R", K::kNumber, S::kVariants,
              "a boid predicted farther than R from the path steers back to it")
              .rules_variant()
              .needs(kNeedsPath)
              .number(&FlockParams::path_radius, 0)
              .derived([](const FlockParams& p) { return p.radius; }, "the radius")
              .positive()
              .length()
              .control(radius_hundredth, half_side)
              .sweep(),
          Row("path_weight", "--path-weight", "W", K::kNumber, S::kVariants,
              "how hard they steer back to the path")
              .rules_variant()
              .needs(kNeedsPath)
              .number(&FlockParams::path_weight, 1)
              .weight()
              .control(zero, five)
              .sweep(),
      },
      {
          {Model::kBoids,
           {9, "path-closed", "a closed path of four segments, --path-radius 1.2 r",
            [](FlockParams& p) {
              p.path = {at(p, 0.2, 0.2, 0.12), at(p, 0.8, 0.25, 0.5), at(p, 0.7, 0.85, 0.85),
                        at(p, 0.15, 0.7, 0.5), at(p, 0.2, 0.2, 0.12)};
              p.path_radius = 1.2 * p.radius;
            }}},
          {Model::kSteering,
           {17, "steering-path-open-walls", "an open path of weight 2 between walls",
            [](FlockParams& p) {
              walls(p);
              p.path = {at(p, 0.1, 0.5, 0.5), at(p, 0.5, 0.2, 0.5), at(p, 0.9, 0.6, 0.75)};
              p.path_weight = 2;
            }}},
      }};
}

}  // namespace boids
