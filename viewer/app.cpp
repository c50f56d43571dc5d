#include "viewer/app.h"

#include <glad/gl.h>
// glad before GLFW, so that GLFW does not include the system OpenGL header.
#include <GLFW/glfw3.h>
#include <backends/imgui_impl_opengl3.h>
#include <imgui.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdio>
#include <iterator>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "host/base/errors.h"
#include "host/base/message_text.h"
#include "host/core/simulation.h"
#include "host/io/output_file.h"
#include "host/tools/flock_command_line.h"
#include "host/tools/progress_lines.h"
#include "host/tools/python_script.h"
#include "viewer/viewer.h"

namespace boids::viewer {
namespace {

// "1920x1080": a picture's width and height.
std::array<int, 2> parse_size(const std::string& text) {
  const std::size_t x = text.find('x');
  const auto side = [&](const std::string& part, int most) {
    if (part.empty() || part.size() > 5 ||
        part.find_first_not_of("0123456789") != std::string::npos)
      return -1;
    const int v = std::stoi(part);
    return v >= 16 && v <= most ? v : -1;
  };
  const int width = x == std::string::npos ? -1 : side(text.substr(0, x), 7680);
  const int height = x == std::string::npos ? -1 : side(text.substr(x + 1), 4320);
  if (width < 0 || height < 0) {
    throw InputError("--size: expected WIDTHxHEIGHT, 16x16 to 7680x4320, got " + quoted(text));
  }
  return {width, height};
}

}  // namespace

tools::OptionParser make_parser(ViewerOptions& o) {
  tools::OptionParser parser(
      "Usage: boids-viewer [options]\n"
      "Shows a flock in a window (OpenGL 4.3), or draws it with no display (--offscreen) into\n"
      "--screenshot and --record. Press H in the window for the controls.");
  tools::add_flock_options(parser, o.flock);
  parser.add_heading("The viewer");
  parser.add_value("--frames", "N",
                   "quit after N frames, >= 1 (default: when the window is closed)",
                   [&o](const std::string& v) { o.frames = tools::parse_whole("--frames", v, 1); });
  parser.add_value("--steps-per-frame", "K", "simulation steps per frame, 1 to 1000 (default 1)",
                   [&o](const std::string& v) {
                     o.steps_per_frame = tools::parse_whole("--steps-per-frame", v, 1, 1000);
                   });
  parser.add_value("--screenshot", "FILE.png", "save the last frame as a PNG",
                   [&o](const std::string& v) {
                     tools::check_png_name("--screenshot", v);
                     o.screenshot = v;
                   });
  parser.add_value("--record", "FILE.mp4",
                   "write every frame drawn into an H.264 video (needs ffmpeg; with --frames N, "
                   "headless under Xvfb too)",
                   [&o](const std::string& v) {
                     if (v.size() < 5 || v.compare(v.size() - 4, 4, ".mp4") != 0) {
                       throw InputError("--record: expected a file name ending in .mp4, got " +
                                        boids::quoted(v));
                     }
                     o.record = v;
                   });
  parser.add_value("--record-fps", "N", "frames a second of the video, 1 to 240 (default 30)",
                   [&o](const std::string& v) {
                     o.record_fps = static_cast<int>(tools::parse_whole("--record-fps", v, 1, 240));
                   });
  parser.add_flag("--offscreen",
                  "draw with no window and no display, through EGL: the GPU's on a GPU server, "
                  "Mesa's elsewhere; for --screenshot and --record (stops after --frames, or at "
                  "SIGINT)",
                  [&o] { o.offscreen = true; });
  parser.add_value("--size", "WxH",
                   "the picture's size offscreen, 16x16 to 7680x4320 (default 1280x800)",
                   [&o](const std::string& v) { o.size = parse_size(v); });
  parser.add_value(
      "--colour", "heading|speed|density",
      "what colours the flock: each boid's heading, or its speed over the flock's own "
      "[min speed, max speed], or the whole flock's density, shaded by its boids a pixel and "
      "coloured by their mean heading (default heading; C changes it)",
      [&o](const std::string& v) {
        const std::optional<render::Colouring> c = render::parse_colouring(v);
        if (c && std::find(std::begin(kViewerColourings), std::end(kViewerColourings), *c) !=
                     std::end(kViewerColourings)) {
          o.colour = *c;
        } else if (c) {
          throw InputError("--colour: " + quoted(v) +
                           " colours a page's boids (boids serve); the viewer colours by "
                           "heading, speed or density");
        } else {
          throw InputError("--colour: expected heading, speed or density, got " + quoted(v));
        }
      });
  parser.add_flag("--no-panel", "start with the control panel hidden (Tab shows it)",
                  [&o] { o.hide_panel = true; });
  parser.add_value("--vsync", "on|off", "wait for the display's refresh (default on)",
                   [&o](const std::string& v) {
                     if (v != "on" && v != "off") {
                       throw InputError("--vsync: expected on or off, got '" + v + "'");
                     }
                     o.vsync = v == "on";
                   });
  parser.add_flag("--help", "show this help", [&o] { o.help = true; });
  return parser;
}

namespace {

Viewer* viewer_of(GLFWwindow* window) {
  return static_cast<Viewer*>(glfwGetWindowUserPointer(window));
}

// The window's input to the viewer: ours first; Dear ImGui's backend chains to them.
void listen(GLFWwindow* window, Viewer& viewer) {
  glfwSetWindowUserPointer(window, &viewer);
  glfwSetKeyCallback(window, [](GLFWwindow* w, int key, int, int action, int) {
    viewer_of(w)->on_key(key, action);
  });
  glfwSetMouseButtonCallback(window, [](GLFWwindow* w, int button, int action, int) {
    viewer_of(w)->on_mouse_button(button, action);
  });
  glfwSetCursorPosCallback(
      window, [](GLFWwindow* w, double x, double y) { viewer_of(w)->on_cursor(x, y); });
  glfwSetScrollCallback(window,
                        [](GLFWwindow* w, double, double dy) { viewer_of(w)->on_scroll(dy); });
}

}  // namespace

int run_viewer(const ViewerOptions& options) {
  // Everything the user gave is checked before a window opens.
  const SimulationConfig config = resolve_config(options.flock);
  OutputFiles outputs;  // checked, and its temporary files made, before a window opens
  if (!options.screenshot.empty()) outputs.add("--screenshot", options.screenshot, ".png");
  if (!options.record.empty()) {
    if (!ffmpeg_available()) {
      throw RuntimeError("--record: ffmpeg is not on the PATH (scripts/install-deps installs it)");
    }
    outputs.add("--record", options.record, ".mp4");
  }
  const FlockState start = initial_state(options.flock, config.params);
  tools::say_if_slow("boids-viewer", config, start.size());
  std::unique_ptr<Simulation> sim = make_simulation(config, start);
  if (options.offscreen && options.frames == 0) {
    // No window to close: say at once how this run ends, rather than draw on in silence.
    std::fprintf(stderr,
                 "boids-viewer: --offscreen without --frames draws until Ctrl-C, then saves "
                 "what it was asked for (--frames N stops after N frames)\n");
  }

  const std::unique_ptr<Surface> surface = options.offscreen
                                               ? open_offscreen(options.size[0], options.size[1])
                                               : open_window(options.vsync);
  IMGUI_CHECKVERSION();
  ImGui::CreateContext();
  ImGui::GetIO().IniFilename = nullptr;  // no imgui.ini in the working directory
  ImGui::StyleColorsDark();
  {
    auto viewer = std::make_unique<Viewer>(*surface, options, config, std::move(sim));
    if (outputs.has("--record")) viewer->record_to(outputs.file_to_write("--record"));
    if (surface->window()) listen(surface->window(), *viewer);
    surface->start_panel();
    ImGui_ImplOpenGL3_Init("#version 430");
    try {
      viewer->run();
      if (outputs.has("--screenshot")) {
        if (viewer->screenshot_png().empty()) {
          throw RuntimeError("--screenshot: the viewer closed before it drew a frame");
        }
        outputs.write("--screenshot", viewer->screenshot_png());
      }
      if (outputs.has("--record")) outputs.written_externally("--record");
    } catch (...) {
      ImGui_ImplOpenGL3_Shutdown();
      surface->stop_panel();
      throw;
    }
    viewer.reset();
  }
  ImGui_ImplOpenGL3_Shutdown();
  surface->stop_panel();
  ImGui::DestroyContext();
  outputs.commit();
  return 0;
}

}  // namespace boids::viewer
