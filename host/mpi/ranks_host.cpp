// The host of a build with MPI (host/config/flock_host.h): under mpirun the flock spread over
// the ranks (host/mpi/distributed_simulation.h), each drawing or reading its own boids and
// writing its own rows of every output, so that no rank gathers the flock; started alone, the
// flock of this process, as a build without MPI has it.
#include "host/base/message_text.h"
#include "host/config/flock_host.h"
#include "host/io/state_file.h"
#include "host/mpi/distributed_simulation.h"

namespace boids {
namespace {

class RanksHost final : public FlockHost {
 public:
  std::uint64_t held_share(std::uint64_t count) const override {  // the slabs are balanced
    const auto ranks = static_cast<std::uint64_t>(mpi::ranks());
    return (count + ranks - 1) / ranks;
  }

  std::unique_ptr<Simulation> make(const SimulationConfig& config,
                                   const FlockState& initial) override {
    return mpi::make_simulation_over_ranks(config, initial);
  }

  std::unique_ptr<Simulation> drawn(const SimulationConfig& config,
                                    const FlockOptions& flock) override {
    if (mpi::ranks() == 1) return FlockHost::drawn(config, flock);
    FlockOptions first = flock;  // its first boid, refused as the whole start would be
    first.count = 1;
    initial_state(first, config.params);
    return mpi::make_drawn_simulation_over_ranks(config, resolve_count(flock));
  }

  std::unique_ptr<Simulation> read(const SimulationConfig& config,
                                   const FlockOptions& flock) override {
    if (mpi::ranks() == 1) return FlockHost::read(config, flock);
    const std::uint64_t rows = state_file_rows(flock.init_file);
    check_memory(config, held_share(rows));
    return mpi::make_read_simulation_over_ranks(config, flock.init_file, rows);
  }

  ResumedFlight read_resumed(const std::string& path) override {
    if (mpi::ranks() == 1) return FlockHost::read_resumed(path);
    return {check_checkpoint_file(path), std::nullopt};
  }

  std::unique_ptr<Simulation> resumed(ResumedFlight& flight, const std::string& path) override {
    if (flight.whole) return FlockHost::resumed(flight, path);
    return mpi::make_resumed_simulation_over_ranks(flight.head, path);
  }

  void write_save(Simulation& sim, OutputFiles& files, const std::string& path) override {
    const auto by_ranks = is_npy_name(path) ? mpi::write_npy_over_ranks : mpi::write_csv_over_ranks;
    if (!written_by_ranks(sim, files, "--save", path, by_ranks)) {
      FlockHost::write_save(sim, files, path);
    }
  }

  void write_checkpoint(Simulation& sim, OutputFiles& files, const std::string& path) override {
    if (!written_by_ranks(sim, files, "--checkpoint", path, mpi::write_checkpoint_over_ranks)) {
      FlockHost::write_checkpoint(sim, files, path);
    }
  }

  void append_frame(TrajectoryWriter& writer, Simulation& sim, std::uint64_t step, double time,
                    const FlockMetrics& metrics) override {
    if (!mpi::append_frame_over_ranks(sim, writer, step, time, metrics)) {
      FlockHost::append_frame(writer, sim, step, time, metrics);
    }
  }

 private:
  // Every rank writes its own boids' part of the output `option` of `files` into its temporary
  // file, renamed with the others: true when `sim` is spread over ranks and the file a regular
  // one (`by_ranks` says).
  static bool written_by_ranks(Simulation& sim, OutputFiles& files, const std::string& option,
                               const std::string& path,
                               bool (*by_ranks)(Simulation&, const std::string&)) {
    const std::string& file = files.file_to_write(option);
    if (file == path || !by_ranks(sim, file)) return false;
    files.written_externally(option);
    return true;
  }
};

}  // namespace

FlockHost& flock_host() {
  static RanksHost host;
  return host;
}

int run_on_host(int& argc, char**& argv, const std::function<int()>& command) {
  return mpi::run_over_ranks(argc, argv, command);
}

}  // namespace boids
