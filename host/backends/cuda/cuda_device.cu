// Finding and describing the GPU, and choosing the flock's instantiation (each precision and
// dimension is a unit of its own, host/CMakeLists.txt; float kernels fuse multiply-adds and
// divide fast, double kernels round every operation as the reference does).
#include <cuda_runtime.h>

#include "host/backends/cuda_device_choice.h"
#include "host/backends/kernel_flocks.h"
#include "host/base/errors.h"
#include "host/core/backends.h"

namespace boids {

class CudaExecutor;

CudaAvailability cuda_availability() {
  CudaAvailability a;
  a.compiled = true;
#if defined(BOIDS_CUDA_CHECK_ONLY)
  a.check_only = true;
#endif
  int devices = 0;
  const cudaError_t status = cudaGetDeviceCount(&devices);
  if (status != cudaSuccess) {
    a.reason = std::string("no usable CUDA device: ") + cudaGetErrorString(status);
    cudaGetLastError();  // clear the sticky error so later calls report their own
    return a;
  }
  if (devices == 0) {
    a.reason = "no CUDA device found";
    return a;
  }
  int device = 0;  // the current one (use_cuda_device_of_local_rank)
  cudaDeviceProp properties;
  if (cudaGetDevice(&device) != cudaSuccess ||
      cudaGetDeviceProperties(&properties, device) != cudaSuccess) {
    a.reason = "cannot read the properties of CUDA device " + std::to_string(device);
    return a;
  }
  a.device_name = properties.name;
  a.total_memory = properties.totalGlobalMem;
  a.compute_capability = properties.major * 10 + properties.minor;
  std::size_t free_bytes = 0, total_bytes = 0;
  if (cudaMemGetInfo(&free_bytes, &total_bytes) != cudaSuccess) {
    a.reason = "cannot open a context on " + a.device_name;
    return a;
  }
  a.free_memory = free_bytes;
  a.usable = true;
  return a;
}

int use_cuda_device_of_local_rank(int local_rank) {
  int devices = 0;
  if (cudaGetDeviceCount(&devices) != cudaSuccess || devices == 0) {
    cudaGetLastError();  // the backend says why when a flock is made
    return -1;
  }
  const int device = local_rank % devices;
  if (cudaSetDevice(device) != cudaSuccess) {
    cudaGetLastError();
    return -1;
  }
  return device;
}

MemoryNeed cuda_memory_need(const SimulationConfig& config, std::uint64_t count) {
  MemoryNeed need;
  need.host = count * sizeof(double) * 4;  // the FlockState it starts from
  if (!cuda_availability().usable) return need;
  need.device = with_flock_types(config, [&](auto real, auto d) {
    return kernel_flock_bytes<decltype(real), d(), CudaExecutor>(config, count);
  });
  return need;
}

std::unique_ptr<Simulation> make_cuda_simulation(const SimulationConfig& config,
                                                 const FlockState& initial) {
  const CudaAvailability cuda = cuda_availability();
  if (!cuda.usable) throw RuntimeError("the cuda backend cannot run here: " + cuda.reason);
  return with_flock_types(config, [&](auto real, auto d) {
    return make_kernel_simulation<decltype(real), d(), CudaExecutor>(config, initial,
                                                                     cuda.device_name);
  });
}

std::unique_ptr<FlockBatch> make_cuda_batch(const std::vector<SimulationConfig>& configs,
                                            const std::vector<FlockState>& initial) {
  const CudaAvailability cuda = cuda_availability();
  if (!cuda.usable) throw RuntimeError("the cuda backend cannot run here: " + cuda.reason);
  if (configs.front().precision == Precision::kFloat)
    return make_kernel_batch<float, CudaExecutor>(configs, initial, cuda.device_name);
  return make_kernel_batch<double, CudaExecutor>(configs, initial, cuda.device_name);
}

}  // namespace boids
