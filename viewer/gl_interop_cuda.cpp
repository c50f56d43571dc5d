// CUDA-OpenGL interop with the runtime API: cudaGraphicsGLRegisterBuffer once,
// cudaGraphicsMapResources / cudaGraphicsResourceGetMappedPointer / cudaGraphicsUnmapResources
// every frame, all on the interop's own stream. Mapping orders the stream after OpenGL's use
// of the buffer; the simulation's kernel runs on the stream after the simulation's pending
// work (ViewerAccess::copy_render_data_to_device); unmapping orders OpenGL's next use after
// the stream's work. Nothing here waits on the host. The buffer is only written, so it is
// registered write-discard.
#include <cuda_gl_interop.h>  // includes the system GL header for GLuint
#include <cuda_runtime_api.h>

#include "host/base/errors.h"
#include "host/core/simulation.h"
#include "host/core/viewer_access.h"
#include "viewer/gl_interop.h"

namespace boids::viewer {
namespace {

void check(cudaError_t status, const char* what) {
  if (status != cudaSuccess) {
    throw RuntimeError(std::string(what) + ": " + cudaGetErrorString(status));
  }
}

// The buffer mapped for the lifetime of this object: unmapped however the scope ends.
class Mapping {
 public:
  Mapping(cudaGraphicsResource_t resource, cudaStream_t stream)
      : resource_(resource), stream_(stream) {
    check(cudaGraphicsMapResources(1, &resource_, stream_), "cudaGraphicsMapResources");
  }
  ~Mapping() noexcept(false) {
    const cudaError_t status = cudaGraphicsUnmapResources(1, &resource_, stream_);
    if (std::uncaught_exceptions() == exceptions_) check(status, "cudaGraphicsUnmapResources");
  }
  Mapping(const Mapping&) = delete;
  Mapping& operator=(const Mapping&) = delete;

  void* pointer(std::size_t& bytes) const {
    void* data = nullptr;
    check(cudaGraphicsResourceGetMappedPointer(&data, &bytes, resource_),
          "cudaGraphicsResourceGetMappedPointer");
    return data;
  }

 private:
  cudaGraphicsResource_t resource_;
  cudaStream_t stream_;
  int exceptions_ = std::uncaught_exceptions();
};

class CudaGlBufferInterop final : public GlBufferInterop {
 public:
  CudaGlBufferInterop(cudaGraphicsResource_t resource, cudaStream_t stream)
      : resource_(resource), stream_(stream) {}
  ~CudaGlBufferInterop() override {
    cudaStreamSynchronize(stream_);
    cudaGraphicsUnregisterResource(resource_);
    cudaStreamDestroy(stream_);
  }
  CudaGlBufferInterop(const CudaGlBufferInterop&) = delete;
  CudaGlBufferInterop& operator=(const CudaGlBufferInterop&) = delete;

  void write(ViewerAccess& sim, std::uint64_t count) override {
    const Mapping mapping(resource_, stream_);
    std::size_t bytes = 0;
    void* data = mapping.pointer(bytes);
    if (bytes < 4 * sizeof(float) * count) {
      throw RuntimeError("the mapped OpenGL buffer is smaller than the flock's render data");
    }
    if (!sim.copy_render_data_to_device(data, stream_)) {
      throw RuntimeError("the simulation does not live on the GPU");
    }
  }

 private:
  cudaGraphicsResource_t resource_;
  cudaStream_t stream_;
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
    cudaGetLastError();  // clear the error so later CUDA calls are unaffected
    reason = std::string("the OpenGL context is not on a CUDA device (") +
             cudaGetErrorString(status) + ")";
    return nullptr;
  }
  cudaStream_t stream = nullptr;
  if (cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking) != cudaSuccess) {
    cudaGetLastError();
    cudaGraphicsUnregisterResource(resource);
    reason = "cannot create a CUDA stream for interop";
    return nullptr;
  }
  return std::make_unique<CudaGlBufferInterop>(resource, stream);
}

}  // namespace boids::viewer
