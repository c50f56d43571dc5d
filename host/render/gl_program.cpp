#include "host/render/gl_program.h"

#include <glad/gl.h>

#include <string>
#include <vector>

#include "host/base/errors.h"

namespace boids::render {
namespace {

// Throws with the driver's log of `object` (a shader, or a program) unless `ok`.
void check(GLint ok, GLuint object, bool program, const char* what, const char* failed) {
  if (ok) return;
  char log[2048] = {};
  if (program) {
    glGetProgramInfoLog(object, sizeof log, nullptr, log);
    glDeleteProgram(object);
  } else {
    glGetShaderInfoLog(object, sizeof log, nullptr, log);
    glDeleteShader(object);
  }
  throw RuntimeError(std::string(what) + " shader does not " + failed + ": " + log);
}

GLuint compile(GLenum kind, std::initializer_list<const char*> source, const char* what) {
  const GLuint shader = glCreateShader(kind);
  const std::vector<const char*> pieces(source);
  glShaderSource(shader, static_cast<GLsizei>(pieces.size()), pieces.data(), nullptr);
  glCompileShader(shader);
  GLint ok = 0;
  glGetShaderiv(shader, GL_COMPILE_STATUS, &ok);
  check(ok, shader, false, what, "compile");
  return shader;
}

// A program of `shaders`, which it deletes; throws with the driver's log if it does not link.
GLuint link(std::initializer_list<GLuint> shaders, const char* what) {
  const GLuint program = glCreateProgram();
  for (const GLuint shader : shaders) glAttachShader(program, shader);
  glLinkProgram(program);
  for (const GLuint shader : shaders) glDeleteShader(shader);
  GLint ok = 0;
  glGetProgramiv(program, GL_LINK_STATUS, &ok);
  check(ok, program, true, what, "link");
  return program;
}

}  // namespace

unsigned int link_program(std::initializer_list<const char*> vertex_source,
                          const char* fragment_source, const char* what) {
  const GLuint vs = compile(GL_VERTEX_SHADER, vertex_source, what);
  const GLuint fs = compile(GL_FRAGMENT_SHADER, {fragment_source}, what);
  return link({vs, fs}, what);
}

unsigned int link_compute_program(std::initializer_list<const char*> source, const char* what) {
  return link({compile(GL_COMPUTE_SHADER, source, what)}, what);
}

}  // namespace boids::render
