// Where `boids run`'s flock lives: in this process, or spread over the ranks of an MPI run
// (host/mpi/ranks_host.cpp, docs/mpi.md). The command line asks its host for the flock and for
// the outputs that hold its whole state, and never asks which host it has: the build links one
// (host/CMakeLists.txt), this process's where boids is built without MPI.
//
// FlockHost's own methods are this process's: the flock in memory here, its outputs written
// from its state. Under mpirun the ranks draw or read their own boids and write their own rows
// of each output, so that no rank holds the whole flock.
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>

#include "host/config/flock_options.h"
#include "host/core/simulation.h"
#include "host/io/checkpoint.h"
#include "host/io/output_file.h"
#include "host/io/trajectory_file.h"

namespace boids {

// A checkpoint to continue: its flight (`head`) and, in one process, its boids (`whole`). Under
// mpirun, whose ranks read their own boids, rank 0 checks the file whole but for its boids and
// holds none of them.
struct ResumedFlight {
  CheckpointHead head;
  std::optional<Checkpoint> whole;
};

class FlockHost {
 public:
  virtual ~FlockHost() = default;

  // The boids of a flock of `count` this process holds (a rank's share).
  virtual std::uint64_t held_share(std::uint64_t count) const;

  // The flock from `initial`; from its random start; from the state file of flock.init_file.
  virtual std::unique_ptr<Simulation> make(const SimulationConfig& config,
                                           const FlockState& initial);
  virtual std::unique_ptr<Simulation> drawn(const SimulationConfig& config,
                                            const FlockOptions& flock);
  virtual std::unique_ptr<Simulation> read(const SimulationConfig& config,
                                           const FlockOptions& flock);

  // The checkpoint `path`'s flight, read and checked (InputError as read_checkpoint words it),
  // and continued (its boids let go once the flock holds them; what is refused names the file).
  virtual ResumedFlight read_resumed(const std::string& path);
  virtual std::unique_ptr<Simulation> resumed(ResumedFlight& flight, const std::string& path);

  // The outputs --save (`path`, its predators beside it) and --checkpoint of `files`, written
  // whole into their temporary files.
  virtual void write_save(Simulation& sim, OutputFiles& files, const std::string& path);
  virtual void write_checkpoint(Simulation& sim, OutputFiles& files, const std::string& path);

  // Appends `sim`'s frame at `step` to `writer`.
  virtual void append_frame(TrajectoryWriter& writer, Simulation& sim, std::uint64_t step,
                            double time, const FlockMetrics& metrics);
};

// The build's host.
FlockHost& flock_host();

// A tool's process on the build's host: `command` (under mpirun on rank 0, the other ranks
// carrying out its flock's share until it returns). Returns the exit status.
int run_on_host(int& argc, char**& argv, const std::function<int()>& command);

// A checkpoint on its own (--checkpoint-every): a temporary file, flushed, then renamed.
void save_checkpoint(Simulation& sim, const std::string& path);

}  // namespace boids
