// The current framebuffer (the frame just drawn, before the swap) as a PNG.
#pragma once

#include <string>

namespace boids::viewer {

// The PNG file's bytes; the caller writes them (whole, or not at all).
std::string encode_screenshot(int width, int height);

}  // namespace boids::viewer
