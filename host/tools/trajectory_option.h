// `boids run --trajectory FILE.h5 --trajectory-every K`: the options, their checks, and the
// recording of frames as the run goes (host/io/trajectory_file.h writes them).
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <nlohmann/json.hpp>
#include <string>
#include <utility>
#include <vector>

#include "host/core/simulation.h"
#include "host/io/output_file.h"
#include "host/io/trajectory_file.h"
#include "host/tools/options.h"

namespace boids::tools {

struct TrajectoryOptions {
  std::string file;
  std::uint64_t every = 0;    // 0: not given (frames at the start and the end only)
  int layout_dimensions = 0;  // --trajectory-layout: 0 when not given (3d), 2 or 3
};

// Registers --trajectory, --trajectory-every and --trajectory-layout.
void add_trajectory_options(OptionParser& parser, TrajectoryOptions& options);

// Before anything runs: --trajectory-every and --trajectory-layout need --trajectory, the layout
// must hold the flock (`dimensions`), the file must be writable and differ from the run's other
// outputs. Throws InputError; leaves nothing behind.
void check_trajectory_options(const TrajectoryOptions& options, int dimensions,
                              OutputFiles& outputs);

// A flat JSON object (as `boids run --json` reports the run) as /parameters attributes: numbers,
// strings, and arrays of numbers; nulls are left out.
TrajectoryParameters trajectory_parameters(const nlohmann::ordered_json& run);

// The frames of one run: at step 0, every K steps and at the last step. Does nothing when no
// --trajectory was given. The file is created at the first frame.
class TrajectoryRecording {
 public:
  // How a frame of `sim` reaches `writer`: by default its whole state (sim.state()); a flock
  // spread over MPI ranks compresses each rank's own part (host/config/flock_host.h).
  using FrameWriter =
      std::function<void(TrajectoryWriter& writer, Simulation& sim, std::uint64_t step, double time,
                         const FlockMetrics& metrics)>;

  TrajectoryRecording(const TrajectoryOptions& options, std::uint64_t steps,
                      FrameWriter write_frame = {});

  bool enabled() const { return !file_.empty(); }
  // Whether `step` is a frame; the next frame after `step` (UINT64_MAX when none is left), for
  // the run loop to stop at.
  bool due(std::uint64_t step) const;
  std::uint64_t next_after(std::uint64_t step) const;

  // Creates the file (under a temporary name until the first frame is whole), for `sim`'s
  // flock, with the run's parameters and the program's version.
  void start(const Simulation& sim, TrajectoryParameters parameters, const std::string& version);
  // Writes the frame at `step`, its time step x dt under the steering model, else the step
  // (once: a second call for the same step does nothing).
  void record(std::uint64_t step, Simulation& sim, const FlockMetrics& metrics);
  // Closes the file; throws RuntimeError when that fails.
  void finish();
  // What a run stopped now leaves of it: "the trajectory's 12 frames, to step 1100", or ""
  // when no frame was written (and the file is not there).
  std::string kept() const;

 private:
  std::string file_;
  int layout_dimensions_;
  std::uint64_t every_, steps_;
  double time_per_step_ = 1;
  std::uint64_t last_step_ = 0;
  FrameWriter write_frame_;
  std::unique_ptr<TrajectoryWriter> writer_;
};

}  // namespace boids::tools
