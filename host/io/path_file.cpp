#include "host/io/path_file.h"

#include "host/base/errors.h"
#include "host/base/message_text.h"
#include "host/io/detail/state_rows.h"
#include "host/io/numeric_csv.h"

namespace boids {
namespace {

// Why `point` cannot follow `before` (null for the first) on a path: a coordinate not finite
// or outside the world, or the same point again in `precision` (a segment of no length);
// empty when it can.
std::string point_problem(const Vec3& point, const Vec3* before, const World& world, int dimensions,
                          Precision precision) {
  const double box[6] = {point.x, point.y, point.z, 0, 0, 0};
  const double flat[4] = {point.x, point.y, 0, 0};
  std::string problem = state_rows::row_problem(dimensions == 3 ? box : flat, dimensions, world);
  const auto in = [precision](double v) {
    return precision == Precision::kFloat ? static_cast<double>(static_cast<float>(v)) : v;
  };
  if (problem.empty() && before != nullptr && in(before->x) == in(point.x) &&
      in(before->y) == in(point.y) && in(before->z) == in(point.z)) {
    const bool exactly = before->x == point.x && before->y == point.y && before->z == point.z;
    problem = std::string("the same point as the one before it") +
              (exactly ? "" : " in " + to_string(precision) + " precision") +
              " (a segment of no length)";
  }
  return problem;
}

void refuse_short(std::size_t points, const std::string& what) {
  if (points < 2) {
    throw InputError(what + ": a path needs at least two points, got " + std::to_string(points));
  }
}

}  // namespace

std::vector<Vec3> parse_path(const std::string& text, const std::string& name, const World& world,
                             int dimensions, Precision precision) {
  std::vector<Vec3> points;
  const bool box = dimensions == 3;
  parse_numeric_csv(
      text, "path file", name,
      box ? std::vector<std::string>{"x", "y", "z"} : std::vector<std::string>{"x", "y"},
      [&](const std::vector<double>& v, const RowError& error) {
        const Vec3 point{v[0], v[1], box ? v[2] : 0.0};
        const std::string problem = point_problem(point, points.empty() ? nullptr : &points.back(),
                                                  world, dimensions, precision);
        if (!problem.empty()) error.fail(problem);
        if (points.size() >= kMaxPathPoints) {
          error.fail("more than " + std::to_string(kMaxPathPoints) + " points");
        }
        points.push_back(point);
      });
  refuse_short(points.size(), "path file " + quoted_path(name));
  return points;
}

std::vector<Vec3> checked_path(std::vector<Vec3> points, const World& world,
                               const std::string& what, int dimensions, Precision precision) {
  if (points.size() > kMaxPathPoints) {
    throw InputError(what + ": more than " + std::to_string(kMaxPathPoints) + " points");
  }
  for (std::size_t row = 0; row < points.size(); ++row) {
    if (dimensions != 3) points[row].z = 0;
    const std::string problem = point_problem(points[row], row == 0 ? nullptr : &points[row - 1],
                                              world, dimensions, precision);
    if (!problem.empty()) throw InputError(what + ", row " + std::to_string(row) + ": " + problem);
  }
  refuse_short(points.size(), what);
  return points;
}

std::vector<Vec3> read_path_file(const std::string& path, const World& world, int dimensions,
                                 Precision precision) {
  return parse_path(read_csv_file(path, "path file", kMaxPathPoints), path, world, dimensions,
                    precision);
}

}  // namespace boids
