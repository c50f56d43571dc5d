// Reynolds' wander: its row of the parameter table (kernels/terms/wander.h), and the variants
// that fly it.
#pragma once

#include "host/model/param_rows.h"
#include "host/model/variants.h"

namespace boids {

inline HostTerm host_term(kernels::WanderTerm) {
  using namespace param_rows;
  using namespace variant_kit;
  return {
      "noise",
      {
          Row("wander", "--wander", "W", K::kNumber, S::kVariants,
              "Reynolds' wander: each boid steers across its heading along a drift that wanders at "
              "random, with this weight")
              .rules_variant()
              .refused("wander steers the boids and steering models; under vicsek a heading only "
                       "aligns and turns by the noise (--noise)")
              .number(&FlockParams::wander, 0)
              .off(0, "0: off")
              .weight()
              .control(zero, five)
              .sweep(),
      },
      {
          {Model::kBoids, {8, "wander", "--wander 2", [](FlockParams& p) { p.wander = 2; }}},
          {Model::kSteering,
           {16, "steering-wander-walls", "--wander 1.5 between walls",
            [](FlockParams& p) {
              walls(p);
              p.wander = 1.5;
            }}},
      }};
}

}  // namespace boids
