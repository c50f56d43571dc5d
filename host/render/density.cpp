#include "host/render/density.h"

#include <glad/gl.h>

#include <algorithm>
#include <cstdio>
#include <string>

#include "host/base/errors.h"
#include "host/render/gl_program.h"

namespace boids::render {
namespace {

// Each invocation takes boids a grid's width apart: any count in a bounded dispatch.
constexpr const char* kSplatShader = R"(
layout(local_size_x = 256) in;
layout(std430, binding = 0) readonly buffer Boids { float boid[]; };
layout(std430, binding = 1) buffer Sums { uint sums[]; };  // a pixel's count, cosines, sines
layout(std430, binding = 2) coherent buffer Densest { uint densest; };
uniform uint u_count;
uniform int u_dimensions;
uniform int u_floats;
uniform mat4 u_view_proj;
uniform float u_near;
uniform int u_wrap;
uniform vec2 u_center;
uniform vec2 u_world;
uniform ivec2 u_size;
uniform float u_units;

void main() {
  uint stride = gl_NumWorkGroups.x * gl_WorkGroupSize.x;
  for (uint i = gl_GlobalInvocationID.x; i < u_count; i += stride) {
    uint at = i * uint(u_floats);
    uint v = at + uint(u_dimensions);
    vec3 p = vec3(boid[at], boid[at + 1u], u_dimensions == 3 ? boid[at + 2u] : 0.0);
    if (u_wrap == 1) {
      vec2 d = p.xy - u_center;
      p.xy = u_center + d - u_world * round(d / u_world);
    }
    vec4 clip = u_view_proj * vec4(p, 1.0);
    if (!(clip.w > u_near)) continue;
    vec2 ndc = clip.xy / clip.w;
    vec2 px = vec2((ndc.x + 1.0) * 0.5 * float(u_size.x), (1.0 - ndc.y) * 0.5 * float(u_size.y));
    if (!(px.x >= 0.0 && px.x < float(u_size.x) && px.y >= 0.0 && px.y < float(u_size.y))) continue;
    uint pixel = 3u * (uint(px.y) * uint(u_size.x) + uint(px.x));
    vec2 velocity = vec2(boid[v], boid[v + 1u]);
    float speed = length(velocity);
    vec2 heading = speed > 0.0 ? velocity / speed : vec2(1.0, 0.0);
    // The densest pixel's count: most boids find it already larger than theirs, and skip the
    // atomic that would queue every boid of the flock on one address.
    uint boids_here = atomicAdd(sums[pixel], 1u) + 1u;
    if (boids_here > densest) atomicMax(densest, boids_here);
    atomicAdd(sums[pixel + 1u], uint(int(round(heading.x * u_units))));
    atomicAdd(sums[pixel + 2u], uint(int(round(heading.y * u_units))));
  }
}
)";

// The page's hue of a heading in turns (its boid shader's, host/serve/page/draw.js); one boid
// a third as bright as the densest pixel.
constexpr const char* kShadeShader = R"(
layout(local_size_x = 16, local_size_y = 16) in;
layout(std430, binding = 1) readonly buffer Sums { uint sums[]; };
layout(std430, binding = 2) readonly buffer Densest { uint densest; };
layout(rgba8, binding = 0) writeonly uniform image2D u_image;
uniform ivec2 u_size;
uniform vec3 u_background;

vec3 hue(float turns) {
  vec3 k = mod(vec3(5.0, 3.0, 1.0) + turns * 6.0, 6.0);
  return 1.0 - 0.8 * clamp(min(k, 4.0 - k), 0.0, 1.0);
}

void main() {
  ivec2 at = ivec2(gl_GlobalInvocationID.xy);
  if (at.x >= u_size.x || at.y >= u_size.y) return;
  uint pixel = 3u * (uint(at.y) * uint(u_size.x) + uint(at.x));
  uint n = sums[pixel];
  vec3 colour = u_background;
  if (n > 0u) {
    float bright = 0.35 + 0.65 * log(1.0 + float(n)) / log(1.0 + float(max(densest, 1u)));
    float c = float(int(sums[pixel + 1u])), s = float(int(sums[pixel + 2u]));
    float turns = c == 0.0 && s == 0.0 ? 0.0 : atan(s, c) / 6.2831853;
    colour = round(255.0 * bright * hue(turns < 0.0 ? turns + 1.0 : turns)) / 255.0;
  }
  imageStore(u_image, at, vec4(colour, 1.0));  // row 0 the picture's top
}
)";

