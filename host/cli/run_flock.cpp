#include "host/cli/run_flock.h"

#include "host/base/errors.h"
#include "host/base/message_text.h"
#include "host/io/state_file.h"
#if BOIDS_WITH_MPI
#include "host/mpi/distributed_simulation.h"
#endif

namespace boids::cli {
namespace {

#if BOIDS_WITH_MPI
// Under mpirun every rank writes its own boids' part of the output `option` of `files` into its
// temporary file, renamed with the others (no rank gathers the flock): true when `sim` is spread
// over ranks and the file a regular one. `by_ranks` is mpi::write_npy_over_ranks or
// mpi::write_checkpoint_over_ranks.
bool written_by_ranks(Simulation& sim, OutputFiles& files, const std::string& option,
                      const std::string& path, bool (*by_ranks)(Simulation&, const std::string&)) {
  const std::string& file = files.file_to_write(option);
  if (file == path || !by_ranks(sim, file)) return false;
  files.written_externally(option);
  return true;
}
#endif

}  // namespace

std::unique_ptr<Simulation> read_run_simulation(const SimulationConfig& config,
                                                const FlockOptions& flock) {
#if BOIDS_WITH_MPI
  if (mpi::ranks() > 1) {
    const std::uint64_t rows = state_file_rows(flock.init_file);
    check_memory(config, held_share(rows));
    return mpi::make_read_simulation_over_ranks(config, flock.init_file, rows);
  }
#endif
  const FlockState initial = initial_state(flock, config.params);
  check_memory(config, initial.size());
  return make_run_simulation(config, initial);
}

// The flight's checkpoint as the output --checkpoint of `files`.
void write_checkpoint_output(Simulation& sim, OutputFiles& files, const std::string& path) {
#if BOIDS_WITH_MPI
  if (written_by_ranks(sim, files, "--checkpoint", path, mpi::write_checkpoint_over_ranks)) return;
#else
  (void)path;
#endif
  write_checkpoint(files, "--checkpoint", checkpoint_of(sim));
}

// Writes the flight's checkpoint whole: a temporary file, flushed to disk, then renamed.
void save_checkpoint(Simulation& sim, const std::string& path) {
  OutputFiles file;
  file.add("--checkpoint", path);
  write_checkpoint_output(sim, file, path);
  file.commit();
}

void write_trajectory_frame(TrajectoryWriter& writer, Simulation& sim, std::uint64_t step,
                            double time, const FlockMetrics& metrics) {
#if BOIDS_WITH_MPI
  if (mpi::append_frame_over_ranks(sim, writer, step, time, metrics)) return;
#endif
  writer.append(step, time, sim.state(), metrics);
}

// The flock of the run: under mpirun, spread over its ranks.
std::unique_ptr<Simulation> make_run_simulation(const SimulationConfig& config,
                                                const FlockState& initial) {
#if BOIDS_WITH_MPI
  return mpi::make_simulation_over_ranks(config, initial);
#else
  return make_simulation(config, initial);
#endif
}

// The boids of a flock this process holds: under mpirun, its share of them (the slabs are
// balanced to hold about as many each).
std::uint64_t held_share(std::uint64_t count) {
#if BOIDS_WITH_MPI
  const auto ranks = static_cast<std::uint64_t>(mpi::ranks());
  return (count + ranks - 1) / ranks;
#else
  return count;
#endif
}

// The flock of the run from its random start, which under mpirun each rank draws its own part
// of: no rank holds the whole start.
std::unique_ptr<Simulation> drawn_run_simulation(const SimulationConfig& config,
                                                 const FlockOptions& flock) {
#if BOIDS_WITH_MPI
  if (mpi::ranks() > 1) {
    FlockOptions first = flock;  // its first boid, refused as the whole start would be
    first.count = 1;
    initial_state(first, config.params);
    return mpi::make_drawn_simulation_over_ranks(config, resolve_count(flock));
  }
#endif
  return make_run_simulation(config, initial_state(flock, config.params));
}

// --save as the output of `files`: under mpirun by every rank, its own rows.
void write_save_output(Simulation& sim, OutputFiles& files, const std::string& path) {
#if BOIDS_WITH_MPI
  if (written_by_ranks(sim, files, "--save", path,
                       is_npy_name(path) ? mpi::write_npy_over_ranks : mpi::write_csv_over_ranks))
    return;
#endif
  const FlockState state = sim.state();
  files.write("--save", format_state_file(path, state));
  if (files.has("--save (predators)")) {
    FlockState predators;
    static_cast<Particles&>(predators) = state.predators;
    const std::string beside = predator_state_path(path);
    files.write("--save (predators)", format_state_file(beside, predators));
  }
}

ResumedFlight read_resumed_flight(const std::string& path) {
#if BOIDS_WITH_MPI
  if (mpi::ranks() > 1) return {check_checkpoint_file(path), std::nullopt};
#endif
  Checkpoint whole = read_checkpoint(path);
  CheckpointHead head{whole.config, whole.step, whole.state.size(), {}, whole.state.predators};
  return {std::move(head), std::move(whole)};
}

std::unique_ptr<Simulation> resumed_run_simulation(ResumedFlight& flight, const std::string& path) {
#if BOIDS_WITH_MPI
  if (!flight.whole) return mpi::make_resumed_simulation_over_ranks(flight.head, path);
#endif
  const Checkpoint& checkpoint = *flight.whole;
  std::unique_ptr<Simulation> sim;
  try {
    sim = make_run_simulation(checkpoint.config, checkpoint.state);
    sim->resume(checkpoint.state, checkpoint.order, checkpoint.step);
  } catch (const InputError& e) {
    throw InputError("checkpoint " + quoted_path(path) + ": " + e.what());
  }
  flight.whole.reset();
  return sim;
}

}  // namespace boids::cli
