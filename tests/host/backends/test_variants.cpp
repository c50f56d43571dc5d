// What each model and variant is for, shown on every backend by a small case that only it
// explains: a boid behind another is not seen in a 180 degree field of view; no boid leaves the
// walls or enters an obstacle, however fast; a flock reaches its goal; wind drifts it; full noise
// destroys its order; a separation radius decides who pushes; the steering lab's own loop sees
// the boids before it; Vicsek particles keep their speed and order without noise. (`boids
// validate` compares every variant with the reference boid by boid; these show that each
// variant does what it says.)
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <functional>
#include <memory>
#include <string>

#include "host/core/simulation.h"
#include "host/metrics/metrics.h"
#include "host/model/initial_state.h"
#include "host/reference/reference.h"
#include "tests/support/test_support.h"

namespace boids {
namespace {

using test_support::engine_case_name;
using test_support::EngineCase;
using test_support::every_engine_case;
using test_support::make_state;

// The shortest distance between two points of the 100 x 100 torus that the tests fly in.
double torus_distance(double ax, double ay, double bx, double by) {
  double dx = std::abs(ax - bx), dy = std::abs(ay - by);
  dx = std::min(dx, 100 - dx);
  dy = std::min(dy, 100 - dy);
  return std::hypot(dx, dy);
}

class VariantTest : public test_support::EngineCaseTest {
 protected:
  // Steps one at a time, calling `each` with the state after every step.
  void run(const FlockState& start, const FlockParams& params, int steps,
           const std::function<void(int, const FlockState&)>& each) const {
    const auto sim = make(start, params);
    for (int t = 1; t <= steps; ++t) {
      sim->step(1);
      each(t, sim->state());
    }
  }