void uniform(GLuint program, const char* name, int value) {
  glUniform1i(glGetUniformLocation(program, name), value);
}

}  // namespace

DensityPicture::DensityPicture() {
  splat_ = link_compute_program({kGlslVersion, kSplatShader}, "density (boids)");
  shade_ = link_compute_program({kGlslVersion, kShadeShader}, "density (pixels)");
  glGenBuffers(1, &densest_);
  glBindBuffer(GL_SHADER_STORAGE_BUFFER, densest_);
  glBufferData(GL_SHADER_STORAGE_BUFFER, sizeof(GLuint), nullptr, GL_DYNAMIC_DRAW);
  glGenFramebuffers(1, &read_framebuffer_);
}

DensityPicture::~DensityPicture() {
  release();
  glDeleteBuffers(1, &densest_);
  glDeleteFramebuffers(1, &read_framebuffer_);
  glDeleteProgram(splat_);
  glDeleteProgram(shade_);
}

void DensityPicture::release() {
  glDeleteBuffers(1, &sums_);
  glDeleteTextures(1, &image_);
  sums_ = image_ = 0;
  width_ = height_ = 0;
}

void DensityPicture::resize(int width, int height) {
  if (width == width_ && height == height_) return;
  release();
  const auto pixels = static_cast<GLsizeiptr>(width) * height;
  glGenBuffers(1, &sums_);
  glBindBuffer(GL_SHADER_STORAGE_BUFFER, sums_);
  glBufferData(GL_SHADER_STORAGE_BUFFER, 3 * pixels * static_cast<GLsizeiptr>(sizeof(GLuint)),
               nullptr, GL_DYNAMIC_DRAW);
  glGenTextures(1, &image_);
  glBindTexture(GL_TEXTURE_2D, image_);
  glTexStorage2D(GL_TEXTURE_2D, 1, GL_RGBA8, width, height);
  glBindTexture(GL_TEXTURE_2D, 0);
  if (glGetError() != GL_NO_ERROR) {
    release();
    throw RuntimeError("OpenGL cannot hold a picture of " + std::to_string(width) + " x " +
                       std::to_string(height));
  }
  width_ = width;
  height_ = height;
  GLint read_from = 0;
  glGetIntegerv(GL_READ_FRAMEBUFFER_BINDING, &read_from);
  glBindFramebuffer(GL_READ_FRAMEBUFFER, read_framebuffer_);
  glFramebufferTexture2D(GL_READ_FRAMEBUFFER, GL_COLOR_ATTACHMENT0, GL_TEXTURE_2D, image_, 0);
  glBindFramebuffer(GL_READ_FRAMEBUFFER, static_cast<GLuint>(read_from));
}

