#include <cub/device/device_reduce.cuh>

#include "host/backends/cuda_buffer.h"
#include "host/backends/cuda_reduce.h"

namespace boids {
namespace {

// Runs a CUB reduction twice, as CUB asks: once to size its scratch, once to reduce.
template <typename T, typename Reduce>
T reduce(const T* values, kernels::index_t count, cudaStream_t stream, Reduce&& run) {
  CudaBuffer<T> result(1);
  std::size_t bytes = 0;
  BOIDS_CUDA_CHECK(run(nullptr, bytes, values, result.data(), count, stream));
  CudaBuffer<unsigned char> scratch(bytes);
  BOIDS_CUDA_CHECK(run(scratch.data(), bytes, values, result.data(), count, stream));
  T host = T();
  BOIDS_CUDA_CHECK(
      cudaMemcpyAsync(&host, result.data(), sizeof(T), cudaMemcpyDeviceToHost, stream));
  BOIDS_CUDA_CHECK(cudaStreamSynchronize(stream));
  return host;
}

}  // namespace

double cuda_sum(const double* values, kernels::index_t count, cudaStream_t stream) {
  return reduce(
      values, count, stream,
      [](void* scratch, std::size_t& bytes, const double* in, double* out, kernels::index_t n,
         cudaStream_t s) { return cub::DeviceReduce::Sum(scratch, bytes, in, out, n, s); });
}

kernels::index_t cuda_maximum(const kernels::index_t* values, kernels::index_t count,
                              cudaStream_t stream) {
  return reduce(values, count, stream,
                [](void* scratch, std::size_t& bytes, const kernels::index_t* in,
                   kernels::index_t* out, kernels::index_t n, cudaStream_t s) {
                  return cub::DeviceReduce::Max(scratch, bytes, in, out, n, s);
                });
}

}  // namespace boids
