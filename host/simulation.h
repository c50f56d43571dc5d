// A running flock on one backend. Every backend takes the same initial FlockState, steps it
// with the same rules and reports state and metrics in input order.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>

#include "host/flock.h"
#include "host/metrics.h"

namespace boids {

enum class Backend { kReference, kCpu, kCuda };
enum class Method { kNaive, kHashed };
enum class Precision { kFloat, kDouble };

std::string to_string(Backend backend);
std::string to_string(Method method);
std::string to_string(Precision precision);
std::optional<Backend> parse_backend(const std::string& name);  // not "auto"
std::optional<Method> parse_method(const std::string& name);
std::optional<Precision> parse_precision(const std::string& name);

struct SimulationConfig {
  Backend backend = Backend::kCpu;
  Method method = Method::kHashed;
  Precision precision = Precision::kFloat;
  FlockParams params;
};

class Simulation {
 public:
  virtual ~Simulation() = default;

  // Advances the flock; returns once the steps are done (a GPU backend synchronises).
  virtual void step(std::uint64_t steps) = 0;

  // The current state, in input order and double precision.
  virtual FlockState state() const = 0;

  // The seed's metrics, computed where the flock lives.
  virtual FlockMetrics metrics() const = 0;

  // Where it runs, for people: "CPU reference", "CPU, 2 OpenMP threads", a GPU's name.
  virtual std::string device() const = 0;

  // Memory the backend holds for the flock, in bytes.
  virtual std::uint64_t bytes_allocated() const = 0;

  // Steps and returns the seconds the steps took on the device: CUDA events on a GPU, a
  // steady clock on CPUs. For benchmarks.
  virtual double timed_step(std::uint64_t steps);

  // Changes the weights, radius and maximum speed in place; the world's side must stay.
  virtual void set_params(const FlockParams& params) = 0;

  // For viewers: pushes boids within `radius` of (x, y) away from it, the pointer acting as a
  // predator (seed 002); `strength` is the push at zero distance in units of v_max.
  virtual void apply_predator(double x, double y, double radius, double strength) = 0;

  // For viewers: x, y, vx, vy of every boid as 4 floats, in the backend's own order (not
  // necessarily input order), into `out` (4 * count() floats of host memory).
  virtual void copy_render_data(float* out) const;

  // The same into GPU memory, e.g. a mapped OpenGL buffer; false where the flock does not
  // live on a GPU (the caller then uses copy_render_data).
  virtual bool copy_render_data_to_device(void* /*device_out*/) const { return false; }

  const SimulationConfig& config() const { return config_; }
  std::uint64_t count() const { return count_; }

 protected:
  Simulation(const SimulationConfig& config, std::uint64_t count)
      : config_(config), count_(count) {}

  // Records new parameters after checking that the world is unchanged; for set_params.
  void change_params(const FlockParams& params);

 private:
  SimulationConfig config_;
  std::uint64_t count_;
};

// Creates a simulation of `initial` on the configured backend. Throws InputError for a
// combination the backend does not offer (the reference is naive double only) and
// RuntimeError when the backend cannot run here (no CUDA device, not enough memory).
std::unique_ptr<Simulation> make_simulation(const SimulationConfig& config,
                                            const FlockState& initial);

// The backends, each in its own file under host/backends/.
std::unique_ptr<Simulation> make_reference_simulation(const SimulationConfig& config,
                                                      const FlockState& initial);
std::unique_ptr<Simulation> make_cpu_simulation(const SimulationConfig& config,
                                                const FlockState& initial);
std::unique_ptr<Simulation> make_cuda_simulation(const SimulationConfig& config,
                                                 const FlockState& initial);

// Whether the cuda backend can run here, and if not, why.
struct CudaAvailability {
  bool compiled = false;
  bool usable = false;
  std::string reason;       // why not usable, when it is not
  std::string device_name;  // the device that would be used
  std::uint64_t total_memory = 0;
  std::uint64_t free_memory = 0;
  int compute_capability = 0;  // major * 10 + minor
};
CudaAvailability cuda_availability();

// "auto": the cuda backend when a device is usable, else the cpu backend.
Backend resolve_auto_backend();

}  // namespace boids
