// The current framebuffer (the frame just drawn, before the swap) as a PNG.
#pragma once

#include <glad/gl.h>

#include <string>

namespace boids::viewer {

// The buffer the frame was drawn into, to read it back: a window's back buffer, or the
// offscreen framebuffer's colour attachment.
inline GLenum drawn_buffer() {
  GLint buffer = GL_BACK;
  glGetIntegerv(GL_DRAW_BUFFER, &buffer);
  return static_cast<GLenum>(buffer);
}

// The PNG file's bytes; the caller writes them (whole, or not at all).
std::string encode_screenshot(int width, int height);

}  // namespace boids::viewer
