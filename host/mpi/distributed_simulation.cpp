#include "host/mpi/distributed_simulation.h"

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <exception>
#include <fstream>
#include <new>
#include <optional>
#include <string>
#include <vector>

#include "host/base/errors.h"
#include "host/base/message_text.h"
#include "host/config/flock_options.h"
#include "host/io/state_file.h"
#include "host/model/initial_state.h"
#include "host/mpi/communicator.h"
#include "host/mpi/frame_chunks.h"
#include "host/mpi/rank_flock.h"
#include "host/parts/part_access.h"

namespace boids::mpi {
namespace {

enum class Op : std::uint64_t {
  kStart,
  kDraw,
  kReadNpy,
  kReadCsv,
  kReadCheckpoint,
  kStep,
  kGather,
  kMeasure,
  kWriteFile,
  kFrame,
  kRelease,
  kStop
};

// The files the ranks write together, each its own boids' part (host/mpi/rank_files.cpp).
enum class RankFile : std::uint64_t { kNpy, kCsv, kCheckpoint };

std::string write_rank_file(const RankFlock& flock, std::uint64_t kind, const std::string& path) {
  switch (static_cast<RankFile>(kind)) {
    case RankFile::kNpy:
    case RankFile::kCsv:
      return flock.write_state(path, static_cast<RankFile>(kind) == RankFile::kNpy);
    case RankFile::kCheckpoint:
      return flock.write_checkpoint(path);
  }
  abort_run("rank 0 asked for a file of an unknown kind");
}

struct Command {
  Op op;
  std::uint64_t value;  // kStep: the steps
};

void send(Command c) {
  broadcast(&c, sizeof c);
}

Command receive() {
  Command c{Op::kStop, 0};
  broadcast(&c, sizeof c);
  return c;
}

// Runs a collective part of a command: an error on one rank cannot be answered by the others
// (they wait inside the collective), so it ends the run.
template <typename Body>
auto collectively(Body&& body) -> decltype(body()) {
  try {
    return body();
  } catch (const std::bad_alloc&) {
    abort_run("not enough memory on this rank's machine for its share of the flock");
  } catch (const std::exception& e) {
    abort_run(e.what());
  }
}

// Every rank's part of a gather: the whole flock at rank 0, by input index.
std::vector<IndexedBoid> gather_flock(const RankFlock& flock) {
  return gather(flock.boids());
}

// The chunks of a trajectory's frame rank 0 gathers at once.
constexpr std::uint64_t kFrameChunksAtOnce = 4;

bool stopped = false;
bool alive = false;  // a distributed flock exists on rank 0

class DistributedSimulation final : public Simulation {
 public:
  // One at a time: the other ranks follow one flock.
  DistributedSimulation(const SimulationConfig& config, const FlockState& initial)
      : Simulation(config, initial.size()) {
    claim();
    restart(initial, 0);
  }

  // A random start of `count` boids, each rank drawing its own. Its first boid is drawn here,
  // before any rank is asked: what no boid can get past (obstacles over the whole world) is
  // refused at once.
  DistributedSimulation(const SimulationConfig& config, std::uint64_t count)
      : Simulation(config, count) {
    const FlockState first = make_initial_boids(0, 1, config.seed, config.params);
    claim();
    send({Op::kDraw, 0});
    flock_.emplace(collectively([&] { return RankFlock::draw(config, first, count); }));
    name_device(first);
  }

  // A flock each rank reads its own boids of (`op`: kReadNpy, kReadCsv or kReadCheckpoint,
  // `read`: the matching RankFlock::read_*, given the refusal to fill), of `count` boids (a CSV
  // file's: its lines, until the ranks have counted its rows), its first `first` (checked).
  // Throws InputError, on rank 0 alone, with the refusal of the lowest rank that found one.
  template <typename Read>
  DistributedSimulation(const SimulationConfig& config, std::uint64_t count, Op op,
                        const FlockState& first, Read&& read)
      : Simulation(config, count) {
    claim();
    send({op, 0});
    std::string refusal;
    std::optional<RankFlock> flock = collectively([&] { return read(refusal); });
    if (!flock) {
      alive = false;
      throw InputError(refusal);
    }
    flock_.emplace(std::move(*flock));
    set_count(flock_->whole_count());
    name_device(first);
  }

