// Predators as agents and the boids' evasion: their rows of the parameter table
// (kernels/terms/evade.h), and the variants that fly them.
#pragma once

#include "host/model/param_rows.h"
#include "host/model/variants.h"

namespace boids {

// What its rows need and their sliders' ranges.
namespace evade_term {

inline bool hunted(const FlockParams& p) {
  return p.predators > 0;
}
inline const ParamNeed kNeedsPredators{hunted, "--predators K"};

}  // namespace evade_term

inline HostTerm host_term(kernels::EvadeTerm) {
  using namespace param_rows;
  using namespace variant_kit;
  using namespace evade_term;
  return {
      "path_weight",
      {
          Row("predators", "--predators", "K", K::kWhole, S::kVariants,
              "K predators fly in the world, each pursuing the boid nearest to it; boids near one "
              "flee it")
              .rules_variant()
              .refused("boids flee predators under the boids and steering models; under vicsek a "
                       "heading only aligns and turns by the noise (--noise)")
              .whole(&FlockParams::predators, 0, kMaxPredators)
              .off(0, "0: none")
              .sweep(),
          Row("predator_speed", "--predator-speed", "V", K::kNumber, S::kVariants,
              "a predator's top speed")
              .rules_variant()
              .needs(kNeedsPredators)
              .number(&FlockParams::predator_speed, 0)
              .derived([](const FlockParams& p) { return p.model_predator_speed(); },
                       "1.5 times the boids' --max-speed")
              .positive()
              .length()
              .sweep(),
          Row("flee_radius", "--flee-radius", "R", K::kNumber, S::kVariants,
              "boids closer than R to a predator steer away from where it will be, the harder "
              "the nearer")
              .rules_variant()
              .needs(kNeedsPredators)
              .number(&FlockParams::flee_radius, 0)
              .derived([](const FlockParams& p) { return p.model_flee_radius(); },
                       "2 times the radius")
              .positive()
              .length()
              .sweep(),
      },
      {
          {Model::kBoids,
           {11, "predators-walls-obstacle", "--predators 4 between walls, around an obstacle",
            [](FlockParams& p) {
              p.predators = 4;
              walls(p);
              p.obstacles = {disc(p, 0.5, 0.5, 0.5, 0.1)};
            }}},
          {Model::kSteering,
           {18, "steering-predators", "--predators 2 --flee-radius 6 r",
            [](FlockParams& p) {
              p.predators = 2;
              p.flee_radius = 6 * p.radius;
            }}},
      }};
}

}  // namespace boids
