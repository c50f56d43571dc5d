// A flock's state between the host's FlockState (double, input order) and an executor's packed
// boids (kernels/rules.h), in the executor's memory: a stretch of boids at a time, so that a
// device flock passes through a bounded host buffer; on host memory in place, on the
// executor's threads.
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <vector>

#include "host/backends/flock_layout.h"
#include "kernels/quantise.h"

namespace boids {

// Boids per stretch through the host, for a flock in device memory.
constexpr std::size_t kTransferBoids = std::size_t{1} << 22;

// The state's `count` boids, packed into `to` in the executor's memory in input order.
template <typename Executor, typename Real, int D>
void upload_flock(Executor& exec, const FlockState& state, const World& world,
                  kernels::Boid<Real, D>* to, std::size_t count) {
  const std::size_t stretch = std::min<std::size_t>(count, kTransferBoids);
  std::vector<kernels::Boid<Real, D>> packed(Executor::kHostMemory ? 0 : stretch);
  for (std::size_t first = 0; first < count; first += stretch) {
    const std::size_t n = std::min(stretch, count - first);
    if constexpr (Executor::kHostMemory) {
      pack_boids(state, first, n, world, to + first);
    } else {
      pack_boids(state, first, n, world, packed.data());
      exec.upload(to + first, packed.data(), n);
    }
  }
}

// On host memory, the executor's threads write the output in input order, each boid read
// from its slot: sequential writes, and reads that miss the cache (the hashed method keeps
// its boids in cell order) but are prefetched ahead of their use. Writing each slot's boid
// to its input index instead misses on every write: 5.5 times a copy of the state at a
// million boids, against 1.6 (float) and 2.6 (double) this way (bench/python_overhead.py).
constexpr kernels::index_t kReadAhead = 48;  // boids read ahead, each a likely cache miss

// The `count` boids of `boids`, in the executor's memory, into `out` in input order: slot k
// holds boid ids[k], or boid k where `ids` is null.
template <typename Executor, typename Real, int D>
void download_flock(const Executor& exec, const kernels::Boid<Real, D>* boids,
                    const kernels::index_t* ids, std::size_t count, const StateView& out) {
  using kernels::index_t;
  const auto n = static_cast<index_t>(count);
  if constexpr (Executor::kHostMemory) {
    if (!ids) {
      exec.for_each(n, [boids, out](index_t i) { store_boid(boids[i], i, out); });
      return;
    }
    const std::unique_ptr<index_t[]> slot_of(new index_t[count]);  // ids inverted
    index_t* slots = slot_of.get();
    exec.for_each(n, [slots, ids](index_t k) { slots[ids[k]] = k; });
    exec.for_each(n, [boids, slots, n, out](index_t i) {
      if (i + kReadAhead < n) __builtin_prefetch(boids + slots[i + kReadAhead]);
      store_boid(boids[slots[i]], i, out);
    });
  } else {
    const std::size_t stretch = std::min<std::size_t>(count, kTransferBoids);
    std::vector<kernels::Boid<Real, D>> host_boids(stretch);
    std::vector<index_t> host_ids(ids ? stretch : 0);
    for (std::size_t first = 0; first < count; first += stretch) {
      const std::size_t m = std::min(stretch, count - first);
      exec.download(host_boids.data(), boids + first, m);
      if (ids) exec.download(host_ids.data(), ids + first, m);
      unpack_boids(host_boids.data(), ids ? host_ids.data() : nullptr, first, m, out);
    }
  }
}

// The `count` boids quantised (kernels/quantise.h) into `out` in input order, as
// download_flock places them, positions in 65536 steps across the world's sides. On a device
// they are quantised where the flock lives, in `staging` (sized here), so that 5 to 12 bytes
// a boid cross to the host, not its state.
template <typename Executor, typename Real, int D>
void quantise_flock(const Executor& exec, const kernels::Boid<Real, D>* boids,
                    const kernels::index_t* ids, std::size_t count, const World& w,
                    const QuantisedView& out,
                    typename Executor::template Buffer<std::uint8_t>& staging) {
  kernels::ToQuantised<Real, D> quantise{
      boids, ids, out, {65536.0 / w.width, 65536.0 / w.height, D == 3 ? 65536.0 / w.depth : 0.0}};
  const auto n = static_cast<kernels::index_t>(count);
  if constexpr (Executor::kHostMemory) {
    exec.for_each(n, quantise);
  } else {
    const std::size_t bytes = count * (sizeof(float) + 2 * D + (D - 1));
    if (staging.size() != bytes) staging = typename Executor::template Buffer<std::uint8_t>(bytes);
    std::uint8_t* at = staging.data();
    float* speed = reinterpret_cast<float*>(at);
    at += count * sizeof(float);
    std::uint16_t* position[3] = {nullptr, nullptr, nullptr};
    for (int a = 0; a < D; ++a, at += 2 * count) {
      position[a] = reinterpret_cast<std::uint16_t*>(at);
    }
    std::uint8_t* heading[2] = {at, D == 3 ? at + count : nullptr};
    quantise.out = {{position[0], position[1], position[2]},
                    {heading[0], heading[1]},
                    out.speed ? speed : nullptr};
    exec.for_each(n, quantise);
    for (int a = 0; a < D; ++a) exec.download(out.position[a], position[a], count);
    for (int h = 0; h < D - 1; ++h) exec.download(out.heading[h], heading[h], count);
    if (out.speed) exec.download(out.speed, speed, count);
  }
}

}  // namespace boids
