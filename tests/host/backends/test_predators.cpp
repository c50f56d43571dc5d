// Predators as agents (--predators K) on every backend: a predator steers for the boid nearest
// to it, the lower index on a tie whatever order the cells hold them; a boid within the flee
// radius turns away, one beyond it flies as if there were no predators; the metrics count the
// boids within reach. Each flight, boids and predators, is the reference's bit for bit where
// the arithmetic is the reference's (naive double), and within rounding elsewhere; the hashed
// method's predators choose the naive method's targets (the same step of them, bit for bit).
#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <initializer_list>
#include <memory>

#include "host/core/simulation.h"
#include "host/model/initial_state.h"
#include "tests/support/test_support.h"

namespace boids {
namespace {

using test_support::bit_identical;
using test_support::box;
using test_support::engine_case_name;
using test_support::every_engine_case;
using test_support::make_state;

// Predators from {x, y, vx, vy} each.
Particles make_predators(std::initializer_list<std::array<double, 4>> predators) {
  return make_state(predators);
}

FlockState hunted(FlockState s, Particles predators) {
  s.predators = std::move(predators);
  return s;
}

using PredatorTest = test_support::EngineCaseTest;

FlockParams with_predators(int k) {
  FlockParams p;
  p.predators = k;
  return p;
}

TEST_P(PredatorTest, APredatorSteersForTheNearestBoidTheLowerIndexOnATie) {
  const FlockParams p = with_predators(1);
  // Two boids 10 from the predator, one north and one south of it; it is at rest.
  const Particles still = make_predators({{50, 50, 0, 0}});
  const FlockState north_first = hunted(make_state({{50, 60, 0.7, 0}, {50, 40, 0.7, 0}}), still);
  const FlockState south_first = hunted(make_state({{50, 40, 0.7, 0}, {50, 60, 0.7, 0}}), still);
  EXPECT_GT(after(north_first, p, 1).predators.vy[0], 0.0);
  EXPECT_LT(after(south_first, p, 1).predators.vy[0], 0.0);
  // A nearer boid wins whatever its index.
  const FlockState nearer_second = hunted(make_state({{50, 60, 0.7, 0}, {50, 45, 0.7, 0}}), still);
  EXPECT_LT(after(nearer_second, p, 1).predators.vy[0], 0.0);
}

TEST_P(PredatorTest, APredatorLeadsItsTargetAndKeepsToItsTopSpeed) {
  FlockParams p = with_predators(1);
  // The boid 20 north crosses eastwards at 1: in 20 / 1.5 steps it will be 13.3 east, so the
  // predator heads north-east, not north. After many steps it flies no faster than 1.5.
  const FlockState s = hunted(make_state({{50, 70, 1, 0}}), make_predators({{50, 50, 0, 0}}));
  const FlockState one = after(s, p, 1);
  EXPECT_GT(one.predators.vx[0], 0.0);
  EXPECT_GT(one.predators.vy[0], 0.0);
  EXPECT_NEAR(std::hypot(one.predators.vx[0], one.predators.vy[0]), 0.15, 1e-6);  // its agility
  const FlockState many = after(s, p, 60);
  EXPECT_LE(std::hypot(many.predators.vx[0], many.predators.vy[0]), 1.5 * (1 + 1e-6));
}

TEST_P(PredatorTest, ABoidWithinReachTurnsAwayOneBeyondItFliesAsWithoutPredators) {
  FlockParams p = with_predators(1);
  const FlockParams none;
  // A boid heading east at 0.7 with the predator 5 ahead of it, coming at it at 0.75: it will
  // be 2.5 ahead when it has covered the 5 at 1.5. The boid turns back by (1 - 5/20) 0.1 v_max.
  const FlockState ahead =
      hunted(make_state({{50, 50, 0.7, 0}}), make_predators({{55, 50, -0.75, 0}}));
  const FlockState fled = after(ahead, p, 1);
  EXPECT_NEAR(fled.vx[0], 0.7 - 0.075, 1e-6);
  EXPECT_NEAR(fled.vy[0], 0.0, 1e-12);
  // The same boid with the predator 30 away (beyond 2 r = 20): exactly as with none.
  const FlockState far = hunted(make_state({{50, 50, 0.7, 0}}), make_predators({{80, 50, 0, 1}}));
  const FlockState alone = after(make_state({{50, 50, 0.7, 0}}), none, 1);
  const FlockState beyond = after(far, p, 1);
  EXPECT_EQ(beyond.x[0], alone.x[0]);
  EXPECT_EQ(beyond.vx[0], alone.vx[0]);
  EXPECT_EQ(beyond.vy[0], alone.vy[0]);
  // A flee radius of 40 reaches it.
  p.flee_radius = 40;
  EXPECT_LT(after(far, p, 1).vx[0], alone.vx[0]);
}

TEST_P(PredatorTest, TheMetricsCountTheBoidsWithinReach) {
  const FlockParams p = with_predators(2);
  // Predators at (10, 10) and (90, 90); boids 5, 15 and 25 from the first (the second across
  // the torus's corner: 10 + 10 away), and one far from both.
  const FlockState s = hunted(make_state({{15, 10, 0.7, 0},
                                          {10, 25, 0.7, 0},
                                          {35, 10, 0.7, 0},
                                          {50, 50, 0.7, 0},
                                          {2, 98, 0.7, 0}}),
                              make_predators({{10, 10, 1, 0}, {90, 90, 1, 0}}));
  EXPECT_EQ(make(s, p)->metrics().within_reach, 3u);
  EXPECT_EQ(make_simulation({Backend::kReference, Method::kNaive, Precision::kDouble, p}, s)
                ->metrics()
                .within_reach,
            3u);
}

// Flights of 2D and 3D worlds, torus, walls and open space, with obstacles, under both models
// that steer.
TEST_P(PredatorTest, EachFlightIsTheReferencesAndTheNaiveMethods) {
  struct World {
    const char* name;
    FlockParams params;
  };
  FlockParams walls_3d = test_support::steering_between_walls(box(60));
  walls_3d.obstacles = {{30, 30, 8, 30}};
  FlockParams walls_2d;
  walls_2d.world.boundary = Boundary::kWalls;
  walls_2d.obstacles = {{40, 60, 9}};
  walls_2d.flee_radius = 25;
  FlockParams steering;
  steering.model = Model::kSteering;
  steering.radius = 12;
  steering.max_speed = 110;
  steering.predator_speed = 150;
  FlockParams open_2d, open_3d = box(250);  // the sparse 3D flock's tiles share a slot
  open_2d.world.boundary = open_3d.world.boundary = Boundary::kOpen;
  const World worlds[] = {{"torus 2D", FlockParams{}},
                          {"walls 2D, obstacle", walls_2d},
                          {"steering, torus 2D", steering},
                          {"torus 3D", box(60)},
                          {"steering, walls 3D, obstacle", walls_3d},
                          {"open 2D", open_2d},
                          {"open 3D", open_3d}};
  for (const World& w : worlds) {
    SCOPED_TRACE(w.name);
    FlockParams p = w.params;
    p.predators = 3;
    const FlockState start = make_initial_state(300, 11, p);
    ASSERT_EQ(start.predators.size(), 3u);
    const FlockState mine = after(start, p, 30);
    const auto reference =
        make_simulation({Backend::kReference, Method::kNaive, Precision::kDouble, p}, start);
    if (GetParam().method == Method::kNaive && GetParam().precision == Precision::kDouble) {
      reference->step(30);
      EXPECT_TRUE(bit_identical(mine, reference->state()));
    } else {  // one step: the hashed method's order of sums, or float's rounding
      reference->step(1);
      const FlockState one = after(start, p, 1), exact = reference->state();
      // The predators read the start alone, and choose their targets as the naive method does.
      EXPECT_TRUE(bit_identical(one.predators, after(start, p, 1, Method::kNaive).predators));
      const double side = p.world.width;
      const double tolerance = GetParam().precision == Precision::kDouble ? 1e-12 : 1e-5;
      const auto close = [&](const Particles& a, const Particles& b, double speed) {
        for (std::size_t i = 0; i < a.size(); ++i) {
          const double gap = std::abs(a.x[i] - b.x[i]);
          ASSERT_LT(std::min(gap, side - gap), side * tolerance) << "particle " << i;
          ASSERT_NEAR(a.vx[i], b.vx[i], speed * tolerance) << "particle " << i;
          ASSERT_NEAR(a.vy[i], b.vy[i], speed * tolerance) << "particle " << i;
        }
      };
      close(one, exact, p.max_speed);
      close(one.predators, exact.predators, p.effective_predator_speed());
    }
    EXPECT_FALSE(bit_identical(mine.predators, start.predators));  // they flew
  }
}

INSTANTIATE_TEST_SUITE_P(predators, PredatorTest, every_engine_case(), engine_case_name);

}  // namespace
}  // namespace boids
