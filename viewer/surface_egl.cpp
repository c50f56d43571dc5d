// The viewer with no display (viewer/surface.h): the renderer's offscreen context
// (host/render/gl_context.h), the GPU's where there is one, drawing into a framebuffer of its
// own that the frame loop reads back as a window's back buffer.
#include <glad/gl.h>
#include <imgui.h>

#include <algorithm>
#include <chrono>
#include <memory>
#include <string>

#include "host/base/errors.h"
#include "host/render/gl_context.h"
#include "viewer/surface.h"

namespace boids::viewer {
namespace {

class OffscreenSurface final : public Surface {
 public:
  OffscreenSurface(int width, int height) : width_(width), height_(height) {
    try {
      context_ = std::make_unique<render::OffscreenContext>();
      framebuffer_ = std::make_unique<render::Framebuffer>(width, height);
    } catch (const RuntimeError& e) {
      throw RuntimeError(std::string("--offscreen: ") + e.what());
    }
  }
  ~OffscreenSurface() override {
    framebuffer_.reset();  // while its context is current
    context_.reset();
  }

  void framebuffer_size(int& width, int& height) const override {
    width = width_;
    height = height_;
  }
  void pointer_extent(int& width, int& height) const override {
    width = width_;
    height = height_;
  }
  double seconds() const override {
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - start_).count();
  }
  void poll() override {}
  bool closing() const override { return closing_; }
  void close() override { closing_ = true; }
  void present() override { glFlush(); }
  void start_panel() override {}
  void new_panel_frame() override {
    ImGuiIO& io = ImGui::GetIO();
    io.DisplaySize = ImVec2(static_cast<float>(width_), static_cast<float>(height_));
    const double now = seconds();
    io.DeltaTime = static_cast<float>(std::max(now - last_panel_, 1e-4));
    last_panel_ = now;
  }
  void stop_panel() override {}
  std::string describe() const override { return "offscreen: " + context_->source(); }

 private:
  int width_, height_;
  std::unique_ptr<render::OffscreenContext> context_;
  std::unique_ptr<render::Framebuffer> framebuffer_;
  bool closing_ = false;
  std::chrono::steady_clock::time_point start_ = std::chrono::steady_clock::now();
  double last_panel_ = 0;
};

}  // namespace

std::unique_ptr<Surface> open_offscreen(int width, int height) {
  return std::make_unique<OffscreenSurface>(width, height);
}

}  // namespace boids::viewer
