// The flock `boids run` flies and the outputs that hold its whole state, for one process or
// spread over MPI ranks (docs/mpi.md): under mpirun the ranks draw a random start themselves,
// and write their own parts of a .npy `--save` and of a checkpoint, so that no rank gathers the
// flock; started alone, the flock is one process's and the outputs are written from its state.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>

#include "host/config/flock_options.h"
#include "host/core/simulation.h"
#include "host/io/checkpoint.h"
#include "host/io/output_file.h"
#include "host/io/trajectory_file.h"

namespace boids::cli {

// The flock from `initial`: under mpirun, spread over its ranks.
std::unique_ptr<Simulation> make_run_simulation(const SimulationConfig& config,
                                                const FlockState& initial);

// The flock from its random start, which under mpirun each rank draws its own part of.
std::unique_ptr<Simulation> drawn_run_simulation(const SimulationConfig& config,
                                                 const FlockOptions& flock);

// The flock from the state file of `flock.init_file`: under mpirun, a .npy file is read by
// every rank, its own rows by byte ranges.
std::unique_ptr<Simulation> read_run_simulation(const SimulationConfig& config,
                                                const FlockOptions& flock);

// A checkpoint to continue: its flight (`head`) and, in one process, its boids (`whole`). Under
// mpirun, whose ranks read their own boids, rank 0 checks the file whole but for its boids and
// holds none of them. InputError as read_checkpoint words it.
struct ResumedFlight {
  CheckpointHead head;
  std::optional<Checkpoint> whole;
};
ResumedFlight read_resumed_flight(const std::string& path);

// The checkpoint `path`'s flight, continued (its boids let go once the flock holds them); what
// is refused of it names the file.
std::unique_ptr<Simulation> resumed_run_simulation(ResumedFlight& flight, const std::string& path);

// The boids of a flock of `count` this process holds: under mpirun, its share.
std::uint64_t held_share(std::uint64_t count);

// The outputs --save (`path`) and --checkpoint of `files`, written whole.
void write_save_output(Simulation& sim, OutputFiles& files, const std::string& path);
void write_checkpoint_output(Simulation& sim, OutputFiles& files, const std::string& path);

// Appends `sim`'s frame at `step` to `writer`: under mpirun, every rank compresses its own
// boids' chunks and rank 0 writes them, so that no rank gathers the flock.
void write_trajectory_frame(TrajectoryWriter& writer, Simulation& sim, std::uint64_t step,
                            double time, const FlockMetrics& metrics);

// A checkpoint on its own (--checkpoint-every): a temporary file, flushed, then renamed.
void save_checkpoint(Simulation& sim, const std::string& path);

}  // namespace boids::cli
