#include "host/render/gl_context.h"

#include <glad/gl.h>
#define EGL_NO_X11  // no X11 headers: there is no display
#include <EGL/egl.h>
#include <EGL/eglext.h>

#include <vector>

#include "host/base/errors.h"

namespace boids::render {
namespace {

// EGL_NV_device_cuda's attribute: a device's CUDA ordinal.
constexpr EGLint kEglCudaDevice = 0x323A;

template <typename F>
F egl_function(const char* name) {
  return reinterpret_cast<F>(eglGetProcAddress(name));
}

// `display` initialised, with an OpenGL 4.3 core context current and no surface; or false,
// saying why in `why` (the display given back).
bool make_current(EGLDisplay display, EGLContext& made, std::string& why) {
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
  made = context;
  return true;
}

}  // namespace

OffscreenContext::OffscreenContext() {
  const auto display_of = egl_function<PFNEGLGETPLATFORMDISPLAYEXTPROC>("eglGetPlatformDisplayEXT");
  const auto query_devices = egl_function<PFNEGLQUERYDEVICESEXTPROC>("eglQueryDevicesEXT");
  const auto device_string =
      egl_function<PFNEGLQUERYDEVICESTRINGEXTPROC>("eglQueryDeviceStringEXT");
  const auto device_attribute =
      egl_function<PFNEGLQUERYDEVICEATTRIBEXTPROC>("eglQueryDeviceAttribEXT");
  if (!display_of)
    throw RuntimeError("no OpenGL 4.3 context through EGL (it has no eglGetPlatformDisplayEXT)");
  std::vector<EGLDeviceEXT> devices(16);
  EGLint found = 0;
  if (query_devices && query_devices(static_cast<EGLint>(devices.size()), devices.data(), &found)) {
    devices.resize(static_cast<std::size_t>(found));
  } else {
    devices.clear();
  }
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
  std::string tried;
  const auto attempt = [&](EGLenum platform, void* native, const std::string& name) {
    std::string why;
    EGLContext context = EGL_NO_CONTEXT;
    const EGLDisplay display = display_of(platform, native, nullptr);
    if (make_current(display, context, why)) {
      const char* vendor = eglQueryString(display, EGL_VENDOR);
      display_ = display;
      context_ = context;
      source_ = name + " (" + (vendor ? vendor : "?") + ")";
      return true;
    }
    tried += (tried.empty() ? "" : "; ") + name + ": " + why;
    return false;
  };
  const auto device = [&](std::size_t d) {
    return attempt(EGL_PLATFORM_DEVICE_EXT, devices[d], "EGL device " + std::to_string(d));
  };
  for (std::size_t d = 0; d < devices.size() && !context_; ++d)
    if (is_flocks(devices[d]) && device(d)) on_gpu_ = true;
  for (std::size_t d = 0; d < devices.size() && !context_; ++d)
    if (is_cuda(devices[d]) && !is_flocks(devices[d]) && device(d)) on_gpu_ = true;
  if (!context_)
    attempt(EGL_PLATFORM_SURFACELESS_MESA, EGL_DEFAULT_DISPLAY, "Mesa's surfaceless platform");
  for (std::size_t d = 0; d < devices.size() && !context_; ++d)
    if (!is_cuda(devices[d])) device(d);
  if (!context_) {
    if (tried.empty()) tried = "no EGL device and no surfaceless platform";
    throw RuntimeError("no OpenGL 4.3 context through EGL (" + tried + ")");
  }
  const auto load = [](const char* name) {
    return reinterpret_cast<GLADapiproc>(eglGetProcAddress(name));
  };
  if (gladLoadGL(load) == 0) {
    close();
    throw RuntimeError("cannot load OpenGL 4.3 functions through EGL");
  }
}

OffscreenContext::~OffscreenContext() {
  close();
}

void OffscreenContext::close() {
  if (!display_) return;
  eglMakeCurrent(display_, EGL_NO_SURFACE, EGL_NO_SURFACE, EGL_NO_CONTEXT);
  eglDestroyContext(display_, context_);
  eglTerminate(display_);
  display_ = context_ = nullptr;
}

Framebuffer::Framebuffer(int width, int height) : width_(width), height_(height) {
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
    release();
    throw RuntimeError("cannot make a framebuffer of " + std::to_string(width) + " x " +
                       std::to_string(height));
  }
  glViewport(0, 0, width, height);
}

Framebuffer::~Framebuffer() {
  release();
}

void Framebuffer::release() {
  if (framebuffer_ == 0) return;
  glBindFramebuffer(GL_FRAMEBUFFER, 0);
  glDeleteFramebuffers(1, &framebuffer_);
  glDeleteRenderbuffers(2, renderbuffers_);
  framebuffer_ = 0;
}

}  // namespace boids::render
