#include "host/state_file.h"

#include "host/errors.h"
#include "host/numeric_csv.h"
#include "host/output_file.h"

namespace boids {
namespace {

// Whether (x, y) lies in [0, width) x [0, height); else fails naming the coordinate.
void check_in_world(double x, double y, const World& world, const RowError& error) {
  const double value[2] = {x, y}, side[2] = {world.width, world.height};
  const char* const name[2] = {"x", "y"};
  for (int axis = 0; axis < 2; ++axis) {
    if (!(value[axis] >= 0 && value[axis] < side[axis])) {
      error.fail(std::string(name[axis]) + " = " + shortest(value[axis]) +
                 " is outside the world [0, " + shortest(side[axis]) + ")");
    }
  }
}

World square(double side) {
  return World{side, side, Boundary::kTorus};
}

constexpr std::uint64_t kMaxObstacles = 100000;

}  // namespace

FlockState parse_state(const std::string& text, const std::string& name, const World& world) {
  FlockState state;
  const CsvExtent extent =
      parse_numeric_csv(text, "state file", name, {"x", "y", "vx", "vy"},
                        [&](const std::vector<double>& v, const RowError& error) {
                          check_in_world(v[0], v[1], world, error);
                          if (state.size() >= kMaxBoids) {
                            error.fail("more than " + std::to_string(kMaxBoids) + " boids");
                          }
                          state.x.push_back(v[0]);
                          state.y.push_back(v[1]);
                          state.vx.push_back(v[2]);
                          state.vy.push_back(v[3]);
                        });
  if (extent.rows == 0) {
    RowError("state file", name, extent.lines + 1)
        .fail("no boids (the file ends after the header)");
  }
  return state;
}

FlockState read_state_file(const std::string& path, const World& world) {
  return parse_state(read_csv_file(path, "state file", kMaxBoids), path, world);
}

FlockState parse_state(const std::string& text, const std::string& name, double world) {
  return parse_state(text, name, square(world));
}

FlockState read_state_file(const std::string& path, double world) {
  return read_state_file(path, square(world));
}

std::string format_state(const FlockState& state) {
  std::string out = "x,y,vx,vy\n";
  out.reserve(out.size() + state.size() * 80);
  for (std::size_t i = 0; i < state.size(); ++i) {
    out += shortest(state.x[i]);
    out += ',';
    out += shortest(state.y[i]);
    out += ',';
    out += shortest(state.vx[i]);
    out += ',';
    out += shortest(state.vy[i]);
    out += '\n';
  }
  return out;
}

void write_state_file(const std::string& path, const FlockState& state) {
  write_file_atomically(path, format_state(state));
}

std::vector<Obstacle> parse_obstacles(const std::string& text, const std::string& name,
                                      const World& world) {
  std::vector<Obstacle> obstacles;
  parse_numeric_csv(text, "obstacle file", name, {"x", "y", "radius"},
                    [&](const std::vector<double>& v, const RowError& error) {
                      check_in_world(v[0], v[1], world, error);
                      if (!(v[2] > 0)) {
                        error.fail("radius = " + shortest(v[2]) + " is not > 0");
                      }
                      if (obstacles.size() >= kMaxObstacles) {
                        error.fail("more than " + std::to_string(kMaxObstacles) + " obstacles");
                      }
                      obstacles.push_back({v[0], v[1], v[2]});
                    });
  return obstacles;
}

std::vector<Obstacle> read_obstacle_file(const std::string& path, const World& world) {
  return parse_obstacles(read_csv_file(path, "obstacle file", kMaxObstacles), path, world);
}

}  // namespace boids
