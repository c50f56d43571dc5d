// The viewer's window: GLFW with an OpenGL 4.3 core context (viewer/surface.h).
#include <glad/gl.h>
// glad before GLFW, so that GLFW does not include the system OpenGL header.
#include <GLFW/glfw3.h>
#include <backends/imgui_impl_glfw.h>

#include "host/base/errors.h"
#include "viewer/surface.h"

namespace boids::viewer {
namespace {

std::string glfw_error;
void on_glfw_error(int /*code*/, const char* description) {
  glfw_error = description;
}

class WindowSurface final : public Surface {
 public:
  explicit WindowSurface(bool vsync) {
    glfwSetErrorCallback(on_glfw_error);
    if (!glfwInit()) {
      throw RuntimeError("cannot open a window (no display? --offscreen draws without one): " +
                         glfw_error);
    }
    glfwWindowHint(GLFW_CONTEXT_VERSION_MAJOR, 4);
    glfwWindowHint(GLFW_CONTEXT_VERSION_MINOR, 3);
    glfwWindowHint(GLFW_OPENGL_PROFILE, GLFW_OPENGL_CORE_PROFILE);
    glfwWindowHint(GLFW_OPENGL_FORWARD_COMPAT, GLFW_TRUE);
    window_ = glfwCreateWindow(1280, 800, "boids-viewer", nullptr, nullptr);
    if (!window_) {
      glfwTerminate();
      throw RuntimeError("cannot create a window with OpenGL 4.3 core: " + glfw_error);
    }
    glfwMakeContextCurrent(window_);
    if (gladLoadGL(glfwGetProcAddress) == 0) {
      glfwDestroyWindow(window_);
      glfwTerminate();
      throw RuntimeError("cannot load OpenGL 4.3 functions");
    }
    glfwSwapInterval(vsync ? 1 : 0);
  }
  ~WindowSurface() override {
    glfwDestroyWindow(window_);
    glfwTerminate();
  }

  void framebuffer_size(int& width, int& height) const override {
    glfwGetFramebufferSize(window_, &width, &height);
  }
  void pointer_extent(int& width, int& height) const override {
    glfwGetWindowSize(window_, &width, &height);
  }
  double seconds() const override { return glfwGetTime(); }
  void poll() override { glfwPollEvents(); }
  bool closing() const override { return glfwWindowShouldClose(window_) != 0; }
  void close() override { glfwSetWindowShouldClose(window_, GLFW_TRUE); }
  void present() override { glfwSwapBuffers(window_); }
  // After the viewer's own callbacks are installed: Dear ImGui's backend chains to them.
  void start_panel() override { ImGui_ImplGlfw_InitForOpenGL(window_, true); }
  void new_panel_frame() override { ImGui_ImplGlfw_NewFrame(); }
  void stop_panel() override { ImGui_ImplGlfw_Shutdown(); }
  std::string describe() const override { return "a window"; }
  GLFWwindow* window() const override { return window_; }

 private:
  GLFWwindow* window_ = nullptr;
};

}  // namespace

std::unique_ptr<Surface> open_window(bool vsync) {
  return std::make_unique<WindowSurface>(vsync);
}

}  // namespace boids::viewer
