// What boids.Flock writes as the command line writes it: a checkpoint (`boids run
// --checkpoint`, which `boids run --resume` continues) and a trajectory recorded as the flock
// flies (`--trajectory`, the same H5MD file), with the flight's record of what made them.
#pragma once

#include <cstdint>
#include <memory>
#include <string>

#include <nlohmann/json.hpp>

#include "host/core/simulation.h"
#include "host/metrics/metrics.h"
#include "host/tools/trajectory_option.h"

namespace boids::python {

// The flight as `boids run --json` reports it before its results and a trajectory's
// /parameters record it: boids' version and commit, the flock (count, seed, backend, method,
// precision, device) and every parameter of its model.
nlohmann::ordered_json flight_record(const Simulation& sim);

// A trajectory of one Flock.run: a frame at its start, at multiples of `every` steps of the
// flight (0: none between) and at its last step, `last`.
class FlockRecording {
 public:
  // Checks the file as --trajectory's is checked (ValueError naming `path`) and creates it.
  FlockRecording(const std::string& path, std::uint64_t every, std::uint64_t last, int layout,
                 const Simulation& sim);
  // Records the frame of the flock's step when it is one (or `always`, the run's first); the
  // metrics it measured for it, or none when it recorded nothing.
  bool record(Simulation& sim, bool always, FlockMetrics& measured);
  // The file whole, its frames committed.
  void finish() { recording_.finish(); }

 private:
  tools::TrajectoryRecording recording_;
};

}  // namespace boids::python
