// A flock spread over the ranks of an MPI run. Rank 0 runs the command line as one process
// would, and its flock is a distributed simulation: each call on it is sent to every rank as
// a command (start, step, gather), which all ranks then carry out together; the other ranks
// only follow (follow()) until rank 0 stops them. So `boids run` under mpirun takes the same
// options and writes the same outputs, from rank 0, as one process.
//
// A rank that fails ends the whole run: an error inside a collective step aborts every rank
// (abort_run), and mpirun ends a run one of whose ranks was killed.
#pragma once

#include <memory>
#include <string>

#include "host/core/simulation.h"
#include "host/io/checkpoint.h"
#include "host/io/tool_process.h"
#include "host/io/trajectory_file.h"
#include "host/mpi/communicator.h"

namespace boids::mpi {

// On rank 0 of a run of several ranks, the flock spread over them; else (one process) the
// flock of make_simulation.
std::unique_ptr<Simulation> make_simulation_over_ranks(const SimulationConfig& config,
                                                       const FlockState& initial);
// The same, from the random start of `count` boids of the config's seed: over several ranks,
// each draws its own boids, and no rank holds the whole start.
std::unique_ptr<Simulation> make_drawn_simulation_over_ranks(const SimulationConfig& config,
                                                             std::uint64_t count);

// The same from the state file `path` (.npy or CSV): over several ranks, each reads its own
// rows by byte ranges (MPI-IO; a CSV file's lines, host/mpi/csv_stripe.h), and no rank holds
// the whole start; null in one process (the caller reads the file). `rows` is
// state_file_rows(path), which has checked the file's start. Throws InputError as one process
// refuses the file.
std::unique_ptr<Simulation> make_read_simulation_over_ranks(const SimulationConfig& config,
                                                            const std::string& path,
                                                            std::uint64_t rows);

// The same continuing the checkpoint `path`, of which rank 0 has checked all but the boids
// (`head`, check_checkpoint_file): over several ranks, each reads and checks its own boids by
// byte ranges, and no rank holds the whole flock; null in one process (the caller reads the
// file). Throws InputError as one process refuses the file.
std::unique_ptr<Simulation> make_resumed_simulation_over_ranks(const CheckpointHead& head,
                                                               const std::string& path);

// Writes `sim`'s flock as a .npy state file into `path` (an output's temporary file, renamed
// by the caller) with every rank writing its own boids' rows (MPI-IO), and returns true, when
// `sim` is spread over ranks; else writes nothing and returns false (the caller gathers and
// writes it). Throws RuntimeError naming the file and the rank that failed.
bool write_npy_over_ranks(Simulation& sim, const std::string& path);
// The same for a CSV state file, and for a checkpoint of the flight (host/io/checkpoint.h):
// the same bytes as one process writes.
bool write_csv_over_ranks(Simulation& sim, const std::string& path);
bool write_checkpoint_over_ranks(Simulation& sim, const std::string& path);

// Appends `sim`'s frame at `step` to `writer` with every rank compressing its own boids'
// chunks, and returns true, when `sim` is spread over ranks; else writes nothing and returns
// false (the caller gathers the flock). Throws what the writer throws.
bool append_frame_over_ranks(Simulation& sim, TrajectoryWriter& writer, std::uint64_t step,
                             double time, const FlockMetrics& metrics);

// The loop of a rank other than 0: carries out rank 0's commands until it says stop. Returns
// the process's exit status.
int follow();

// Rank 0, once its command is done (or failed): lets the other ranks return from follow().
void stop_followers();

// A program's main under mpirun: every rank's process prepared as a tool's
// (host/io/tool_process.h), MPI for its life (a Session), `command` on rank 0 (whose flocks,
// made by make_simulation_over_ranks, the other ranks follow), and the other ranks stopped
// once it returns. Started without mpirun, `command` alone. Returns the exit status.
template <typename Command>
int run_over_ranks(int& argc, char**& argv, Command&& command);

template <typename Command>
int run_over_ranks(int& argc, char**& argv, Command&& command) {
  prepare_tool_process();
  const Session session(argc, argv);
  if (rank() != 0) return follow();
  const int status = command();
  stop_followers();
  return status;
}

}  // namespace boids::mpi
