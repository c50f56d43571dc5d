#include "host/render/camera.h"

#include <algorithm>
#include <cmath>

namespace boids::render {
namespace {

constexpr double kPitchLimit = 1.55;  // just short of straight up or down

void normalise(double (&v)[3]) {
  const double length = std::sqrt(v[0] * v[0] + v[1] * v[1] + v[2] * v[2]);
  for (double& c : v) c /= length > 0 ? length : 1;
}

void cross(const double (&a)[3], const double (&b)[3], double (&out)[3]) {
  out[0] = a[1] * b[2] - a[2] * b[1];
  out[1] = a[2] * b[0] - a[0] * b[2];
  out[2] = a[0] * b[1] - a[1] * b[0];
}

// The camera's unit vectors: forward (to the target), right and up, with z up in the world.
void basis(const double (&from)[3], const double (&target)[3], double (&forward)[3],
           double (&right)[3], double (&up)[3]) {
  for (int a = 0; a < 3; ++a) forward[a] = target[a] - from[a];
  normalise(forward);
  const double up_axis[3] = {0, 0, 1};
  cross(forward, up_axis, right);
  normalise(right);
  cross(right, forward, up);
}

double diagonal(const World& w) {
  return std::sqrt(w.width * w.width + w.height * w.height + w.depth * w.depth);
}

}  // namespace

void Camera::fit(const World& world) {
  target[0] = world.width / 2;
  target[1] = world.height / 2;
  target[2] = world.depth / 2;
  yaw = -0.6;
  pitch = 0.45;
  distance = 0.6 * diagonal(world) / std::tan(fov_y / 2);
  scene_half = 0;
}

void Camera::fit_box(const double (&low)[3], const double (&high)[3]) {
  World box{high[0] - low[0], high[1] - low[1], Boundary::kWalls, high[2] - low[2]};
  fit(box);
  for (int a = 0; a < 3; ++a) target[a] = scene_centre[a] = (low[a] + high[a]) / 2;
  scene_half = diagonal(box) / 2;
}

void Camera::orbit(double dx, double dy) {
  yaw -= dx * 0.006;
  pitch = std::clamp(pitch + dy * 0.006, -kPitchLimit, kPitchLimit);
}

void Camera::eye(double (&out)[3]) const {
  const double c = std::cos(pitch);
  out[0] = target[0] + distance * c * std::cos(yaw);
  out[1] = target[1] + distance * c * std::sin(yaw);
  out[2] = target[2] + distance * std::sin(pitch);
}

void Camera::pan(double dx, double dy, int height) {
  double from[3], forward[3], right[3], up[3];
  eye(from);
  basis(from, target, forward, right, up);
  // A pixel at the target's distance spans this many world units.
  const double unit = 2 * distance * std::tan(fov_y / 2) / std::max(1, height);
  for (int a = 0; a < 3; ++a) target[a] += (-dx * right[a] + dy * up[a]) * unit;
}

void Camera::zoom(double steps) {
  distance = std::clamp(distance * std::pow(1.2, -steps), 1e-6, 1e9);
}

Matrix Camera::view_projection(double aspect, const World& world) const {
  double from[3], f[3], s[3], u[3];
  eye(from);
  basis(from, target, f, s, u);
  // The box lies within half its diagonal of its centre, wherever panning took the target.
  const bool scene = scene_half > 0;
  const double centre[3] = {scene ? scene_centre[0] : world.width / 2,
                            scene ? scene_centre[1] : world.height / 2,
                            scene ? scene_centre[2] : world.depth / 2};
  double to_centre = 0;
  for (int a = 0; a < 3; ++a) to_centre += (centre[a] - from[a]) * (centre[a] - from[a]);
  to_centre = std::sqrt(to_centre);
  const double half = scene ? scene_half : diagonal(world) / 2;
  const double far_plane = std::max(to_centre + half, 1e-3) * 1.01;
  const double near_plane = std::max(far_plane * 1e-4, (to_centre - half) * 0.5);
  const double t = 1 / std::tan(fov_y / 2);
  // view: rows s, u, -f; translation -R * eye
  double view[16] = {s[0], u[0], -f[0], 0, s[1], u[1], -f[1], 0, s[2], u[2], -f[2], 0, 0, 0, 0, 1};
  view[12] = -(s[0] * from[0] + s[1] * from[1] + s[2] * from[2]);
  view[13] = -(u[0] * from[0] + u[1] * from[1] + u[2] * from[2]);
  view[14] = f[0] * from[0] + f[1] * from[1] + f[2] * from[2];
  double projection[16] = {};
  projection[0] = t / aspect;
  projection[5] = t;
  projection[10] = -(far_plane + near_plane) / (far_plane - near_plane);
  projection[11] = -1;
  projection[14] = -2 * far_plane * near_plane / (far_plane - near_plane);
  Matrix out{};
  for (int c = 0; c < 4; ++c) {
    for (int r = 0; r < 4; ++r) {
      double sum = 0;
      for (int k = 0; k < 4; ++k) sum += projection[k * 4 + r] * view[c * 4 + k];
      out[c * 4 + r] = static_cast<float>(sum);
    }
  }
  return out;
}

}  // namespace boids::render
