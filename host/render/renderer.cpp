#include "host/render/renderer.h"

#include <glad/gl.h>

#include <stdexcept>
#include <string>

#include "host/base/errors.h"
#include "host/render/gl_program.h"

namespace boids::render {
namespace {

// Errors left by what came before (a window's panel) are not the next call's to answer for.
void forget_earlier_errors() {
  for (int stale = 0; stale < 8 && glGetError() != GL_NO_ERROR; ++stale) continue;
}

// Each instance is one boid; gl_VertexID picks the triangle's corner. On a torus, positions are
// drawn at the image nearest to the view's centre, so panning wraps around.
constexpr const char* kVertexShader = R"(
layout(location = 0) in vec4 boid;  // x, y, vx, vy
uniform vec2 u_center;
uniform vec2 u_world;   // width, height
uniform int u_wrap;     // 1 on a torus: each boid is drawn at its image nearest the centre
uniform vec2 u_scale;   // clip-space units per world unit
uniform vec2 u_pixel;   // clip-space units per pixel
uniform float u_size;   // triangle length in pixels
uniform int u_mode;     // Paint: 0 heading, 1 speed, 2 white
uniform vec2 u_speed_span;
out vec3 v_color;

void main() {
  vec2 d = boid.xy - u_center;
  if (u_wrap == 1) d -= u_world * round(d / u_world);
  float speed = length(boid.zw);
  vec2 f = speed > 0.0 ? boid.zw / speed : vec2(1.0, 0.0);
  vec2 side = vec2(-f.y, f.x);
  vec2 corner = gl_VertexID == 0 ? vec2(0.6, 0.0)
              : (gl_VertexID == 1 ? vec2(-0.4, 0.3) : vec2(-0.4, -0.3));
  vec2 offset = (f * corner.x + side * corner.y) * u_size;
  gl_Position = vec4(d * u_scale + offset * u_pixel, 0.0, 1.0);
  v_color = u_mode == 2   ? vec3(1.0)
            : u_mode == 0 ? hsv(atan(f.y, f.x) / 6.2831853 + 0.5, 0.7, 1.0)
                          : speed_color(speed, u_speed_span);
}
)";

}  // namespace

Paint paint_of(Colouring colouring) {
  if (colouring == Colouring::kHeading) return Paint::kHeading;
  if (colouring == Colouring::kSpeed) return Paint::kSpeed;
  throw std::invalid_argument(std::string("the renderer draws no boid coloured by ") +
                              colouring_name(colouring));
}

Renderer::Renderer(std::uint64_t count, int dimensions) : count_(count), dimensions_(dimensions) {
  if (dimensions_ == 3) {
    create_3d_programs();
  } else {
    program_ =
        link_program({kGlslVersion, kGlslColors, kVertexShader}, kColorFragmentShader, "boid");
    u_center_ = glGetUniformLocation(program_, "u_center");
    u_world_ = glGetUniformLocation(program_, "u_world");
    u_wrap_ = glGetUniformLocation(program_, "u_wrap");
    u_scale_ = glGetUniformLocation(program_, "u_scale");
    u_pixel_ = glGetUniformLocation(program_, "u_pixel");
    u_size_ = glGetUniformLocation(program_, "u_size");
    u_mode_ = glGetUniformLocation(program_, "u_mode");
    u_speed_span_ = glGetUniformLocation(program_, "u_speed_span");
  }

  glGenVertexArrays(1, &vao_);
  glGenBuffers(1, &vbo_);
  glBindVertexArray(vao_);
  glBindBuffer(GL_ARRAY_BUFFER, vbo_);
  const auto bytes = static_cast<GLsizeiptr>(count_ * floats_per_boid() * sizeof(float));
  glBufferData(GL_ARRAY_BUFFER, bytes, nullptr, GL_DYNAMIC_DRAW);
  if (glGetError() == GL_OUT_OF_MEMORY) {
    destroy();
    throw RuntimeError("OpenGL cannot allocate the vertex buffer (" + std::to_string(bytes) +
                       " bytes)");
  }
  const auto stride = static_cast<GLsizei>(floats_per_boid() * sizeof(float));
  if (dimensions_ == 3) {  // position, velocity
    glEnableVertexAttribArray(0);
    glVertexAttribPointer(0, 3, GL_FLOAT, GL_FALSE, stride, nullptr);
    glVertexAttribDivisor(0, 1);
    glEnableVertexAttribArray(1);
    glVertexAttribPointer(1, 3, GL_FLOAT, GL_FALSE, stride,
                          reinterpret_cast<const void*>(3 * sizeof(float)));
    glVertexAttribDivisor(1, 1);
  } else {  // x, y, vx, vy
    glEnableVertexAttribArray(0);
    glVertexAttribPointer(0, 4, GL_FLOAT, GL_FALSE, stride, nullptr);
    glVertexAttribDivisor(0, 1);
  }
  glBindVertexArray(0);
  glBindBuffer(GL_ARRAY_BUFFER, 0);
}

