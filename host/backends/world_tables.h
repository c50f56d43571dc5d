// The tables a step reads besides the boids, in an executor's memory: the obstacles and the
// path's points. Uploading a flight's points the step's constants at them.
#pragma once

#include <cstdint>
#include <vector>

#include "host/backends/flock_layout.h"

namespace boids {

template <typename Real, typename Executor>
class WorldTables {
 public:
  // Uploads the obstacles and the path of `f` and sets `p`'s pointers and counts to them.
  void upload(Executor& exec, const FlockParams& f, kernels::StepParams<Real>& p) {
    upload_into(exec, obstacles_, obstacles_of<Real>(f));
    upload_into(exec, path_, path_points_of<Real>(f));
    p.obstacles = obstacles_.data();
    p.obstacle_count = static_cast<kernels::index_t>(obstacles_.size());
    p.path = path_.data();
    p.path_count = static_cast<kernels::index_t>(path_.size());
  }

  std::uint64_t bytes() const { return obstacles_.bytes() + path_.bytes(); }

 private:
  template <typename T>
  using Buffer = typename Executor::template Buffer<T>;

  template <typename T>
  static void upload_into(Executor& exec, Buffer<T>& buffer, const std::vector<T>& values) {
    if (values.size() != buffer.size()) {
      exec.synchronize();  // the old array may still be in use
      buffer = Buffer<T>(values.size());
    }
    exec.upload(buffer.data(), values.data(), values.size());
  }

  Buffer<kernels::Obstacle<Real>> obstacles_;
  Buffer<kernels::PathPoint<Real>> path_;
};

}  // namespace boids
