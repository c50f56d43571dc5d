// Without the CUDA backend there is nothing to interoperate with.
#include "viewer/gl_interop.h"

namespace boids::viewer {

std::unique_ptr<GlBufferInterop> register_gl_buffer(unsigned int /*gl_buffer*/,
                                                    std::string& reason) {
  reason = "CUDA is not built";
  return nullptr;
}

}  // namespace boids::viewer
