// A running flock on one backend. Every backend takes the same initial FlockState, steps it
// with the same rules and reports state and metrics in input order.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "host/model/flock.h"
#include "host/metrics/metrics.h"

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
  std::uint64_t seed = 42;  // keys the noise: draws depend on (seed, step, boid)
  // Where the flock is part of a larger one (a rank's boids and ghosts under MPI): the whole
  // flock's count, for which the cell grid is made (0: this flock's own count).
  std::uint64_t whole_count = 0;
};

// Four arrays of doubles, boid i's values at x[i * stride], y[i * stride], vx[...], vy[...];
// six in three dimensions, with z and vz (null in two).
struct StateView {
  double* x = nullptr;
  double* y = nullptr;
  double* vx = nullptr;
  double* vy = nullptr;
  std::size_t stride = 1;
  double* z = nullptr;
  double* vz = nullptr;

  static StateView of(FlockState& state) {
    StateView view{state.x.data(), state.y.data(), state.vx.data(), state.vy.data(), 1};
    if (state.dimensions == 3) {
      view.z = state.z.data();
      view.vz = state.vz.data();
    }
    return view;
  }
  // Rows of four, x, y, vx, vy (a C-ordered (N, 4) array); in three dimensions rows of six,
  // x, y, z, vx, vy, vz ((N, 6)).
  static StateView rows(double* data, int dimensions = 2) {
    if (dimensions == 3) return {data, data + 1, data + 3, data + 4, 6, data + 2, data + 5};
    return {data, data + 1, data + 2, data + 3, 4};
  }
};

// A flock in GPU memory, valid until its next step or change: `count` boids of four values
// (x, y, vx, vy) of `precision` each, in the backend's order; slot k holds boid ids[k] (`ids`
// null when the backend keeps input order). Work on it must follow `stream` (a cudaStream_t).
struct DeviceState {
  const void* boids = nullptr;
  const std::uint32_t* ids = nullptr;
  std::uint64_t count = 0;
  Precision precision = Precision::kFloat;
  void* stream = nullptr;
  int device = 0;  // the CUDA device ordinal
};

// The pointer as a predator (seed 002): boids within `radius` of (x, y) are pushed away, the
// more the nearer; `strength` is the push at zero distance in units of v_max.
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

// A boid of a part of a larger flock, with its index in the whole flock (its input index,
// which keys its noise): what ranks send one another under MPI. z and vz are 0 in 2D.
struct IndexedBoid {
  std::uint64_t id;
  double x, y, z, vx, vy, vz;
};

// Where a part's own boids belong: along `axis` (0 = x, 1 = y, 2 = z), in [low, high) (a
// rank's slab). An own boid within `reach` of either end, or outside them, is at the edge.
struct PartBounds {
  int axis = 0;
  double low = 0, high = 0, reach = 0;
};

// A part's share of the whole flock's metrics (PartAccess::measure_part): what it can tell
// alone, for host/parts/joined_metrics.h to add up over the parts and join. Sums are over the own
// boids; a flock (a component of the graph of pairs closer than r) is named by a label, the
// index in the whole flock of one of its boids.
struct PartMetrics {
  std::uint64_t own = 0;
  double headings[3] = {}, velocities[3] = {};  // unit headings, velocities
  double neighbours = 0;                        // other boids closer than r
  double nearest = 0;  // distances to the nearest other boid, where it is surely in the part
  // The own boids whose nearest boid may lie in another part, each with the nearest distance
  // found here (-1: none).
  std::vector<IndexedBoid> far;
  std::vector<double> far_nearest;
  // The part's flocks among its boids and ghosts that hold no ghost and no boid at the edge:
  // whole flocks of the whole flock, and the boids in the largest.
  std::uint64_t inner_flocks = 0, largest_inner = 0;
  // The others: pieces of flocks that other parts may join.
  struct Piece {
    std::uint64_t label, own;  // own: the piece's own boids
  };
  struct Member {
    std::uint64_t id, label;  // a boid's index in the whole flock, and its piece's label
  };
  std::vector<Piece> pieces;
  std::vector<Member> ghosts;  // every ghost
  std::vector<Member> edge;    // every own boid within the ghosts' reach of a face, by id
};

// A part of a larger flock that stays in a backend between steps (a rank's share under MPI,
// host/mpi/rank_flock.h): its own boids, and ghosts, copies of other parts' boids near its own
// that it steps with them, read-only, and drops. A boid is known by its index in the whole
// flock (below 2^32), which keys its noise, so a part flies its boids as the whole flock does.
// Only the boids that change hands or serve as ghosts pass through the host's records; the
// rest keep their place in the backend's arrays and order.
class PartAccess {
 public:
  // Replaces the flock by `own` (ascending by id), `steps_taken` steps into its flight.
  virtual void start_part(const std::vector<IndexedBoid>& own, std::uint64_t steps_taken) = 0;

  // Drops the ghosts, appends to `edge` every own boid at the edge of `bounds` (or outside
  // them), and removes from the part those outside them.
  virtual void split_part(const PartBounds& bounds, std::vector<IndexedBoid>& edge) = 0;

  // Adds `arrived` to the own boids and `ghosts` as ghosts, each ascending by id.
  virtual void extend_part(const std::vector<IndexedBoid>& arrived,
                           const std::vector<IndexedBoid>& ghosts) = 0;

  // The own boids, into `out` (replaced), in the backend's order.
  virtual void own_boids(std::vector<IndexedBoid>& out) const = 0;