void DensityPicture::draw(unsigned int boids, std::uint64_t count, int dimensions,
                          int floats_per_boid, const Projection& projection, int width,
                          int height) {
  if (width < 1 || height < 1) throw InputError("a picture of no pixels");
  resize(width, height);
  const GLuint zero = 0;
  glBindBuffer(GL_SHADER_STORAGE_BUFFER, sums_);
  glClearBufferData(GL_SHADER_STORAGE_BUFFER, GL_R32UI, GL_RED_INTEGER, GL_UNSIGNED_INT, &zero);
  glBindBuffer(GL_SHADER_STORAGE_BUFFER, densest_);
  glClearBufferData(GL_SHADER_STORAGE_BUFFER, GL_R32UI, GL_RED_INTEGER, GL_UNSIGNED_INT, &zero);
  glBindBuffer(GL_SHADER_STORAGE_BUFFER, 0);

  glUseProgram(splat_);
  uniform(splat_, "u_dimensions", dimensions);
  uniform(splat_, "u_floats", floats_per_boid);
  glUniformMatrix4fv(glGetUniformLocation(splat_, "u_view_proj"), 1, GL_FALSE,
                     projection.view_proj.data());
  glUniform1f(glGetUniformLocation(splat_, "u_near"), projection.near);
  uniform(splat_, "u_wrap", projection.wrap ? 1 : 0);
  glUniform2f(glGetUniformLocation(splat_, "u_center"), projection.center[0], projection.center[1]);
  glUniform2f(glGetUniformLocation(splat_, "u_world"), projection.world[0], projection.world[1]);
  glUniform2i(glGetUniformLocation(splat_, "u_size"), width, height);
  glUniform1f(glGetUniformLocation(splat_, "u_units"), static_cast<float>(kHeadingUnits));
  glBindBufferBase(GL_SHADER_STORAGE_BUFFER, 1, sums_);
  glBindBufferBase(GL_SHADER_STORAGE_BUFFER, 2, densest_);
  // A storage block holds at most GL_MAX_SHADER_STORAGE_BLOCK_SIZE bytes (a few GiB at most):
  // a larger flock is taken in ranges of a multiple of 1,024 boids, so that each starts on a
  // multiple of 16 KiB (which any storage buffer's offset alignment divides).
  GLint64 block = 0;
  glGetInteger64v(GL_MAX_SHADER_STORAGE_BLOCK_SIZE, &block);
  const std::uint64_t boid_bytes = static_cast<std::uint64_t>(floats_per_boid) * sizeof(float);
  const std::uint64_t limit = std::min<std::uint64_t>(static_cast<std::uint64_t>(block), 1u << 30);
  const std::uint64_t range = std::max<std::uint64_t>(limit / boid_bytes / 1024 * 1024, 1024);
  for (std::uint64_t first = 0; first < count; first += range) {
    const std::uint64_t n = std::min(range, count - first);
    glBindBufferRange(GL_SHADER_STORAGE_BUFFER, 0, boids, static_cast<GLintptr>(first * boid_bytes),
                      static_cast<GLsizeiptr>(n * boid_bytes));
    glUniform1ui(glGetUniformLocation(splat_, "u_count"), static_cast<GLuint>(n));
    glDispatchCompute(static_cast<GLuint>(std::min<std::uint64_t>((n + 255) / 256, 4096)), 1, 1);
  }
  glMemoryBarrier(GL_SHADER_STORAGE_BARRIER_BIT);

  glUseProgram(shade_);
  glUniform2i(glGetUniformLocation(shade_, "u_size"), width, height);
  glUniform3f(glGetUniformLocation(shade_, "u_background"), kDensityBackground[0] / 255.0f,
              kDensityBackground[1] / 255.0f, kDensityBackground[2] / 255.0f);
  glBindImageTexture(0, image_, 0, GL_FALSE, 0, GL_WRITE_ONLY, GL_RGBA8);
  glDispatchCompute(static_cast<GLuint>((width + 15) / 16), static_cast<GLuint>((height + 15) / 16),
                    1);
  // The read-back and the blit, and the next picture's clearing of the sums the atomics wrote.
  glMemoryBarrier(GL_TEXTURE_UPDATE_BARRIER_BIT | GL_FRAMEBUFFER_BARRIER_BIT |
                  GL_BUFFER_UPDATE_BARRIER_BIT);
  glUseProgram(0);
  for (GLuint binding = 0; binding < 3; ++binding)
    glBindBufferBase(GL_SHADER_STORAGE_BUFFER, binding, 0);
  // A driver that refused a step (a range of the flock too large for it) leaves no picture.
  if (const GLenum error = glGetError(); error != GL_NO_ERROR) {
    char code[16];
    std::snprintf(code, sizeof code, "0x%04X", error);
    throw RuntimeError(std::string("OpenGL error ") + code + " drawing the density picture");
  }
}

void DensityPicture::read_rgb(std::string& out) const {
  out.resize(3 * static_cast<std::size_t>(width_) * static_cast<std::size_t>(height_));
  glBindTexture(GL_TEXTURE_2D, image_);
  glPixelStorei(GL_PACK_ALIGNMENT, 1);
  glGetTexImage(GL_TEXTURE_2D, 0, GL_RGB, GL_UNSIGNED_BYTE, out.data());
  glBindTexture(GL_TEXTURE_2D, 0);
}

void DensityPicture::show(int width, int height, int left) const {
  GLint read_from = 0;
  glGetIntegerv(GL_READ_FRAMEBUFFER_BINDING, &read_from);
  glBindFramebuffer(GL_READ_FRAMEBUFFER, read_framebuffer_);
  // The picture's top row is its texture's first: drawn upside down into OpenGL's rows.
  glBlitFramebuffer(0, 0, width_, height_, left, height, left + width, 0, GL_COLOR_BUFFER_BIT,
                    GL_NEAREST);
  glBindFramebuffer(GL_READ_FRAMEBUFFER, static_cast<GLuint>(read_from));
}

}  // namespace boids::render
