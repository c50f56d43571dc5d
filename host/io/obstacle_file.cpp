#include "host/io/obstacle_file.h"

#include <cmath>

#include "host/base/errors.h"
#include "host/core/value_limits.h"
#include "host/io/detail/state_rows.h"
#include "host/io/numeric_csv.h"

namespace boids {
namespace {

// Why an obstacle cannot be: its centre outside the world, or its radius not > 0; empty when
// it can.
std::string obstacle_problem(const Obstacle& o, const World& world, int dimensions) {
  const double v[6] = {o.x, o.y, o.z, 0, 0, 0};
  const double flat[4] = {o.x, o.y, 0, 0};
  std::string problem = state_rows::row_problem(dimensions == 3 ? v : flat, dimensions, world);
  if (problem.empty() && !(o.radius > 0 && std::isfinite(o.radius))) {
    problem = "radius = " + shortest(o.radius) + " is not > 0";
  }
  return problem;
}

}  // namespace

std::vector<Obstacle> parse_obstacles(const std::string& text, const std::string& name,
                                      const World& world, int dimensions) {
  std::vector<Obstacle> obstacles;
  const bool sphere = dimensions == 3;
  parse_numeric_csv(
      text, "obstacle file", name,
      sphere ? std::vector<std::string>{"x", "y", "z", "radius"}
             : std::vector<std::string>{"x", "y", "radius"},
      [&](const std::vector<double>& v, const RowError& error) {
        const Obstacle o = sphere ? Obstacle{v[0], v[1], v[3], v[2]} : Obstacle{v[0], v[1], v[2]};
        const std::string problem = obstacle_problem(o, world, dimensions);
        if (!problem.empty()) error.fail(problem);
        if (obstacles.size() >= kMaxObstacles) {
          error.fail("more than " + std::to_string(kMaxObstacles) + " obstacles");
        }
        obstacles.push_back(o);
      });
  return obstacles;
}

std::vector<Obstacle> checked_obstacles(std::vector<Obstacle> obstacles, const World& world,
                                        const std::string& what, int dimensions) {
  if (obstacles.size() > kMaxObstacles) {
    throw InputError(what + ": more than " + std::to_string(kMaxObstacles) + " obstacles");
  }
  for (std::size_t row = 0; row < obstacles.size(); ++row) {
    const std::string problem = obstacle_problem(obstacles[row], world, dimensions);
    if (!problem.empty()) {
      throw InputError(what + ", row " + std::to_string(row) + ": " + problem);
    }
  }
  return obstacles;
}

std::vector<Obstacle> read_obstacle_file(const std::string& path, const World& world,
                                         int dimensions) {
  return parse_obstacles(read_csv_file(path, "obstacle file", kMaxObstacles), path, world,
                         dimensions);
}

}  // namespace boids
