// CUDA-OpenGL interop for the vertex buffer: on the cuda backend the kernels write the
// buffer's render data (4 floats per boid, 6 in 3D) directly (registered once, mapped each frame).
// Where CUDA is not built, or the OpenGL context does not live on the CUDA device (e.g. Mesa under
// Xvfb), it is unavailable and the viewer falls back to copying through the host.
#pragma once

#include <cstdint>
#include <memory>
#include <string>

namespace boids {
class ViewerAccess;
}

namespace boids::viewer {

class GlBufferInterop {
 public:
  virtual ~GlBufferInterop() = default;
  // Maps the buffer, has the simulation write the render data of `count` boids into it on
  // the interop's own stream, and unmaps it (also when the write throws).
  virtual void write(ViewerAccess& sim, std::uint64_t count) = 0;
};

// Registers `gl_buffer` (an OpenGL buffer object name) with CUDA. Returns null and says why
// in `reason` when interop is not possible here.
std::unique_ptr<GlBufferInterop> register_gl_buffer(unsigned int gl_buffer, std::string& reason);

}  // namespace boids::viewer
