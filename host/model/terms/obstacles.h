// Obstacles: the parameter table's row of the discs (spheres) no boid enters
// (kernels/terms/obstacles.h), and the variant that flies them.
#pragma once

#include "host/model/param_rows.h"
#include "host/model/variants.h"

namespace boids {

inline HostTerm host_term(kernels::ObstaclesTerm) {
  using namespace param_rows;
  using namespace variant_kit;
  return {"arrival_radius",
          {
              Row("obstacles", "--obstacles", "FILE", K::kRows, S::kVariants,
                  "discs no boid enters, from a CSV file with the header x,y,radius (spheres, "
                  "x,y,z,radius, in three dimensions)")
                  .rules_variant()
                  .length(),
          },
          {
              {Model::kBoids,
               {5, "obstacles", "three obstacles, one across the world's corner", three_obstacles}},
          }};
}

}  // namespace boids
