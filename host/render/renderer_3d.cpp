// The 3D view of Renderer: each boid a pyramid whose apex points along its velocity, its flat
// faces lit from the eye (a head-light, so no side of the flock is dark), coloured by heading
// (hue from the azimuth, lighter going up, darker going down) or by speed, drawn with depth;
// and the box's twelve edges.
#include <glad/gl.h>

#include "host/render/gl_program.h"
#include "host/render/renderer.h"

namespace boids::render {
namespace {

constexpr const char* kBoidVertexShader = R"(
layout(location = 0) in vec3 position;
layout(location = 1) in vec3 velocity;
uniform mat4 u_view_proj;
uniform vec3 u_eye;
uniform float u_size;  // length in world units
uniform int u_mode;    // Paint: 0 heading, 1 speed, 2 white
uniform vec2 u_speed_span;
out vec3 v_color;

// The pyramid: apex 0, base corners 1 to 4; four sides and the base in two triangles.
const int kCorners[18] = int[18](0, 1, 2, 0, 2, 3, 0, 3, 4, 0, 4, 1, 1, 3, 2, 1, 4, 3);

void main() {
  float speed = length(velocity);
  vec3 f = speed > 0.0 ? velocity / speed : vec3(1.0, 0.0, 0.0);
  vec3 other = abs(f.z) < 0.9 ? vec3(0.0, 0.0, 1.0) : vec3(1.0, 0.0, 0.0);
  vec3 s = normalize(cross(f, other));
  vec3 u = cross(s, f);
  vec3 corner[5] = vec3[5](0.6 * f, -0.4 * f + 0.22 * s, -0.4 * f + 0.22 * u,
                           -0.4 * f - 0.22 * s, -0.4 * f - 0.22 * u);
  int triangle = gl_VertexID / 3;
  vec3 a = corner[kCorners[3 * triangle]], b = corner[kCorners[3 * triangle + 1]],
       c = corner[kCorners[3 * triangle + 2]];
  vec3 normal = normalize(cross(b - a, c - a));
  if (dot(normal, (a + b + c) / 3.0 + 0.1 * f) < 0.0) normal = -normal;  // outwards
  vec3 at = position + corner[kCorners[gl_VertexID]] * u_size;
  float light = 0.3 + 0.7 * abs(dot(normal, normalize(u_eye - at)));
  vec3 base;
  if (u_mode == 2) {  // white: a predator
    base = vec3(1.0);
  } else if (u_mode == 0) {
    base = hsv(atan(f.y, f.x) / 6.2831853 + 0.5, 0.75, 1.0);
    base = f.z > 0.0 ? mix(base, vec3(1.0), 0.5 * f.z) : base * (1.0 + 0.5 * f.z);
  } else {
    base = speed_color(speed, u_speed_span);
  }
  v_color = base * light;
  gl_Position = u_view_proj * vec4(at, 1.0);
}
)";

constexpr const char* kBoxVertexShader = R"(
uniform mat4 u_view_proj;
uniform vec3 u_world;
out vec3 v_color;
// The box's corners are (x, y, z) in {0, 1}^3, numbered x + 2y + 4z; twelve edges.
const int kEdges[24] = int[24](0, 1, 1, 3, 3, 2, 2, 0, 4, 5, 5, 7, 7, 6, 6, 4, 0, 4, 1, 5, 2, 6,
                               3, 7);
void main() {
  int c = kEdges[gl_VertexID];
  vec3 corner = vec3(float(c & 1), float((c >> 1) & 1), float((c >> 2) & 1));
  v_color = vec3(0.45, 0.5, 0.6);
  gl_Position = u_view_proj * vec4(corner * u_world, 1.0);
}
)";

}  // namespace

void Renderer::create_3d_programs() {
  program_ = link_program({kGlslVersion, kGlslColors, kBoidVertexShader}, kColorFragmentShader,
                          "boid (3D)");
  u_view_proj_ = glGetUniformLocation(program_, "u_view_proj");
  u_eye_ = glGetUniformLocation(program_, "u_eye");
  u_size_ = glGetUniformLocation(program_, "u_size");
  u_mode_ = glGetUniformLocation(program_, "u_mode");
  u_speed_span_ = glGetUniformLocation(program_, "u_speed_span");
  box_program_ = link_program({kGlslVersion, kBoxVertexShader}, kColorFragmentShader, "box");
  u_box_view_proj_ = glGetUniformLocation(box_program_, "u_view_proj");
  u_box_world_ = glGetUniformLocation(box_program_, "u_world");
  glGenVertexArrays(1, &box_vao_);
}

void Renderer::draw_3d(const View& view, const Camera& camera, const World& world,
                       const SpeedSpan& speeds, Paint paint, float boid_length) {
  glViewport(view.left, 0, view.width, view.height);
  glEnable(GL_DEPTH_TEST);
  glDepthFunc(GL_LESS);
  glClear(GL_DEPTH_BUFFER_BIT);
  const Matrix view_proj =
      camera.view_projection(static_cast<double>(view.width) / view.height, world);
  double eye[3];
  camera.eye(eye);

  glUseProgram(box_program_);
  glUniformMatrix4fv(u_box_view_proj_, 1, GL_FALSE, view_proj.data());
  glUniform3f(u_box_world_, static_cast<float>(world.width), static_cast<float>(world.height),
              static_cast<float>(world.depth));
  glBindVertexArray(box_vao_);
  glDrawArrays(GL_LINES, 0, 24);

  glUseProgram(program_);
  glUniformMatrix4fv(u_view_proj_, 1, GL_FALSE, view_proj.data());
  glUniform3f(u_eye_, static_cast<float>(eye[0]), static_cast<float>(eye[1]),
              static_cast<float>(eye[2]));
  glUniform1f(u_size_, boid_length);
  glUniform1i(u_mode_, static_cast<int>(paint));
  glUniform2f(u_speed_span_, static_cast<float>(speeds.low), static_cast<float>(speeds.high));
  glBindVertexArray(vao_);
  glDrawArraysInstanced(GL_TRIANGLES, 0, 18, static_cast<GLsizei>(count_));
  glBindVertexArray(0);
  glUseProgram(0);
  glDisable(GL_DEPTH_TEST);
}

}  // namespace boids::render
