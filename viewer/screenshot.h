// Saves the current framebuffer (the frame just drawn, before the swap) as a PNG.
#pragma once

#include <string>

namespace boids::viewer {

void save_screenshot(const std::string& path, int width, int height);

}  // namespace boids::viewer