Renderer::~Renderer() {
  destroy();
}

void Renderer::destroy() {
  density_.reset();
  glDeleteBuffers(1, &vbo_);
  glDeleteVertexArrays(1, &vao_);
  glDeleteVertexArrays(1, &box_vao_);
  glDeleteProgram(program_);
  glDeleteProgram(box_program_);
}

void Renderer::upload(const float* data) {
  forget_earlier_errors();
  glBindBuffer(GL_ARRAY_BUFFER, vbo_);
  glBufferSubData(GL_ARRAY_BUFFER, 0,
                  static_cast<GLsizeiptr>(count_ * floats_per_boid() * sizeof(float)), data);
  glBindBuffer(GL_ARRAY_BUFFER, 0);
  if (glGetError() != GL_NO_ERROR)
    throw RuntimeError("OpenGL cannot take the flock's " + std::to_string(count_) + " boids");
}

void Renderer::draw(const View& view, const World& world, const SpeedSpan& speeds, Paint paint,
                    float boid_pixels) {
  glViewport(view.left, 0, view.width, view.height);
  glUseProgram(program_);
  glUniform2f(u_center_, static_cast<float>(view.center_x), static_cast<float>(view.center_y));
  glUniform2f(u_world_, static_cast<float>(world.width), static_cast<float>(world.height));
  glUniform1i(u_wrap_, world.torus() ? 1 : 0);
  glUniform2f(u_scale_, static_cast<float>(2 * view.pixels_per_unit / view.width),
              static_cast<float>(2 * view.pixels_per_unit / view.height));
  glUniform2f(u_pixel_, 2.0f / static_cast<float>(view.width),
              2.0f / static_cast<float>(view.height));
  glUniform1f(u_size_, boid_pixels);
  glUniform1i(u_mode_, static_cast<int>(paint));
  glUniform2f(u_speed_span_, static_cast<float>(speeds.low), static_cast<float>(speeds.high));
  glBindVertexArray(vao_);
  glDrawArraysInstanced(GL_TRIANGLES, 0, 3, static_cast<GLsizei>(count_));
  glBindVertexArray(0);
  glUseProgram(0);
}

const DensityPicture& Renderer::draw_density(const Projection& projection, int width, int height) {
  forget_earlier_errors();
  if (!density_) density_ = std::make_unique<DensityPicture>();
  density_->draw(vbo_, count_, dimensions_, static_cast<int>(floats_per_boid()), projection, width,
                 height);
  return *density_;
}

Projection projection_2d(const View& view, const World& world) {
  Projection p;
  const auto sx = static_cast<float>(2 * view.pixels_per_unit / view.width);
  const auto sy = static_cast<float>(2 * view.pixels_per_unit / view.height);
  p.view_proj[0] = sx;
  p.view_proj[5] = sy;
  p.view_proj[10] = 1;
  p.view_proj[12] = -sx * static_cast<float>(view.center_x);
  p.view_proj[13] = -sy * static_cast<float>(view.center_y);
  p.view_proj[15] = 1;
  p.wrap = world.torus();
  p.center[0] = static_cast<float>(view.center_x);
  p.center[1] = static_cast<float>(view.center_y);
  p.world[0] = static_cast<float>(world.width);
  p.world[1] = static_cast<float>(world.height);
  return p;
}

Projection projection_3d(const View& view, const Camera& camera, const World& world) {
  Projection p;
  p.view_proj = camera.view_projection(static_cast<double>(view.width) / view.height, world);
  return p;
}

}  // namespace boids::render
