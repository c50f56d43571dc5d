// The goal and Reynolds' arrival: their rows of the parameter table (kernels/terms/goal.h),
// and the variant that flies them.
#pragma once

#include "host/model/param_rows.h"
#include "host/model/variants.h"

namespace boids {

// What its rows need and their sliders' ranges.
namespace goal_term {

inline bool has_goal(const FlockParams& p) {
  return p.has_goal;
}
inline const ParamNeed kNeedsGoal{has_goal, "--goal X,Y"};

}  // namespace goal_term

inline HostTerm host_term(kernels::GoalTerm) {
  using namespace param_rows;
  using namespace variant_kit;
  using namespace goal_term;
  return {
      "wander",
      {
          Row("goal", "--goal", "X,Y|X,Y,Z", K::kPoint, S::kVariants,
              "a point in the world the boids steer towards")
              .rules_variant()
              .length(),
          Row("goal_weight", "--goal-weight", "W", K::kNumber, S::kVariants,
              "how hard they steer to the goal")
              .rules_variant()
              .needs(kNeedsGoal)
              .number(&FlockParams::goal_weight, 1)
              .weight()
              .control(zero, five)
              .sweep(),
          Row("arrival_radius", "--arrival-radius", "R", K::kNumber, S::kVariants,
              "within R of the goal the boids slow down, their desired speed falling with the "
              "distance (Reynolds' arrival)")
              .refused("arrival slows the steering model alone (--model steering); under boids the "
                       "speed is held in [v_max/2, v_max], under vicsek every boid flies at the "
                       "constant speed V")
              .needs(kNeedsGoal)
              .number(&FlockParams::arrival_radius, 0)
              .off(0, "0: off")
              .positive()
              .length()
              .control(zero, half_side)
              .sweep(),
      },
      {
          {Model::kSteering,
           {15, "steering-goal-arrival", "a goal of weight 2 and an arrival radius",
            [](FlockParams& p) {
              goal_at(p, 0.55, 0.45, 0.5, 2);
              p.arrival_radius = 0.3 * smaller_side(p);  // most of the flock slowed by its distance
            }}},
      }};
}

}  // namespace boids
