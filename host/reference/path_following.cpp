// Reynolds' path following (OpenSteer's steerToFollowPath), as docs/models.md writes it, apart
// from the kernels' follow_path.
// Compiled without floating-point contraction, like the rest of the reference.
#include <algorithm>
#include <array>
#include <cmath>
#include <vector>

#include "host/reference/detail/world.h"

namespace boids::reference {
namespace {

// The offset from `from` to `to` along n axes: each wrapped on a torus, as every offset.
void offset_n(const FlockParams& p, const double* from, const double* to, int n, double* d) {
  const double sides[3] = {p.world.width, p.world.height, p.world.depth};
  for (int k = 0; k < n; ++k) {
    d[k] = to[k] - from[k];
    if (p.world.torus()) d[k] = wrap(d[k], sides[k]);
  }
}

double squared(const double* d, int n) {
  double sum = d[0] * d[0];
  for (int k = 1; k < n; ++k) sum += d[k] * d[k];
  return sum;
}

// The path's points as arrays, and the path's length up to each (its segments' lengths added
// in order).
struct Polyline {
  std::vector<std::array<double, 3>> points;
  std::vector<double> from_start;
};

Polyline polyline_of(const FlockParams& p, int n) {
  Polyline line;
  for (const Vec3& v : p.path) {
    const std::array<double, 3> point = {v.x, v.y, v.z};
    double length = 0;
    if (!line.points.empty()) {
      double e[3] = {};
      for (int k = 0; k < n; ++k) e[k] = point[k] - line.points.back()[k];
      length = line.from_start.back() + std::sqrt(squared(e, n));
    }
    line.points.push_back(point);
    line.from_start.push_back(length);
  }
  return line;
}

// The nearest point of the path to `at`: the first segment's on a tie. Its squared distance
// and its distance along the path.
void nearest_point(const FlockParams& p, const Polyline& line, const double* at, int n,
                   double& nearest, double& along) {
  nearest = along = 0;
  for (std::size_t j = 0; j + 1 < line.points.size(); ++j) {
    const double* a = line.points[j].data();
    const double* b = line.points[j + 1].data();
    // From a, by way of the segment's middle: on a torus the image of `at` nearest the segment.
    double e[3] = {}, half[3] = {}, middle[3] = {}, d[3] = {};
    for (int k = 0; k < n; ++k) {
      e[k] = b[k] - a[k];
      half[k] = e[k] / 2;
      middle[k] = a[k] + half[k];
    }
    offset_n(p, middle, at, n, d);
    for (int k = 0; k < n; ++k) d[k] = d[k] + half[k];
    double dot = d[0] * e[0];
    for (int k = 1; k < n; ++k) dot += d[k] * e[k];
    double t = dot / squared(e, n);
    if (t < 0) t = 0;
    if (t > 1) t = 1;
    for (int k = 0; k < n; ++k) d[k] = d[k] - t * e[k];
    const double gap = squared(d, n);
    if (j == 0 || gap < nearest) {
      nearest = gap;
      along = line.from_start[j] + t * (line.from_start[j + 1] - line.from_start[j]);
    }
  }
}

}  // namespace

bool path_direction(const FlockParams& p, const double* x, const double* v, int n, double* out) {
  const Polyline line = polyline_of(p, n);
  const std::size_t segments = line.points.size() - 1;
  // Where the boid will be ten steps on, at its velocity with the speed at most v_max.
  const double vmax = p.max_speed;
  const double lookahead = 10 * (p.model == Model::kSteering ? p.dt : 1.0);
  bool huge = false;
  for (int k = 0; k < n; ++k) huge = huge || std::fabs(v[k]) > 0x1.0p510;
  double c[3] = {};
  for (int k = 0; k < n; ++k) c[k] = huge ? v[k] * 0x1.0p-600 : v[k];
  const double speed = std::sqrt(squared(c, n));
  const bool fast = huge || speed > vmax;
  double future[3];
  for (int k = 0; k < n; ++k) {
    const double predicting = fast ? c[k] / speed * vmax : v[k];
    future[k] = x[k] + predicting * lookahead;
  }
  const double pace = fast ? vmax : speed;

  // Following: predicted within the radius, and farther along than where it is (the shorter
  // way round a closed path's start). Then nothing steers it.
  double nearest, along, now_gap, now;
  nearest_point(p, line, future, n, nearest, along);
  nearest_point(p, line, x, n, now_gap, now);
  const double total = line.from_start.back();
  double onward = along - now;
  if (p.path_closed()) {
    if (onward > total / 2) onward -= total;
    if (onward < -(total / 2)) onward += total;
  }
  const double radius = p.effective_path_radius();
  if (!(nearest > radius * radius) && onward > 0) return false;

  // Its target: the speed times the lookahead farther along, past the end of a closed path to
  // its start, at most the end of an open one; placed on the last segment that starts before
  // it.
  const double ahead = along + pace * lookahead;
  const double target = p.path_closed() ? std::fmod(ahead, total) : std::min(ahead, total);
  std::size_t on = 0;
  for (std::size_t j = 1; j < segments; ++j) {
    if (target >= line.from_start[j]) on = j;
  }
  const double* a = line.points[on].data();
  const double* b = line.points[on + 1].data();
  const double t = (target - line.from_start[on]) / (line.from_start[on + 1] - line.from_start[on]);
  double point[3] = {}, d[3] = {};
  for (int k = 0; k < n; ++k) point[k] = a[k] + t * (b[k] - a[k]);
  offset_n(p, x, point, n, d);
  const double distance = std::sqrt(squared(d, n));
  for (int k = 0; k < n; ++k) out[k] = distance > 0 ? d[k] / distance : 0;
  return true;
}

}  // namespace boids::reference
