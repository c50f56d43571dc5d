// The flock behind boids.Flock: a Simulation made from keyword options (or a NumPy state), and
// the Python-facing operations on it. Steps and copies run without the GIL, one at a time: a
// mutex keeps two Python threads from working on the same flock at once.
#pragma once

#include <cstdint>
#include <memory>
#include <mutex>

#include "host/core/simulation.h"
#include "python/convert.h"
#include "python/recording.h"
#include "python/serving.h"

namespace boids::python {

class PythonFlock {
 public:
  // A flock from keyword options; from `state` (an (N, 4) array) when it is not None.
  PythonFlock(const py::dict& keywords, const py::object& state);

  // Steps n times without the GIL: n a whole number (TypeError otherwise), >= 0, that keeps the
  // flight within kMaxSteps (ValueError otherwise). Signals (Ctrl-C) are checked between
  // stretches of the run; an interrupted call leaves the flock at the steps it completed.
  void step(const py::object& n);

  py::array_t<double> state();
  py::array_t<double> predators();
  void set_state(const py::object& array);
  py::dict metrics();
  py::dict params() const;
  void set_params(const py::dict& changes);

  // (boids pointer, ids pointer or 0, count, "float"/"double", stream, device ordinal) of a
  // flock on a GPU; RuntimeError for one in host memory.
  py::tuple device_state();

  std::uint64_t count() const { return sim_->count(); }
  std::uint64_t seed() const { return sim_->config().seed; }
  std::uint64_t steps_taken() const;
  std::string backend() const { return to_string(sim_->config().backend); }
  std::string method() const { return to_string(sim_->config().method); }
  std::string precision() const { return to_string(sim_->config().precision); }
  std::string device() const { return sim_->device(); }
  std::uint64_t bytes_allocated() const { return sim_->bytes_allocated(); }

  // Serves the flock to browsers at `request`'s address (python/serving.h), instead of where it
  // was served before; returns the address a browser opens.
  std::string serve(const ServeRequest& request);
  void stop_serving();
  py::object serving() const;  // the address, or None

  // The flock now as `boids run --checkpoint` writes it, whole or not at all.
  void checkpoint(const std::string& path);
  // A trajectory of the flight up to step `last` (python/recording.h); `layout` 2 or 3.
  void open_trajectory(const std::string& path, std::uint64_t every, std::uint64_t last,
                       int layout);
  // The frame of this step, when it is one (or `always`): its metrics, else None.
  py::object record_frame(bool always);
  void close_trajectory();
  // What made the flight: boids' version and commit, the flock and its parameters.
  py::dict flight() const;

 private:
  // set_params' options given before that need what the change turns off, dropped.
  void drop_unneeded(GivenOptions& given, const GivenOptions& changes) const;

  // After the simulation is made: the files among the options are read, and their contents
  // stand in for them.
  void settle_given();

  // The simulation's configuration, read under the lock (set_params changes it).
  SimulationConfig config() const;

  // `n` of step(n) as a count of steps, or refused.
  std::uint64_t steps_of(const py::object& n) const;

  // An (N, 4) array as a start for `config`, checked as a state file is.
  static FlockState checked_state(const py::object& array, const SimulationConfig& config);

  // Under the lock, the flock changed (a step's stretch, a change) or only read: the pages see
  // it, or get the frame they wait for.
  void tell_server_changed();
  void tell_server_still() const;

  GivenOptions given_;
  std::unique_ptr<Simulation> sim_;
  mutable std::mutex mutex_;
  std::unique_ptr<FlockServer> server_;        // under mutex_; goes before the flock it shows
  std::unique_ptr<FlockRecording> recording_;  // under mutex_: Flock.run's trajectory
};

}  // namespace boids::python
