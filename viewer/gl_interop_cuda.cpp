// CUDA-OpenGL interop with the runtime API: cudaGraphicsGLRegisterBuffer once,
// cudaGraphicsMapResources / cudaGraphicsResourceGetMappedPointer / cudaGraphicsUnmapResources
// every frame. The buffer is only written, so it is registered write-discard.
#include <cuda_gl_interop.h>  // includes the system GL header for GLuint
#include <cuda_runtime_api.h>

#include "host/errors.h"
#include "host/simulation.h"
#include "viewer/gl_interop.h"

namespace boids::viewer {
namespace {

void check(cudaError_t status, const char* what) {
  if (status != cudaSuccess) {
    throw RuntimeError(std::string(what) + ": " + cudaGetErrorString(status));
  }
}

class CudaGlBufferInterop final : public GlBufferInterop {
 public:
  explicit CudaGlBufferInterop(cudaGraphicsResource_t resource) : resource_(resource) {}
  ~CudaGlBufferInterop() override { cudaGraphicsUnregisterResource(resource_); }
  CudaGlBufferInterop(const CudaGlBufferInterop&) = delete;
  CudaGlBufferInterop& operator=(const CudaGlBufferInterop&) = delete;

  void write(const Simulation& sim) override {
    // Stream 0: mapping waits for OpenGL's pending use of the buffer, and unmapping orders
    // OpenGL's next use after the work issued on stream 0. The simulation writes on its own
    // stream and synchronises it before copy_render_data_to_device returns. Its stream is
    // non-blocking, so it does not wait for stream 0: the host waits for the mapping instead.
    check(cudaGraphicsMapResources(1, &resource_, 0), "cudaGraphicsMapResources");
    void* pointer = nullptr;
    std::size_t bytes = 0;
    cudaError_t status = cudaStreamSynchronize(0);
    if (status == cudaSuccess) {
      status = cudaGraphicsResourceGetMappedPointer(&pointer, &bytes, resource_);
    }
    bool written = false;
    if (status == cudaSuccess && bytes >= 4 * sizeof(float) * sim.count()) {
      written = sim.copy_render_data_to_device(pointer);
    }
    check(cudaGraphicsUnmapResources(1, &resource_, 0), "cudaGraphicsUnmapResources");
    check(status, "cudaGraphicsResourceGetMappedPointer");
    if (!written) throw RuntimeError("the simulation could not write the mapped OpenGL buffer");
  }

 private:
  cudaGraphicsResource_t resource_;
};

}  // namespace

std::unique_ptr<GlBufferInterop> register_gl_buffer(unsigned int gl_buffer, std::string& reason) {
  int devices = 0;
  if (cudaGetDeviceCount(&devices) != cudaSuccess || devices == 0) {
    cudaGetLastError();
    reason = "no CUDA device";
    return nullptr;
  }
  cudaGraphicsResource_t resource = nullptr;
  const cudaError_t status = cudaGraphicsGLRegisterBuffer(&resource, static_cast<GLuint>(gl_buffer),
                                                          cudaGraphicsRegisterFlagsWriteDiscard);
  if (status != cudaSuccess) {
    cudaGetLastError();  // clear the sticky-free error so later CUDA calls are unaffected
    reason = std::string("the OpenGL context is not on a CUDA device (") +
             cudaGetErrorString(status) + ")";
    return nullptr;
  }
  return std::make_unique<CudaGlBufferInterop>(resource);
}

}  // namespace boids::viewer