  // Every rank lets its share go together (its neighbourhood's communicator with it).
  ~DistributedSimulation() override {
    if (!stopped) send({Op::kRelease, 0});
    flock_.reset();
    alive = false;
  }
  DistributedSimulation(const DistributedSimulation&) = delete;
  DistributedSimulation& operator=(const DistributedSimulation&) = delete;

  void step(std::uint64_t steps) override {
    send({Op::kStep, steps});
    collectively([&] { flock_->step(steps); });
  }

  void state_into(const StateView& out) const override {
    send({Op::kGather, 0});
    const std::vector<IndexedBoid> all = collectively([&] { return gather_flock(*flock_); });
    const bool box = config().params.dimensions == 3;
    for (const IndexedBoid& b : all) {
      const std::size_t at = b.id * out.stride;
      out.x[at] = b.x;
      out.y[at] = b.y;
      out.vx[at] = b.vx;
      out.vy[at] = b.vy;
      if (box) {
        out.z[at] = b.z;
        out.vz[at] = b.vz;
      }
    }
  }

  // Measured where the boids lie, the ranks' shares put together (RankFlock::metrics):
  // exactly the flocks one process counts.
  FlockMetrics metrics() override {
    send({Op::kMeasure, 0});
    return collectively([&] { return flock_->metrics(); });
  }

  // Every rank writes its part of the file `path` (rank 0's name for it).
  void write_file(RankFile kind, const std::string& path) {
    send({Op::kWriteFile, static_cast<std::uint64_t>(kind)});
    std::string name = path;
    const std::string failure = collectively([&] {
      broadcast(name);
      return write_rank_file(*flock_, static_cast<std::uint64_t>(kind), name);
    });
    if (!failure.empty()) throw RuntimeError("cannot write " + quoted_path(path) + ": " + failure);
  }

  // A trajectory's frame: every rank compresses its own boids' chunks, and rank 0's writer takes
  // them a batch at a time (host/mpi/frame_chunks.h), a few megabytes (the chunks are already
  // compressed: a larger batch would only grow rank 0's buffers). A failure of the writer (a full
  // disk) is one process's: the other ranks are let go, and the error goes on.
  void append_frame(TrajectoryWriter& writer, std::uint64_t step, double time,
                    const FlockMetrics& metrics) {
    send({Op::kFrame, 0});
    TrajectoryFrameLayout layout = writer.frame_layout();
    const FrameChunks mine = collectively([&] {
      broadcast(&layout, sizeof layout);
      return flock_->frame_chunks(layout);
    });
    const TrajectoryChunks chunks = [&](int quantity, std::uint64_t first, CompressedChunks& out) {
      collectively([&] { gather_frame_chunks(mine, quantity, first, out); });
    };
    try {
      writer.append(step, time, chunks, metrics, kFrameChunksAtOnce);
    } catch (...) {
      collectively([] { end_frame_chunks(); });
      throw;
    }
    collectively([] { end_frame_chunks(); });
  }

  std::string device() const override {
    char share[32];
    std::snprintf(share, sizeof share, "%.2f", flock_->largest_share());
    return std::to_string(ranks()) + " MPI ranks (rank 0: " + device_ +
           "; before the slabs were last balanced, the largest held " + share + " times the mean)";
  }

  std::uint64_t bytes_allocated() const override { return flock_->bytes_allocated(); }

  void set_params(const FlockParams&) override {
    throw InputError("the parameters of a flock spread over MPI ranks cannot change in flight");
  }

  std::uint64_t steps_taken() const override { return flock_->steps_taken(); }

  // Each rank steps its boids in input order.
  std::vector<std::uint64_t> backend_order() const override { return input_order(count()); }

  void resume(const FlockState& state, const std::vector<std::uint64_t>& order,
              std::uint64_t steps_taken) override {
    check_resumable(state, order, /*keeps_input_order=*/false);
    restart(state, steps_taken);
  }

