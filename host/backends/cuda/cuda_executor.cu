// The parts of CudaExecutor that are not templates: transfers, timing, and CUB's sort, scan
// and maximum.
#include <cub/device/device_radix_sort.cuh>
#include <cub/device/device_scan.cuh>
#include <cuda/functional>
#include <stdexcept>

#include "host/backends/cuda/cuda_executor.cuh"

namespace boids {
namespace {

using kernels::index_t;

constexpr std::size_t kAlignment = 256;  // what CUB asks of temporary storage

std::size_t aligned(std::size_t bytes) {
  return (bytes + kAlignment - 1) / kAlignment * kAlignment;
}

// The part of `lent` past its first `used` bytes.
kernels::Scratch rest_of(kernels::Scratch lent, std::size_t used) {
  used = aligned(used);
  if (used >= lent.bytes) return {nullptr, 0};
  return {static_cast<unsigned char*>(lent.data) + used, lent.bytes - used};
}

std::size_t sort_bytes(index_t count, int bits) {
  cub::DoubleBuffer<index_t> keys(nullptr, nullptr), values(nullptr, nullptr);
  std::size_t bytes = 0;
  BOIDS_CUDA_CHECK(
      cub::DeviceRadixSort::SortPairs(nullptr, bytes, keys, values, count, 0, bits > 0 ? bits : 1));
  return bytes;
}

std::size_t scan_bytes(index_t count) {
  std::size_t bytes = 0;
  BOIDS_CUDA_CHECK(cub::DeviceScan::InclusiveScan(nullptr, bytes, static_cast<index_t*>(nullptr),
                                                  cuda::maximum<index_t>{}, count));
  return bytes;
}

std::size_t reduce_bytes(index_t count) {
  std::size_t bytes = 0;
  BOIDS_CUDA_CHECK(cub::DeviceReduce::Sum(nullptr, bytes, static_cast<const double*>(nullptr),
                                          static_cast<double*>(nullptr), count));
  return bytes;
}

}  // namespace

CudaExecutor::CudaExecutor(std::string device_name)
    : device_(std::move(device_name)), handoff_(cudaEventDisableTiming), result_(1) {}

int CudaExecutor::device_ordinal() const {
  int device = 0;
  BOIDS_CUDA_CHECK(cudaGetDevice(&device));
  return device;
}

std::uint64_t CudaExecutor::available_memory() const {
  std::size_t free_bytes = 0, total_bytes = 0;
  BOIDS_CUDA_CHECK(cudaMemGetInfo(&free_bytes, &total_bytes));
  return free_bytes;
}

std::uint64_t CudaExecutor::scratch_needed(index_t count, index_t cells, std::uint64_t lent) {
  const std::uint64_t alternates = aligned(2ull * count * sizeof(index_t));
  const std::uint64_t rest = lent > alternates ? lent - alternates : 0;
  const std::uint64_t sort = sort_bytes(count, kernels::key_bits(cells));
  const std::uint64_t scan = scan_bytes(cells + 1);
  std::uint64_t own = reduce_bytes(count);
  if (sort > rest) own = std::max(own, sort);
  if (scan > rest) own = std::max(own, scan);
  return own + sizeof(double);
}

void CudaExecutor::copy(void* to, const void* from, std::size_t bytes, cudaMemcpyKind kind) const {
  if (bytes == 0) return;
  // On the executor's stream: the legacy default stream would not wait for its work.
  BOIDS_CUDA_CHECK(cudaMemcpyAsync(to, from, bytes, kind, stream_.get()));
  BOIDS_CUDA_CHECK(cudaStreamSynchronize(stream_.get()));
}

void CudaExecutor::synchronize() const {
  BOIDS_CUDA_CHECK(cudaStreamSynchronize(stream_.get()));
}

void CudaExecutor::mark() {
  BOIDS_CUDA_CHECK(cudaEventRecord(start_.get(), stream_.get()));
}

double CudaExecutor::seconds_since_mark() {
  BOIDS_CUDA_CHECK(cudaEventRecord(stop_.get(), stream_.get()));
  BOIDS_CUDA_CHECK(cudaEventSynchronize(stop_.get()));
  float milliseconds = 0;
  BOIDS_CUDA_CHECK(cudaEventElapsedTime(&milliseconds, start_.get(), stop_.get()));
  return milliseconds * 1e-3;
}

void CudaExecutor::hand_over(cudaStream_t earlier, cudaStream_t later) {
  BOIDS_CUDA_CHECK(cudaEventRecord(handoff_.get(), earlier));
  BOIDS_CUDA_CHECK(cudaStreamWaitEvent(later, handoff_.get(), 0));
}

void* CudaExecutor::temp(std::size_t bytes, kernels::Scratch lent) {
  if (bytes <= lent.bytes) return lent.data;
  if (bytes > temp_.bytes()) {
    synchronize();  // the old buffer may still be in use by queued work
    temp_ = CudaBuffer<unsigned char>();
    temp_ = CudaBuffer<unsigned char>(bytes);
  }
  return temp_.data();
}

void CudaExecutor::sort_cells(index_t* keys, index_t* order, index_t* cell_start, index_t count,
                              index_t cells, kernels::Scratch lent) {
  const auto timer = stage_timer(kernels::stage::kSort);
  const NvtxRange range(kernels::stage::kSort);
  const std::size_t alternates = 2ull * count * sizeof(index_t);
  if (alternates > lent.bytes) throw std::logic_error("sort_cells: less scratch than two arrays");
  auto* alternate = static_cast<index_t*>(lent.data);
  const kernels::Scratch rest = rest_of(lent, alternates);
  cub::DoubleBuffer<index_t> key_buffer(keys, alternate);
  cub::DoubleBuffer<index_t> order_buffer(order, alternate + count);
  const int bits = kernels::key_bits(cells);
  const int end_bit = bits > 0 ? bits : 1;
  std::size_t bytes = 0;
  BOIDS_CUDA_CHECK(cub::DeviceRadixSort::SortPairs(nullptr, bytes, key_buffer, order_buffer, count,
                                                   0, end_bit, stream_.get()));
  BOIDS_CUDA_CHECK(cub::DeviceRadixSort::SortPairs(temp(bytes, rest), bytes, key_buffer,
                                                   order_buffer, count, 0, end_bit, stream_.get()));
  if (order_buffer.Current() != order) {
    BOIDS_CUDA_CHECK(cudaMemcpyAsync(order, order_buffer.Current(), count * sizeof(index_t),
                                     cudaMemcpyDeviceToDevice, stream_.get()));
  }
  kernels::find_cell_starts(*this, key_buffer.Current(), cell_start, count, cells, rest);
}

void CudaExecutor::inclusive_max_scan(index_t* values, index_t count, kernels::Scratch lent) {
  const auto timer = stage_timer(kernels::stage::kCellStarts);
  const NvtxRange range(kernels::stage::kCellStarts);
  std::size_t bytes = 0;
  BOIDS_CUDA_CHECK(cub::DeviceScan::InclusiveScan(nullptr, bytes, values, cuda::maximum<index_t>{},
                                                  count, stream_.get()));
  BOIDS_CUDA_CHECK(cub::DeviceScan::InclusiveScan(temp(bytes, lent), bytes, values,
                                                  cuda::maximum<index_t>{}, count, stream_.get()));
}

index_t CudaExecutor::maximum(const index_t* values, index_t count) {
  auto* out = reinterpret_cast<index_t*>(result_.data());
  std::size_t bytes = 0;
  BOIDS_CUDA_CHECK(cub::DeviceReduce::Max(nullptr, bytes, values, out, count, stream_.get()));
  BOIDS_CUDA_CHECK(
      cub::DeviceReduce::Max(temp(bytes, {}), bytes, values, out, count, stream_.get()));
  index_t result = 0;
  download(&result, out, 1);
  return result;
}

double* CudaExecutor::segment_results(index_t segments) {
  if (segment_results_.size() < segments) {
    synchronize();  // the old buffer may still be in use by queued work
    segment_results_ = CudaBuffer<double>();
    segment_results_ = CudaBuffer<double>(segments);
  }
  return segment_results_.data();
}

void CudaExecutor::segmented_maximum(const index_t* values, const index_t* starts, index_t segments,
                                     index_t* out) {
  if (segments == 0) return;
  auto* results = reinterpret_cast<index_t*>(segment_results(segments));
  std::size_t bytes = 0;
  BOIDS_CUDA_CHECK(cub::DeviceSegmentedReduce::Max(nullptr, bytes, values, results, segments,
                                                   starts, starts + 1, stream_.get()));
  BOIDS_CUDA_CHECK(cub::DeviceSegmentedReduce::Max(temp(bytes, {}), bytes, values, results,
                                                   segments, starts, starts + 1, stream_.get()));
  download(out, results, segments);
}

}  // namespace boids