  double tolerance() const { return GetParam().precision == Precision::kFloat ? 1e-5 : 1e-12; }
};

// Headings all along +x at speed v: an ordered flock.
FlockState ordered(std::size_t n, const FlockParams& p, double v) {
  FlockState s = make_initial_state(n, 3, p);
  for (std::size_t i = 0; i < n; ++i) {
    s.vx[i] = v;
    s.vy[i] = 0;
  }
  return s;
}

TEST_P(VariantTest, ABoidBehindIsNotSeenInAHalfCircleFieldOfView) {
  FlockParams p;
  // A heads +x; B is straight behind it, 5 away; both within r of each other.
  const FlockState s = make_state({{50, 50, 0.7, 0}, {45, 50, 0.7, 0.2}});
  const FlockState alone = make_state({{50, 50, 0.7, 0}});
  p.fov = 180;
  const FlockState with_fov = after(s, p, 1);
  EXPECT_NEAR(with_fov.vx[0], after(alone, p, 1).vx[0], tolerance());  // A does not see B
  EXPECT_NEAR(with_fov.vy[0], 0.0, tolerance());
  EXPECT_NE(with_fov.vy[1], 0.2);  // B sees A ahead and steers
  p.fov = 360;
  EXPECT_GT(std::abs(after(s, p, 1).vy[0]), 1e-4);  // all around, A sees B
  // A boid at rest sees all around, even with a narrow field of view.
  p.fov = 10;
  const FlockState rest = after(make_state({{50, 50, 0, 0}, {45, 50, 0.7, 0}}), p, 1);
  EXPECT_GT(std::hypot(rest.vx[0], rest.vy[0]), 0.0);
}

TEST_P(VariantTest, NoBoidLeavesTheWallsHoweverFast) {
  for (const Model model : test_support::every_model()) {
    FlockParams p;
    p.model = model;
    p.world = World{60, 35, Boundary::kWalls};
    p.radius = 3;
    settle_model(p);  // couzin's radius is its zones'
    // Steps longer than the world is high (40; a timed model's at its dt of 1/60).
    p.max_speed = spec_of(model).timed ? 2400 : 40;
    const FlockState start = make_initial_state(600, 4, p);
    bool bounced = false;
    run(start, p, 150, [&](int t, const FlockState& s) {
      for (std::size_t i = 0; i < s.size(); ++i) {
        ASSERT_TRUE(s.x[i] >= 0 && s.x[i] < p.world.width && s.y[i] >= 0 && s.y[i] < p.world.height)
            << to_string(model) << " step " << t << " boid " << i << " at (" << s.x[i] << ", "
            << s.y[i] << ")";
      }
      bounced = bounced || s.vx[0] * start.vx[0] < 0 || s.vy[0] * start.vy[0] < 0;
    });
    EXPECT_TRUE(bounced) << to_string(model);
  }
}

TEST_P(VariantTest, NoBoidEndsAStepInsideAnObstacle) {
  for (const Model model : test_support::every_model()) {
    if (!spec_of(model).takes_flag("--obstacles")) continue;
    FlockParams p;
    p.model = model;
    p.radius = 4;
    p.max_speed = model == Model::kSteering ? 300 : 3;
    // Overlapping discs, one across the torus's corner, one larger than a step is long.
    p.obstacles = {{30, 30, 8}, {36, 30, 6}, {98, 2, 7}, {70, 65, 15}};
    const FlockState start = make_initial_state(800, 5, p);
    run(start, p, 150, [&](int t, const FlockState& s) {
      for (std::size_t i = 0; i < s.size(); ++i) {
        for (const Obstacle& o : p.obstacles) {
          ASSERT_GE(torus_distance(s.x[i], s.y[i], o.x, o.y), o.radius * (1 - 1e-6))
              << to_string(model) << " step " << t << " boid " << i << " in the obstacle at ("
              << o.x << ", " << o.y << ")";
        }
      }
    });
  }
}

// The mean distance of the boids to the goal, across the torus.
double distance_to_goal(const FlockState& s, const Vec3& goal) {
  double sum = 0;
  for (std::size_t i = 0; i < s.size(); ++i) sum += torus_distance(s.x[i], s.y[i], goal.x, goal.y);
  return sum / static_cast<double>(s.size());
}

TEST_P(VariantTest, AFlockReachesItsGoal) {
  for (const Model model : test_support::every_model()) {
    if (!spec_of(model).takes_flag("--goal")) continue;
    FlockParams p;
    p.model = model;
    p.radius = 5;
    // Slow enough to circle the goal closely once there (radius v^2 / a).
    p.max_speed = model == Model::kSteering ? 12 : 1;
    p.dt = 0.1;
    p.has_goal = true;
    p.goal = {80, 20};
    p.goal_weight = 10;
    const FlockState start = make_initial_state(300, 6, p);
    const double before = distance_to_goal(start, p.goal);
    const double later = distance_to_goal(after(start, p, 300), p.goal);
    EXPECT_GT(before, 30) << to_string(model);
    EXPECT_LT(later, 0.4 * before) << to_string(model) << ": from " << before;
  }
}

// Arrival (steering): within its radius the desired speed, and the least speed, fall with the
// distance to the goal. A lone boid flown at the goal at full speed passes it at full speed,
// overshoots far and keeps circling back; with arrival it slows down and comes to rest there.
TEST_P(VariantTest, ArrivalSlowsABoidAtItsGoal) {
  FlockParams p;
  p.model = Model::kSteering;
  p.radius = 5;
  p.max_speed = 12;
  p.dt = 0.1;
  p.has_goal = true;
  p.goal = {50, 50};
  p.goal_weight = 2;
  const FlockState start = make_state({{10.0, 50.0, 12.0, 0.0}});
  struct Pass {
    double speed_at_goal = 0, overshoot = 0, later = 0;  // later: the mean distance, steps 60-300
  };
  const auto pass = [&](const FlockParams& params) {
    Pass out;
    double closest = 1e9;
    bool passed = false;
    run(start, params, 300, [&](int step, const FlockState& s) {
      const double d = torus_distance(s.x[0], s.y[0], 50, 50);
      if (!passed && d < closest) {
        closest = d;
        out.speed_at_goal = std::hypot(s.vx[0], s.vy[0]);
      } else if (!passed && d > out.overshoot) {
        out.overshoot = d;
      } else {
        passed = true;  // the first turn back
      }
      if (step > 60) out.later += d / 240;
    });
    return out;
  };
  const Pass through = pass(p);
  p.arrival_radius = 25;
  const Pass arriving = pass(p);
  EXPECT_GT(through.speed_at_goal, 0.9 * p.max_speed);
  EXPECT_GT(through.overshoot, 20.0);
  EXPECT_LT(arriving.speed_at_goal, 0.05 * p.max_speed);
  EXPECT_LT(arriving.overshoot, 0.1 * through.overshoot);
  EXPECT_LT(arriving.later, 0.1 * through.later);
}

// Boids of `model` that never interact (no rules): half a unit a step at full speed under
// steering (v_max 30 at dt 1/60), one under boids.
FlockParams lone_boids(Model model) {
  FlockParams p;
  p.model = model;
  p.separation = p.alignment = p.cohesion = 0;
  p.radius = 5;
  p.max_speed = model == Model::kSteering ? 30 : 1;
  return p;
}

// Wander: two lone boids (no rules, so they never interact) fly straight without it; with it
// each turns one way and then the other as its drift wanders, by its own draws.
TEST_P(VariantTest, WanderMakesALoneBoidRoam) {
  struct Roam {
    double turned = 0;  // the sum of |turn| over the steps, radians
    int reversals = 0;  // how often the turn changed sides (turns over 1e-3 rad)
    double parted = 0;  // the largest difference of the two boids' headings, radians
  };
  const auto fly = [&](const FlockParams& p, double speed) {
    const FlockState start = make_state({{20, 20, speed, 0}, {70, 70, speed, 0}});
    Roam roam;
    FlockState last = start;
    int side = 0;
    run(start, p, 400, [&](int, const FlockState& s) {
      for (std::size_t i = 0; i < 2; ++i) {
        const double turn = std::atan2(last.vx[i] * s.vy[i] - last.vy[i] * s.vx[i],
                                       last.vx[i] * s.vx[i] + last.vy[i] * s.vy[i]);
        roam.turned += std::abs(turn);
        if (i == 0 && std::abs(turn) > 1e-3) {
          const int now = turn > 0 ? 1 : -1;
          roam.reversals += side != 0 && now != side ? 1 : 0;
          side = now;
        }
      }
      const double apart =
          std::remainder(std::atan2(s.vy[0], s.vx[0]) - std::atan2(s.vy[1], s.vx[1]), 2 * kPi);
      roam.parted = std::max(roam.parted, std::abs(apart));
      last = s;
    });
    return roam;
  };
  for (const Model model : {Model::kBoids, Model::kSteering}) {
    FlockParams p = lone_boids(model);
    const bool steering = model == Model::kSteering;
    const Roam straight = fly(p, p.max_speed);
    EXPECT_EQ(straight.turned, 0.0) << to_string(model);
    p.wander = steering ? 3 : 1;
    const Roam roaming = fly(p, p.max_speed);
    EXPECT_GT(roaming.turned, 2 * kPi) << to_string(model);  // a whole turn between them
    EXPECT_GE(roaming.reversals, 3) << to_string(model);     // left, right and back
    EXPECT_GT(roaming.parted, 0.5) << to_string(model);      // each by its own draws
  }
}

// Wander's drift eases between knots 32 steps apart: across two of them, boids that do not
// interact (so that rounding does not grow) fly the reference's wander, naive double bit for
// bit, in 2D and 3D.
TEST_P(VariantTest, WanderFliesTheReferencesDriftAcrossItsKnots) {
  for (const int dimensions : {2, 3}) {
    FlockParams p;
    p.dimensions = dimensions;
    p.separation = p.alignment = p.cohesion = 0;
    p.wander = 2;
    const FlockState start = make_initial_state(300, 5, p);
    FlockState expected = start;
    ReferenceStepper reference;
    for (int t = 0; t < 70; ++t) reference.step(expected, p);
    const FlockState got = after(start, p, 70);
    const bool exact =
        GetParam().method == Method::kNaive && GetParam().precision == Precision::kDouble;
    if (exact) {
      EXPECT_TRUE(test_support::bit_identical(got, expected)) << dimensions << "D";
      continue;
    }
    const double bound = GetParam().precision == Precision::kFloat ? 1e-3 : 1e-9;
    for (std::size_t i = 0; i < start.size(); ++i) {
      ASSERT_NEAR(got.vx[i], expected.vx[i], bound) << dimensions << "D, boid " << i;
      ASSERT_NEAR(got.vy[i], expected.vy[i], bound) << dimensions << "D, boid " << i;
      if (dimensions == 3) {
        ASSERT_NEAR(got.vz[i], expected.vz[i], bound) << "boid " << i;
      }
    }
  }
}

// The distance from (x, y) to the polyline `path`, plainly (the tests' paths keep away from
// the torus's edges).
double distance_to(const std::vector<Vec3>& path, double x, double y) {
  double best = 1e300;
  for (std::size_t k = 0; k + 1 < path.size(); ++k) {
    const double ex = path[k + 1].x - path[k].x, ey = path[k + 1].y - path[k].y;
    const double dx = x - path[k].x, dy = y - path[k].y;
    const double t = std::clamp((dx * ex + dy * ey) / (ex * ex + ey * ey), 0.0, 1.0);
    best = std::min(best, std::hypot(dx - t * ex, dy - t * ey));
  }
  return best;
}

// Path following: a lone boid in the middle of a closed square path, heading across it, comes
// onto the path and goes round it in the path's direction (counterclockwise), staying within
// about its radius. One beside the start of an open path 60 long (longer than half the world:
// the segment is followed, not its shorter way round the torus) follows it to its end, never
// turning back nor straying.
TEST_P(VariantTest, APathBringsAStrayBoidOntoItAndAlongIt) {
  for (const Model model : {Model::kBoids, Model::kSteering}) {
    FlockParams p = lone_boids(model);
    const bool steering = model == Model::kSteering;
    const int steps = steering ? 1600 : 800;  // two laps at full speed
    p.path = {{25, 25}, {75, 25}, {75, 75}, {25, 75}, {25, 25}};
    p.path_radius = 3;
    double turned = 0, late = 0;  // the angle swept about the centre; the late mean distance
    double angle = -kPi / 2;      // of the start, (50, 40) from the centre (50, 50)
    run(make_state({{50, 40, p.max_speed, 0}}), p, steps, [&](int step, const FlockState& s) {
      const double now = std::atan2(s.y[0] - 50, s.x[0] - 50);
      turned += std::remainder(now - angle, 2 * kPi);
      angle = now;
      if (step > steps / 2) late += distance_to(p.path, s.x[0], s.y[0]) / (steps / 2);
    });
    EXPECT_GT(turned, 2 * kPi) << to_string(model);  // a lap and more, counterclockwise
    EXPECT_LT(late, 2 * p.path_radius) << to_string(model);

    p.path = {{20, 50}, {80, 50}};
    int reached = 0;  // the step it came within the radius of the end
    double strayed = 0, last_x = 22;
    run(make_state({{22, 46, p.max_speed, 0}}), p, steps, [&](int step, const FlockState& s) {
      if (reached > 0) return;
      if (std::hypot(s.x[0] - 80, s.y[0] - 50) < p.path_radius) reached = step;
      strayed = std::max(strayed, distance_to(p.path, s.x[0], s.y[0]));
      EXPECT_GT(s.x[0], last_x) << to_string(model) << ", step " << step;  // never back
      last_x = s.x[0];
    });
    EXPECT_GT(reached, 0) << to_string(model);
    EXPECT_LE(strayed, 4.0 + 1e-9) << to_string(model);  // it started 4 from the path
  }
}

TEST_P(VariantTest, WindDriftsTheFlock) {
  for (const Model model : {Model::kBoids, Model::kVicsek}) {
    FlockParams p;
    p.model = model;
    p.radius = 5;
    p.max_speed = 0.5;
    p.world = World{100, 100, Boundary::kTorus};
    const FlockState start = make_initial_state(400, 7, p);
    // The centre's drift, summed over steps from the (unwrapped) displacement of every boid.
    const auto drift = [&](const FlockParams& params) {
      double moved = 0;
      FlockState last = start;
      run(start, params, 100, [&](int, const FlockState& s) {
        for (std::size_t i = 0; i < s.size(); ++i) {
          double dx = s.x[i] - last.x[i];
          if (dx > 50) dx -= 100;
          if (dx < -50) dx += 100;
          moved += dx;
        }
        last = s;
      });
      return moved / static_cast<double>(start.size());
    };
    const double calm = drift(p);
    p.wind = {0.2, 0};
    const double windy = drift(p);
    EXPECT_GT(windy - calm, 10) << to_string(model) << ": calm " << calm << ", windy " << windy;
  }
}

TEST_P(VariantTest, FullNoiseDestroysOrder) {
  for (const Model model : {Model::kBoids, Model::kVicsek}) {
    FlockParams p;
    p.model = model;
    p.radius = 5;
    p.max_speed = 0.5;
    const FlockState start = ordered(500, p, 0.5);
    EXPECT_GT(polarization(after(start, p, 200)), 0.9) << to_string(model);
    p.noise = 2 * kPi;
    const double disorder = polarization(after(start, p, 200));
    EXPECT_LT(disorder, 4 / std::sqrt(500.0)) << to_string(model);  // the floor is ~0.045
  }
}

TEST_P(VariantTest, TheSeparationRadiusDecidesWhoPushes) {
  FlockParams p;
  p.alignment = 0;
  p.cohesion = 0;
  // 4 apart: inside the default separation radius r / 2 = 5, outside a radius of 3.
  const FlockState s = make_state({{50, 50, 0.7, 0}, {54, 50, 0.7, 0}});
  const FlockState pushed = after(s, p, 1);
  EXPECT_LT(pushed.vx[0], 0.7 - 1e-3);  // pushed back, away from its neighbour
  p.separation_radius = 3;
  const FlockState free = after(s, p, 1);
  EXPECT_NEAR(free.vx[0], 0.7, tolerance());
}

TEST_P(VariantTest, VicsekParticlesKeepTheirSpeedAndOrderWithoutNoise) {
  FlockParams p;
  p.model = Model::kVicsek;
  p.radius = 1;
  p.max_speed = 0.03;
  p.world = World{10, 10, Boundary::kTorus};  // density 4, as in Vicsek's figure 2a
  const FlockState start = make_initial_state(400, 8, p);
  EXPECT_LT(polarization(start), 0.2);
  const FlockState end = after(start, p, 400);
  for (std::size_t i = 0; i < end.size(); ++i) {
    ASSERT_NEAR(std::hypot(end.vx[i], end.vy[i]), 0.03, 1e-6) << "particle " << i;
  }
  EXPECT_GT(polarization(end), 0.9);
}

INSTANTIATE_TEST_SUITE_P(variants, VariantTest, every_engine_case(), engine_case_name);

// The reference alone: the steering lab's own loop, in place.

TEST(SteeringLab, InPlaceBoidsSeeTheNewStateOfThoseBeforeThem) {
  // Boid 0 moves to within r of boid 1 in the step; in the lab's loop boid 1 then sees it.
  FlockParams p;
  p.model = Model::kSteering;
  p.radius = 10;
  p.max_speed = 60;  // a step of 1 at dt = 1/60
  p.world = World{200, 200, Boundary::kTorus};
  const FlockState s = make_state({{100, 100, 60, 0}, {110.5, 100, 0, 60}});
  FlockState synchronous = s, in_place = s;
  ReferenceStepper(1).step(synchronous, p);
  p.update = Update::kInPlace;
  ReferenceStepper(1).step(in_place, p);
  EXPECT_EQ(synchronous.vy[1], 60.0);          // alone, it keeps its velocity
  EXPECT_LT(in_place.vy[1], 59.0);             // it saw boid 0's new position, and steered
  EXPECT_EQ(in_place.x[0], synchronous.x[0]);  // boid 0 saw the same in both
}

TEST(SteeringLab, SeparationBrakesWhenNeighborsAreNotClose) {
  // One neighbour at 8 (within r = 10, beyond 0.45 r): separation's desired velocity is zero,
  // so it steers by -v * 1.5 * weight, as the lab's listing does.
  FlockParams p;
  p.model = Model::kSteering;
  p.radius = 10;
  p.alignment = 0;
  p.cohesion = 0;
  p.separation = 1;
  p.max_speed = 100;
  p.dt = 0.01;
  FlockState s = make_state({{50, 50, 80, 0}, {50, 58, 80, 0}});
  ReferenceStepper().step(s, p);
  // a = 1 * (0 - 80) * 1.5 = -120 along x, under the force limit 240: v = 80 - 1.2.
  EXPECT_DOUBLE_EQ(s.vx[0], 80 - 120 * 0.01);
}

}  // namespace
}  // namespace boids