 private:
  static void claim() {
    if (alive) {
      throw InputError(
          "a run over MPI ranks flies one flock at a time (one variant, one sweep member)");
    }
    alive = true;
  }

  void restart(const FlockState& state, std::uint64_t steps_taken) {
    send({Op::kStart, 0});
    flock_.emplace(collectively([&] { return RankFlock::start(config(), &state, steps_taken); }));
    FlockState first;
    first.dimensions = state.dimensions;
    first.resize(1);
    name_device(first);
  }

  // The backend's name of its device, from a flock of one boid.
  void name_device(const FlockState& one) { device_ = make_simulation(config(), one)->device(); }

  std::optional<RankFlock> flock_;
  std::string device_;
};

void check_flight_over_ranks(const SimulationConfig& config) {
  if (config.params.predators > 0) {
    throw InputError(
        "--predators: a predator pursues the boid nearest to it, which can lie on any rank, "
        "and a rank holds the boids near its slab alone: fly predators in one process");
  }
  if (config.params.nearest > 0) {
    throw InputError(
        "--nearest: a boid's nearest neighbours can lie on any rank, and a rank holds the "
        "boids near its slab alone: fly topological neighbours in one process");
  }
  if (config.params.world.open()) {
    throw InputError(
        "--boundary open: ranks split the world into slabs, and open space has no extent to "
        "split until the flock is measured: fly open space in one process");
  }
  if (config.backend == Backend::kReference) {
    throw InputError(
        "the reference flies a flock in one process: under mpirun, give --backend "
        "cpu or cuda");
  }
}

}  // namespace

std::unique_ptr<Simulation> make_simulation_over_ranks(const SimulationConfig& config,
                                                       const FlockState& initial) {
  if (ranks() == 1) return make_simulation(config, initial);
  check_flight_over_ranks(config);
  check_dimensions(config, initial);
  return std::make_unique<DistributedSimulation>(config, initial);
}

std::unique_ptr<Simulation> make_drawn_simulation_over_ranks(const SimulationConfig& config,
                                                             std::uint64_t count) {
  if (ranks() == 1)
    return make_simulation(config, make_initial_state(count, config.seed, config.params));
  check_flight_over_ranks(config);
  return std::make_unique<DistributedSimulation>(config, count);
}

namespace {

bool write_over_ranks(Simulation& sim, RankFile kind, const std::string& path) {
  auto* spread = dynamic_cast<DistributedSimulation*>(&sim);
  if (!spread) return false;
  spread->write_file(kind, path);
  return true;
}

}  // namespace

bool append_frame_over_ranks(Simulation& sim, TrajectoryWriter& writer, std::uint64_t step,
                             double time, const FlockMetrics& metrics) {
  auto* spread = dynamic_cast<DistributedSimulation*>(&sim);
  if (!spread) return false;
  spread->append_frame(writer, step, time, metrics);
  return true;
}

bool write_npy_over_ranks(Simulation& sim, const std::string& path) {
  return write_over_ranks(sim, RankFile::kNpy, path);
}

bool write_csv_over_ranks(Simulation& sim, const std::string& path) {
  return write_over_ranks(sim, RankFile::kCsv, path);
}

bool write_checkpoint_over_ranks(Simulation& sim, const std::string& path) {
  return write_over_ranks(sim, RankFile::kCheckpoint, path);
}

std::unique_ptr<Simulation> make_read_simulation_over_ranks(const SimulationConfig& config,
                                                            const std::string& path,
                                                            std::uint64_t rows) {
  if (ranks() == 1) return nullptr;
  check_flight_over_ranks(config);
  // The header and the first row, checked here before the ranks read theirs: what refuses the
  // whole file refuses it at once.
  if (!is_npy_name(path)) {
    // Its start checked, and its lines counted, by state_file_rows; its rows are the ranks'.
    FlockState first;  // boid 0, which the ranks find, kept here as it is checked
    const auto check_first = [&](const FlockState& boid) {
      first = boid;
      check_start_file(first, path, config.precision, config.params, 0);
      check_dimensions(config, first);
    };
    return std::make_unique<DistributedSimulation>(
        config, rows, Op::kReadCsv, first, [&](std::string& refusal) {
          return RankFlock::read_csv(config, path, check_first, refusal);
        });
  }
  const NpyMatrix m = npy_state_matrix(path);
  const FlockState first = read_npy_state_rows(path, m, 0, 1, config.params.world);
  check_start_file(first, path, config.precision, config.params, 0);
  check_dimensions(config, first);
  return std::make_unique<DistributedSimulation>(
      config, m.rows, Op::kReadNpy, first,
      [&](std::string& refusal) { return RankFlock::read_npy(config, first, path, refusal); });
}

std::unique_ptr<Simulation> make_resumed_simulation_over_ranks(const CheckpointHead& head,
                                                               const std::string& path) {
  if (ranks() == 1) return nullptr;
  try {
    check_flight_over_ranks(head.config);
  } catch (const InputError& e) {
    throw InputError("checkpoint " + quoted_path(path) + ": " + e.what());
  }
  // Its first boid, checked here before the ranks read theirs, as a .npy start's.
  std::ifstream file(path, std::ios::binary);
  const std::vector<double> row =
      npy_rows(head.columns, 0, 1, [&](std::uint64_t at, double* into, std::uint64_t n) {
        file.seekg(static_cast<std::streamoff>(at));
        if (!file.read(reinterpret_cast<char*>(into), static_cast<std::streamsize>(n * 8))) {
          throw InputError("cannot read checkpoint " + quoted_path(path) + ": " +
                           std::strerror(errno));
        }
      });
  const FlockState first = checkpoint_boids(head, row.data(), 1);
  check_checkpoint_boids(head, first, 0, path);
  return std::make_unique<DistributedSimulation>(
      head.config, head.count, Op::kReadCheckpoint, first,
      [&](std::string& refusal) { return RankFlock::read_checkpoint(head, first, path, refusal); });
}

int follow() {
  std::optional<RankFlock> flock;
  for (;;) {
    const Command c = receive();
    switch (c.op) {
      case Op::kStart:
        flock.emplace(collectively([&] { return RankFlock::start({}, nullptr, 0); }));
        break;
      case Op::kDraw:
        flock.emplace(collectively([&] { return RankFlock::draw({}, FlockState(), 0); }));
        break;
      case Op::kReadNpy:
      case Op::kReadCsv:
      case Op::kReadCheckpoint: {
        std::string refusal;
        std::optional<RankFlock> read = collectively([&]() -> std::optional<RankFlock> {
          switch (c.op) {
            case Op::kReadNpy:
              return RankFlock::read_npy({}, FlockState(), "", refusal);
            case Op::kReadCsv:
              return RankFlock::read_csv({}, "", {}, refusal);
            default:
              return RankFlock::read_checkpoint(CheckpointHead(), FlockState(), "", refusal);
          }
        });
        flock.reset();
        if (read) flock.emplace(std::move(*read));
        break;
      }
      case Op::kStep:
        if (!flock) abort_run("rank 0 asked for steps before it sent a flock");
        collectively([&] { flock->step(c.value); });
        break;
      case Op::kGather:
        if (!flock) abort_run("rank 0 asked for the flock before it sent one");
        collectively([&] { gather_flock(*flock); });
        break;
      case Op::kMeasure:
        if (!flock) abort_run("rank 0 asked for metrics before it sent a flock");
        collectively([&] { flock->metrics(); });
        break;
      case Op::kWriteFile:
        if (!flock) abort_run("rank 0 asked for a file before it sent a flock");
        collectively([&] {
          std::string name;
          broadcast(name);
          write_rank_file(*flock, c.value, name);
        });
        break;
      case Op::kFrame:
        if (!flock) abort_run("rank 0 asked for a frame before it sent a flock");
        collectively([&] {
          TrajectoryFrameLayout layout;
          broadcast(&layout, sizeof layout);
          serve_frame_chunks(flock->frame_chunks(layout));
        });
        break;
      case Op::kRelease:
        flock.reset();
        break;
      case Op::kStop:
        return 0;
    }
  }
}

void stop_followers() {
  if (ranks() > 1 && rank() == 0 && !stopped) {
    send({Op::kStop, 0});
    stopped = true;
  }
}

}  // namespace boids::mpi
