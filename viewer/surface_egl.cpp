// The viewer with no display (viewer/surface.h): an OpenGL 4.3 core context made through EGL
// with no surface at all (EGL_KHR_surfaceless_context), drawing into a framebuffer object of
// its own. On a GPU server the context is the GPU's, through its EGL device (the NVIDIA EGL
// vendor library), so that CUDA-OpenGL interop works as in a window; on a machine without one,
// Mesa's surfaceless platform gives llvmpipe.
#include <glad/gl.h>
#define EGL_NO_X11  // no X11 headers: there is no display
#include <EGL/egl.h>
#include <EGL/eglext.h>
#include <backends/imgui_impl_opengl3.h>
#include <imgui.h>

#include <algorithm>
#include <chrono>
#include <string>
#include <vector>

#include "host/base/errors.h"
#include "viewer/surface.h"

namespace boids::viewer {
namespace {

// EGL_NV_device_cuda's attribute: a device's CUDA ordinal.
constexpr EGLint kEglCudaDevice = 0x323A;

template <typename F>
F egl_function(const char* name) {
  return reinterpret_cast<F>(eglGetProcAddress(name));
}

// A display: initialised, with an OpenGL 4.3 core context current and no surface; or none,
// saying why in `why`.
struct Context {
  EGLDisplay display = EGL_NO_DISPLAY;
  EGLContext context = EGL_NO_CONTEXT;
};

bool make_current(EGLDisplay display, Context& out, std::string& why) {
  EGLint major = 0, minor = 0;
  if (display == EGL_NO_DISPLAY || !eglInitialize(display, &major, &minor)) {
    why = "cannot initialise it";
    return false;
  }
  const char* extensions = eglQueryString(display, EGL_EXTENSIONS);
  if (!extensions ||
      std::string(extensions).find("EGL_KHR_surfaceless_context") == std::string::npos) {
    eglTerminate(display);
    why = "no EGL_KHR_surfaceless_context";
    return false;
  }
  if (!eglBindAPI(EGL_OPENGL_API)) {
    eglTerminate(display);
    why = "no desktop OpenGL";
    return false;
  }
  const EGLint wanted[] = {EGL_RENDERABLE_TYPE, EGL_OPENGL_BIT, EGL_NONE};
  EGLConfig config = nullptr;
  EGLint configs = 0;
  eglChooseConfig(display, wanted, &config, 1, &configs);
  const EGLint attributes[] = {EGL_CONTEXT_MAJOR_VERSION,
                               4,
                               EGL_CONTEXT_MINOR_VERSION,
                               3,
                               EGL_CONTEXT_OPENGL_PROFILE_MASK,
                               EGL_CONTEXT_OPENGL_CORE_PROFILE_BIT,
                               EGL_NONE};
  const EGLContext context = eglCreateContext(display, configs > 0 ? config : EGLConfig{nullptr},
                                              EGL_NO_CONTEXT, attributes);
  if (context == EGL_NO_CONTEXT ||
      !eglMakeCurrent(display, EGL_NO_SURFACE, EGL_NO_SURFACE, context)) {
    if (context != EGL_NO_CONTEXT) eglDestroyContext(display, context);
    eglTerminate(display);
    why = "no OpenGL 4.3 core context";
    return false;
  }
  out = {display, context};
  return true;
}

class OffscreenSurface final : public Surface {
 public:
  OffscreenSurface(int width, int height) : width_(width), height_(height) {
    std::string tried;
    if (!open(tried))
      throw RuntimeError("--offscreen: no OpenGL 4.3 context through EGL (" + tried + ")");
    const auto load = [](const char* name) {
      return reinterpret_cast<GLADapiproc>(eglGetProcAddress(name));
    };
    if (gladLoadGL(load) == 0) {
      close_context();
      throw RuntimeError("--offscreen: cannot load OpenGL 4.3 functions through EGL");
    }
    // The frame's pixels and depth, drawn into and read back as a window's back buffer.
    glGenFramebuffers(1, &framebuffer_);
    glGenRenderbuffers(2, renderbuffers_);
    glBindRenderbuffer(GL_RENDERBUFFER, renderbuffers_[0]);
    glRenderbufferStorage(GL_RENDERBUFFER, GL_RGBA8, width, height);
    glBindRenderbuffer(GL_RENDERBUFFER, renderbuffers_[1]);
    glRenderbufferStorage(GL_RENDERBUFFER, GL_DEPTH_COMPONENT24, width, height);
    glBindFramebuffer(GL_FRAMEBUFFER, framebuffer_);
    glFramebufferRenderbuffer(GL_FRAMEBUFFER, GL_COLOR_ATTACHMENT0, GL_RENDERBUFFER,
                              renderbuffers_[0]);
    glFramebufferRenderbuffer(GL_FRAMEBUFFER, GL_DEPTH_ATTACHMENT, GL_RENDERBUFFER,
                              renderbuffers_[1]);
    if (glCheckFramebufferStatus(GL_FRAMEBUFFER) != GL_FRAMEBUFFER_COMPLETE) {
      close_context();
      throw RuntimeError("--offscreen: cannot make a framebuffer of " + std::to_string(width) +
                         " x " + std::to_string(height));
    }
    glViewport(0, 0, width, height);
  }
  ~OffscreenSurface() override {
    glDeleteFramebuffers(1, &framebuffer_);
    glDeleteRenderbuffers(2, renderbuffers_);
    close_context();
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
  std::string describe() const override { return "offscreen: " + source_; }

 private:
  // The GPU's EGL device (one that is a CUDA device), else Mesa's surfaceless platform, else
  // any EGL device; `tried` says what failed.
  bool open(std::string& tried) {
    const auto display_of =
        egl_function<PFNEGLGETPLATFORMDISPLAYEXTPROC>("eglGetPlatformDisplayEXT");
    const auto query_devices = egl_function<PFNEGLQUERYDEVICESEXTPROC>("eglQueryDevicesEXT");
    const auto device_string =
        egl_function<PFNEGLQUERYDEVICESTRINGEXTPROC>("eglQueryDeviceStringEXT");
    if (!display_of) {
      tried = "this EGL has no eglGetPlatformDisplayEXT";
      return false;
    }
    std::vector<EGLDeviceEXT> devices(16);
    EGLint found = 0;
    if (query_devices &&
        query_devices(static_cast<EGLint>(devices.size()), devices.data(), &found)) {
      devices.resize(static_cast<std::size_t>(found));
    } else {
      devices.clear();
    }
    const auto device_attribute =
        egl_function<PFNEGLQUERYDEVICEATTRIBEXTPROC>("eglQueryDeviceAttribEXT");
    const auto is_cuda = [&](EGLDeviceEXT device) {
      const char* extensions = device_string ? device_string(device, EGL_EXTENSIONS) : nullptr;
      return extensions && std::string(extensions).find("EGL_NV_device_cuda") != std::string::npos;
    };
    // The CUDA device the flock runs on (the process's current one: device 0 unless chosen)
    // first, so that interop shares its memory; then any other.
    const auto is_flocks = [&](EGLDeviceEXT device) {
      EGLAttrib ordinal = -1;
      return is_cuda(device) && device_attribute &&
             device_attribute(device, kEglCudaDevice, &ordinal) && ordinal == 0;
    };
    const auto attempt = [&](EGLenum platform, void* native, const std::string& name) {
      std::string why;
      if (make_current(display_of(platform, native, nullptr), context_, why)) {
        const char* vendor = eglQueryString(context_.display, EGL_VENDOR);
        source_ = name + " (" + (vendor ? vendor : "?") + ")";
        return true;
      }
      tried += (tried.empty() ? "" : "; ") + name + ": " + why;
      return false;
    };
    for (std::size_t d = 0; d < devices.size(); ++d) {
      if (is_flocks(devices[d]) &&
          attempt(EGL_PLATFORM_DEVICE_EXT, devices[d], "EGL device " + std::to_string(d)))
        return true;
    }
    for (std::size_t d = 0; d < devices.size(); ++d) {
      if (is_cuda(devices[d]) && !is_flocks(devices[d]) &&
          attempt(EGL_PLATFORM_DEVICE_EXT, devices[d], "EGL device " + std::to_string(d)))
        return true;
    }
    if (attempt(EGL_PLATFORM_SURFACELESS_MESA, EGL_DEFAULT_DISPLAY, "Mesa's surfaceless platform"))
      return true;
    for (std::size_t d = 0; d < devices.size(); ++d) {
      if (!is_cuda(devices[d]) &&
          attempt(EGL_PLATFORM_DEVICE_EXT, devices[d], "EGL device " + std::to_string(d)))
        return true;
    }
    if (tried.empty()) tried = "no EGL device and no surfaceless platform";
    return false;
  }

  void close_context() {
    if (context_.display == EGL_NO_DISPLAY) return;
    eglMakeCurrent(context_.display, EGL_NO_SURFACE, EGL_NO_SURFACE, EGL_NO_CONTEXT);
    eglDestroyContext(context_.display, context_.context);
    eglTerminate(context_.display);
    context_ = {};
  }

  int width_, height_;
  Context context_;
  std::string source_;
  GLuint framebuffer_ = 0, renderbuffers_[2] = {0, 0};
  bool closing_ = false;
  std::chrono::steady_clock::time_point start_ = std::chrono::steady_clock::now();
  double last_panel_ = 0;
};

}  // namespace

std::unique_ptr<Surface> open_offscreen(int width, int height) {
  return std::make_unique<OffscreenSurface>(width, height);
}

}  // namespace boids::viewer
