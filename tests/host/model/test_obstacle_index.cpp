// The obstacles' cell grid answers as testing every obstacle does; the random start keeps the
// draws it has always taken among obstacles; a start the obstacles leave no room for is refused
// at once, not after hours of redraws.
#include <gtest/gtest.h>

#include <chrono>
#include <cmath>
#include <cstdint>
#include <random>
#include <string>
#include <vector>

#include "host/base/errors.h"
#include "host/model/flock.h"
#include "host/model/initial_state.h"
#include "host/model/obstacle_index.h"

namespace boids {
namespace {

// Whether an obstacle holds `position`: every obstacle in turn, as the start tested them
// before they were indexed.
bool held_by_any(const double (&position)[3], const FlockParams& p, double edge = 0) {
  const double side[3] = {p.world.width, p.world.height, p.world.depth};
  for (const Obstacle& o : p.obstacles) {
    const double radius = o.radius - edge;
    if (!(radius > 0)) continue;
    const double centre[3] = {o.x, o.y, o.z};
    double d2 = 0;
    for (int a = 0; a < p.dimensions; ++a) {
      double d = position[a] - centre[a];
      if (p.world.torus()) d -= side[a] * std::round(d / side[a]);
      d2 = a == 0 ? d * d : d2 + d * d;
    }
    if (d2 < radius * radius) return true;
  }
  return false;
}

FlockParams world_of(int dimensions, Boundary boundary, double width, double height, double depth) {
  FlockParams p;
  p.dimensions = dimensions;
  p.world = World{width, height, boundary};
  p.world.depth = depth;
  return p;
}

// Obstacles of radii from a hundredth of the world to most of it, and points anywhere, some on
// the obstacles' edges: the grid says what every obstacle says, for every point.
TEST(ObstacleIndex, AnswersAsEveryObstacleDoes) {
  std::mt19937_64 rng(5);
  std::uniform_real_distribution<double> unit(0, 1);
  for (int dimensions : {2, 3}) {
    for (Boundary boundary : {Boundary::kTorus, Boundary::kWalls}) {
      for (std::size_t count : {1u, 7u, 300u, 3000u}) {
        SCOPED_TRACE(std::to_string(dimensions) + "D, " + to_string(boundary) + ", " +
                     std::to_string(count) + " obstacles");
        FlockParams p = world_of(dimensions, boundary, 100, 37, 60);
        const double side[3] = {100, 37, 60};
        for (std::size_t k = 0; k < count; ++k) {
          const double radius = k % 97 == 0 ? 30 * unit(rng) : 3 * unit(rng) + 0.01;
          p.obstacles.push_back({unit(rng) * 100, unit(rng) * 37, radius, unit(rng) * 60});
        }
        for (double edge : {0.0, 0.05}) {
          const ObstacleIndex index(p, edge);
          for (int n = 0; n < 20000; ++n) {
            double position[3] = {0, 0, 0};
            if (n % 4 == 0) {  // on an obstacle's edge, as closely as doubles go
              const Obstacle& o = p.obstacles[static_cast<std::size_t>(n) % count];
              const double angle = unit(rng) * 2 * kPi;
              const double centre[3] = {o.x, o.y, o.z};
              const double offset[3] = {std::cos(angle), std::sin(angle), 0};
              for (int a = 0; a < dimensions; ++a) {
                position[a] =
                    std::fmod(centre[a] + (o.radius - edge) * offset[a] + side[a], side[a]);
              }
            } else {
              for (int a = 0; a < dimensions; ++a) position[a] = unit(rng) * side[a];
            }
            ASSERT_EQ(index.holds(position), held_by_any(position, p, edge))
                << position[0] << ", " << position[1] << ", " << position[2];
          }
        }
      }
    }
  }
}

TEST(ObstacleIndex, KnowsWhenTheObstaclesCoverTheWorld) {
  FlockParams p = world_of(2, Boundary::kTorus, 100, 100, 100);
  EXPECT_FALSE(ObstacleIndex(p).covers_world());  // none
  p.obstacles = {{50, 50, 71}};                   // farther than every corner of the torus
  EXPECT_TRUE(ObstacleIndex(p).covers_world());
  p.obstacles = {{50, 50, 70}};  // the corners stay free
  EXPECT_FALSE(ObstacleIndex(p).covers_world());
}

// The random start among obstacles is what it has always been: each boid's first position, or
// while an obstacle holds it, the redraws from draw 2^31 on, D at a time.
TEST(ObstacleIndex, TheStartKeepsItsDraws) {
  for (int dimensions : {2, 3}) {
    for (Boundary boundary : {Boundary::kTorus, Boundary::kWalls}) {
      FlockParams p = world_of(dimensions, boundary, 120, 80, 90);
      std::mt19937_64 rng(9);
      std::uniform_real_distribution<double> unit(0, 1);
      for (int k = 0; k < 400; ++k) {
        p.obstacles.push_back({unit(rng) * 120, unit(rng) * 80, 1 + 6 * unit(rng), unit(rng) * 90});
      }
      const std::uint64_t seed = 31;
      const FlockState start = make_initial_state(3000, seed, p);
      const double side[3] = {120, 80, 90};
      std::size_t redrawn = 0;
      for (std::uint64_t i = 0; i < start.size(); ++i) {
        const auto at = [&](std::uint64_t draw, int a) {
          const double x = random_unit(seed, i, draw) * side[a];
          return x < side[a] ? x : 0.0;
        };
        double position[3] = {0, 0, 0};
        for (int a = 0; a < dimensions; ++a) position[a] = at(static_cast<std::uint64_t>(a), a);
        for (std::uint64_t k = 0; held_by_any(position, p); ++k) {
          for (int a = 0; a < dimensions; ++a) {
            position[a] = at(0x80000000ULL + static_cast<std::uint64_t>(dimensions) * k +
                                 static_cast<std::uint64_t>(a),
                             a);
          }
          redrawn += k == 0;
        }
        ASSERT_EQ(start.x[i], position[0]) << "boid " << i;
        ASSERT_EQ(start.y[i], position[1]) << "boid " << i;
        if (dimensions == 3) {
          ASSERT_EQ(start.z[i], position[2]) << "boid " << i;
        }
      }
      EXPECT_GT(redrawn, 100u) << "the obstacles held too few boids for the test to see";
    }
  }
}

double seconds_since(std::chrono::steady_clock::time_point start) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

// 100,000 obstacles, one over the whole world: each boid would be drawn 100,000 times against
// every one of them. Refused before any draw.
TEST(ObstacleIndex, AStartInACoveredWorldIsRefusedAtOnce) {
  FlockParams p = world_of(2, Boundary::kTorus, 1000, 1000, 1000);
  for (int k = 0; k < 99999; ++k) {
    p.obstacles.push_back({(k % 316) * 3.16, (k / 316) * 3.16, 0.5});
  }
  p.obstacles.push_back({500, 500, 990});
  const auto start = std::chrono::steady_clock::now();
  try {
    make_initial_state(100000, 1, p);
    ADD_FAILURE() << "a start in a covered world";
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find("cover the whole world"), std::string::npos) << e.what();
  }
  EXPECT_LT(seconds_since(start), 20.0);
}

// A sliver of room that no boid finds: the first boid to give up stops the others.
TEST(ObstacleIndex, AStartWithAlmostNoRoomIsRefusedSoon) {
  FlockParams p = world_of(2, Boundary::kTorus, 100, 100, 100);
  p.obstacles = {{50, 50, 70.7106}};  // a sliver at the torus's corner, 1e-12 of it, stays free
  const auto start = std::chrono::steady_clock::now();
  try {
    make_initial_state(1000000, 1, p);
    ADD_FAILURE() << "every boid found room";
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find("no free place in 100000 draws"), std::string::npos)
        << e.what();
  }
  EXPECT_LT(seconds_since(start), 20.0);
}

}  // namespace
}  // namespace boids
