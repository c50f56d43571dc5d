#include "viewer/screenshot.h"

#include <glad/gl.h>
#include <stb_image_write.h>  // implemented in Debian's libstb

#include <cstring>
#include <vector>

#include "host/base/errors.h"

namespace boids::viewer {

std::string encode_screenshot(int width, int height) {
  const auto row = static_cast<std::size_t>(width) * 3;
  std::vector<unsigned char> pixels(row * static_cast<std::size_t>(height));
  glPixelStorei(GL_PACK_ALIGNMENT, 1);
  glReadBuffer(drawn_buffer());
  glReadPixels(0, 0, width, height, GL_RGB, GL_UNSIGNED_BYTE, pixels.data());
  // OpenGL's rows run bottom to top; PNG's top to bottom.
  std::vector<unsigned char> line(row);
  for (int y = 0; y < height / 2; ++y) {
    unsigned char* a = pixels.data() + static_cast<std::size_t>(y) * row;
    unsigned char* b = pixels.data() + static_cast<std::size_t>(height - 1 - y) * row;
    std::memcpy(line.data(), a, row);
    std::memcpy(a, b, row);
    std::memcpy(b, line.data(), row);
  }
  std::string png;
  const auto append = [](void* out, void* data, int size) {
    static_cast<std::string*>(out)->append(static_cast<const char*>(data),
                                           static_cast<std::size_t>(size));
  };
  if (!stbi_write_png_to_func(append, &png, width, height, 3, pixels.data(),
                              static_cast<int>(row))) {
    throw RuntimeError("--screenshot: cannot encode the frame as a PNG");
  }
  return png;
}

}  // namespace boids::viewer