  // The part's share of the whole flock's metrics, its ghosts those of an extend since the
  // last step (fresh), its own boids in `bounds` (whose reach is the ghosts').
  virtual PartMetrics measure_part(const PartBounds& bounds) = 0;

 protected:
  ~PartAccess() = default;
};

class Simulation {
 public:
  virtual ~Simulation() = default;

  // Advances the flock; returns once the steps are done (a GPU backend synchronises).
  virtual void step(std::uint64_t steps) = 0;

  // The current state, in input order and double precision.
  FlockState state() const;

  // The same into the caller's memory: boid i's values at x[i * stride], y[i * stride], ...
  // (stride 1 for separate arrays, 4 for rows x, y, vx, vy). One pass over the flock, for
  // callers that keep their own arrays (the Python module's NumPy state).
  virtual void state_into(const StateView& out) const = 0;

  // Where the flock lives on a GPU, for callers that read it there without a copy (CuPy and
  // PyTorch through the Python module). Empty (`boids` null) for a flock in host memory.
  virtual DeviceState device_state() { return {}; }

  // The seed's metrics, computed where the flock lives (with the flock's own scratch).
  virtual FlockMetrics metrics() = 0;

  // Where it runs, for people: "CPU reference", "CPU, 2 OpenMP threads", a GPU's name.
  virtual std::string device() const = 0;

  // Memory the backend holds for the flock, in bytes (on the GPU for the cuda backend).
  virtual std::uint64_t bytes_allocated() const = 0;

  // Steps and returns the seconds the steps took on the device (CUDA events around the
  // steps' work on a GPU, a steady clock on CPUs), not counting the wait for them. For
  // benchmarks.
  virtual double timed_step(std::uint64_t steps);

  // Changes the weights, radius and maximum speed in place; the world's side must stay.
  virtual void set_params(const FlockParams& params) = 0;

  // Steps taken since the flight began (a resumed flight counts the checkpoint's too); the
  // noise of a step is keyed by it.
  virtual std::uint64_t steps_taken() const = 0;

  // The order the backend keeps its boids in: slot k holds boid order[k] (its input index).
  // The hashed method keeps them in cell order between steps, and its sums add in that
  // order, so a checkpoint records it.
  virtual std::vector<std::uint64_t> backend_order() const = 0;

  // Continues a checkpoint's flight: `state` in input order, the backend's `order` and the
  // steps taken. The steps that follow are those the checkpointed run would have taken.
  virtual void resume(const FlockState& state, const std::vector<std::uint64_t>& order,
                      std::uint64_t steps_taken) = 0;

  // The viewer's hooks into this flock.
  virtual ViewerAccess& viewer_access() = 0;

  // This flock as a part of a larger one (a rank's share under MPI). The kernels' backends
  // offer it; the reference throws InputError.
  virtual PartAccess& part_access();

  const SimulationConfig& config() const { return config_; }
  std::uint64_t count() const { return count_; }

 protected:
  Simulation(const SimulationConfig& config, std::uint64_t count)
      : config_(config), count_(count) {}

  // For a part: the flock now holds `count` boids.
  void set_count(std::uint64_t count) { count_ = count; }

  // Records new parameters after checking that the world is unchanged; for set_params.
  void change_params(const FlockParams& params);

  // For resume: throws InputError unless `state` holds count() boids and `order` is a
  // permutation of them (the identity, for a backend that keeps input order).
  void check_resumable(const FlockState& state, const std::vector<std::uint64_t>& order,
                       bool keeps_input_order) const;

 private:
  SimulationConfig config_;
  std::uint64_t count_;
};

// 0, 1, ..., count - 1: the order of a backend that keeps input order.
std::vector<std::uint64_t> input_order(std::uint64_t count);

// Whether `order` holds each of 0, ..., order.size() - 1 once.
bool is_permutation(const std::vector<std::uint64_t>& order);

// Creates a simulation of `initial` on the configured backend. Throws InputError for a
// combination the backend does not offer (the reference is naive double only) and
// RuntimeError when the backend cannot run here (no CUDA device, not enough memory).
std::unique_ptr<Simulation> make_simulation(const SimulationConfig& config,
                                            const FlockState& initial);

// Throws InputError unless `initial` and `config` agree on the flock's dimensions (2 or 3),
// and its backend flies them.
void check_dimensions(const SimulationConfig& config, const FlockState& initial);

// Throws RuntimeError, before anything is allocated, when a flock of `count` boids under
// `config` does not fit in this machine's memory (and the GPU's, for the cuda backend).
void check_memory(const SimulationConfig& config, std::uint64_t count);

// The backends, each in its own file under host/backends/.
std::unique_ptr<Simulation> make_reference_simulation(const SimulationConfig& config,
                                                      const FlockState& initial);
std::unique_ptr<Simulation> make_cpu_simulation(const SimulationConfig& config,
                                                const FlockState& initial);
std::unique_ptr<Simulation> make_cuda_simulation(const SimulationConfig& config,
                                                 const FlockState& initial);

// Bytes a backend needs for a flock of `count` boids: on the host (including the caller's
// FlockState of the start), and on the GPU (cuda backend).
struct MemoryNeed {
  std::uint64_t host = 0;
  std::uint64_t device = 0;
};
MemoryNeed cpu_memory_need(const SimulationConfig& config, std::uint64_t count);
MemoryNeed cuda_memory_need(const SimulationConfig& config, std::uint64_t count);

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
