// What a viewer needs of a running flock beyond the Simulation interface: every backend's flock
// offers it; a viewer asks for it with viewer_access(flock).
#pragma once

namespace boids {

class Simulation;

// The pointer as a predator, as in the steering model's lab listing: boids within `radius` of
// (x, y) are pushed away, the more the nearer; `strength` is the push at zero distance in units
// of v_max.
struct PredatorPush {
  double x = 0, y = 0;
  double radius = 0;
  double strength = 1;
};

// What a viewer needs of a running flock beyond its simulation: the boids to draw and the
// pointer as a predator (in 2D). The render data is every boid as 2D floats (x, y, vx, vy; in
// 3D x, y, z, vx, vy, vz), in the backend's own order (not necessarily input order).
class ViewerAccess {
 public:
  virtual void apply_predator(const PredatorPush& predator) = 0;

  // Into host memory: 2 * dimensions * count() floats.
  virtual void copy_render_data(float* out) = 0;

  // Into GPU memory (e.g. a mapped OpenGL buffer), as work on the caller's CUDA stream
  // (`cuda_stream`, a cudaStream_t), ordered after the simulation's pending work and before
  // its next. False where the flock does not live on a GPU (the caller then copies to host).
  virtual bool copy_render_data_to_device(void* device_out, void* cuda_stream) = 0;

 protected:
  ~ViewerAccess() = default;
};

// The viewer's hooks of `flock`. Throws InputError where its flock has none (one spread over
// MPI ranks).
ViewerAccess& viewer_access(Simulation& flock);

}  // namespace boids
