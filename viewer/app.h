// The viewer: options, window, frame loop.
#pragma once

#include <array>
#include <cstdint>
#include <string>

#include "host/config/flock_options.h"
#include "host/render/renderer.h"
#include "host/tools/options.h"

namespace boids::viewer {

struct ViewerOptions {
  FlockOptions flock;
  std::uint64_t frames = 0;  // 0: until the window is closed
  std::uint64_t steps_per_frame = 1;
  std::string screenshot;
  std::string record;  // FILE.mp4
  int record_fps = 30;
  bool offscreen = false;                                  // EGL with no display (viewer/surface.h)
  std::array<int, 2> size = {1280, 800};                   // the picture's, offscreen
  render::Colouring colour = render::Colouring::kHeading;  // kViewerColourings
  bool hide_panel = false;
  bool vsync = true;
  bool help = false;
};

// The colourings the viewer draws, in the order C steps through them.
inline constexpr render::Colouring kViewerColourings[] = {
    render::Colouring::kHeading, render::Colouring::kSpeed, render::Colouring::kDensity};

tools::OptionParser make_parser(ViewerOptions& options);

// Opens the window (or, offscreen, a framebuffer) and runs until it is closed or `frames`
// frames are drawn.
int run_viewer(const ViewerOptions& options);

}  // namespace boids::viewer
