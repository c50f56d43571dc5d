#include "viewer/app.h"

#include <glad/gl.h>
// glad before GLFW, so that GLFW does not include the system OpenGL header.
#include <GLFW/glfw3.h>
#include <backends/imgui_impl_glfw.h>
#include <backends/imgui_impl_opengl3.h>
#include <imgui.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <memory>
#include <string>
#include <vector>

#include "host/base/errors.h"
#include "host/base/message_text.h"
#include "host/core/simulation.h"
#include "host/io/output_file.h"
#include "host/tools/flock_command_line.h"
#include "host/tools/python_script.h"
#include "viewer/viewer.h"

namespace boids::viewer {

tools::OptionParser make_parser(ViewerOptions& o) {
  tools::OptionParser parser(
      "Usage: boids-viewer [options]\n"
      "Shows a flock in a window (OpenGL 4.3). Press H in the window for the controls.");
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

std::string glfw_error;
void on_glfw_error(int /*code*/, const char* description) {
  glfw_error = description;
}

Viewer* viewer_of(GLFWwindow* window) {
  return static_cast<Viewer*>(glfwGetWindowUserPointer(window));
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
  std::unique_ptr<Simulation> sim =
      make_simulation(config, initial_state(options.flock, config.params));

  glfwSetErrorCallback(on_glfw_error);
  if (!glfwInit()) throw RuntimeError("cannot open a window (no display?): " + glfw_error);
  struct GlfwSession {
    ~GlfwSession() { glfwTerminate(); }
  } glfw_session;
  glfwWindowHint(GLFW_CONTEXT_VERSION_MAJOR, 4);
  glfwWindowHint(GLFW_CONTEXT_VERSION_MINOR, 3);
  glfwWindowHint(GLFW_OPENGL_PROFILE, GLFW_OPENGL_CORE_PROFILE);
  glfwWindowHint(GLFW_OPENGL_FORWARD_COMPAT, GLFW_TRUE);
  GLFWwindow* window = glfwCreateWindow(1280, 800, "boids-viewer", nullptr, nullptr);
  if (!window) throw RuntimeError("cannot create a window with OpenGL 4.3 core: " + glfw_error);
  glfwMakeContextCurrent(window);
  if (gladLoadGL(glfwGetProcAddress) == 0) throw RuntimeError("cannot load OpenGL 4.3 functions");
  glfwSwapInterval(options.vsync ? 1 : 0);

  IMGUI_CHECKVERSION();
  ImGui::CreateContext();
  ImGui::GetIO().IniFilename = nullptr;  // no imgui.ini in the working directory
  ImGui::StyleColorsDark();
  {
    auto viewer = std::make_unique<Viewer>(window, options, config, std::move(sim));
    if (outputs.has("--record")) viewer->record_to(outputs.file_to_write("--record"));
    glfwSetWindowUserPointer(window, viewer.get());
    // Ours first; Dear ImGui's backend chains to them.
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
    ImGui_ImplGlfw_InitForOpenGL(window, true);
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
      ImGui_ImplGlfw_Shutdown();
      throw;
    }
    viewer.reset();
  }
  ImGui_ImplOpenGL3_Shutdown();
  ImGui_ImplGlfw_Shutdown();
  ImGui::DestroyContext();
  glfwDestroyWindow(window);
  outputs.commit();
  return 0;
}

}  // namespace boids::viewer
