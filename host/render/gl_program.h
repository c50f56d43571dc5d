// Compiling and linking the renderer's shader programs, and the GLSL its views share. Needs a
// current OpenGL context.
#pragma once

#include <initializer_list>

namespace boids::render {

// The first line of every shader.
inline constexpr const char* kGlslVersion = "#version 430 core\n";

// Colours by heading (hsv) and by speed: slow blue to fast orange over the flock's own span of
// speeds (SpeedSpan: low, high), its middle where the flock has one speed.
inline constexpr const char* kGlslColors = R"(
vec3 hsv(float h, float s, float v) {
  vec3 k = clamp(abs(mod(h * 6.0 + vec3(0.0, 4.0, 2.0), 6.0) - 3.0) - 1.0, 0.0, 1.0);
  return v * mix(vec3(1.0), k, s);
}
vec3 speed_color(float speed, vec2 span) {
  float t = span.y > span.x ? clamp((speed - span.x) / (span.y - span.x), 0.0, 1.0) : 0.5;
  return mix(vec3(0.2, 0.45, 1.0), vec3(1.0, 0.55, 0.1), t);
}
)";

// Draws each fragment in its vertex's colour.
inline constexpr const char* kColorFragmentShader = R"(#version 430 core
in vec3 v_color;
out vec4 color;
void main() { color = vec4(v_color, 1.0); }
)";

// A linked program from a vertex shader (its source in pieces, joined in order) and a fragment
// shader; throws RuntimeError with the driver's log, naming `what`, when either fails.
unsigned int link_program(std::initializer_list<const char*> vertex_source,
                          const char* fragment_source, const char* what);
// A linked compute program from its source in pieces; throws as link_program does.
unsigned int link_compute_program(std::initializer_list<const char*> source, const char* what);

}  // namespace boids::render
