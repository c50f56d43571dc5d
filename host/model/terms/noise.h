// The noise: its row of the parameter table (kernels/terms/turn.h), and the variant that flies
// it.
#pragma once

#include "host/model/param_rows.h"
#include "host/model/variants.h"

namespace boids {

inline HostTerm host_term(kernels::NoiseTerm) {
  using namespace param_rows;
  return {
      "nearest",
      {
          Row("noise", "--noise", "ETA", K::kNumber, S::kVariants,
              "each step every heading turns by an angle uniform in [-ETA/2, ETA/2], in radians")
              .rules_variant()
              .number(&FlockParams::noise, 0)
              .range(0, 2 * kPi)
              .range_text("radians in [0, 2 pi]")
              .control(zero, [](const FlockParams&) { return 2 * kPi; })
              .sweep(),
      },
      {
          {Model::kBoids, {3, "noise", "--noise 1", [](FlockParams& p) { p.noise = 1; }}},
      }};
}

}  // namespace boids
