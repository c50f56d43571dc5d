// One rank's share of a distributed flock: the boids of its slab (host/mpi/slabs.h), kept in
// its backend between steps as parts of the whole flock (PartAccess, host/core/simulation.h). The
// slabs start, and every kBalanceEvery steps are moved, so that each holds about as many
// boids (a flock that gathers in a few places would load some ranks far more than others).
// A wide slab is held as three parts, a band at each face and the interior between them
// (a narrow one as one): no other rank's boid lies within reach of the interior, so it
// steps while the bands' exchange with the other ranks is in flight. Each step (step_once)
//   splits   every part's own boids at its edges out of the backend, and drops its ghosts
//   sends    each that left the slab to the rank that owns it now, and each within the radius
//            of another slab to that slab's rank as a ghost (posted, left in flight); hands
//            over within the rank what passes between its parts
//   steps    the interior with its ghosts from the bands; then, the exchange received, the
//            bands with theirs: the step of one process, seen from here (noise is keyed by
//            the input index; the naive method adds the neighbours in input order, bit for
//            bit; the hashed one adds the same neighbours, in another order); the ghosts'
//            results are dropped at the next split
// Only the boids at the parts' edges pass through the host; the rest stay in the backends'
// arrays, in their order (the hashed method's sort finds them in cell order). Every rank
// takes part in every step: the calls are collective.
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "host/core/simulation.h"
#include "host/io/checkpoint.h"
#include "host/io/trajectory_file.h"
#include "host/mpi/communicator.h"
#include "host/mpi/frame_chunks.h"
#include "host/mpi/slabs.h"
#include "host/parts/part_access.h"

namespace boids::mpi {

struct RowFile;  // a file of the flock's rows that each rank reads its stripe of

class RankFlock {
 public:
  // Every rank's part of a start, together: rank 0 (`whole`, in input order, not null) cuts
  // the flock into slabs and sends each rank its boids; `config` is read on rank 0 alone.
  static RankFlock start(const SimulationConfig& config, const FlockState* whole,
                         std::uint64_t steps_taken);
  // Every rank's part of a random start of `count` boids, together: each rank draws its own
  // stripe of the flock and hands the boids to the ranks whose slabs hold them, so that no
  // rank holds the whole; `config`, `first` (boid 0 of the start) and `count` are read on rank
  // 0 alone.
  static RankFlock draw(const SimulationConfig& config, const FlockState& first,
                        std::uint64_t count);
  // Every rank's part of a start from the .npy state file `path`, together: each rank reads
  // its own stripe of rows by byte ranges (MPI-IO) and hands them to the ranks whose slabs
  // hold them; `config`, `path` and `first` (the file's first boid, checked) are read on rank 0
  // alone. A file that a rank refuses (a row outside the world, ...) makes no flock on any
  // rank, and rank 0 gets the refusal of the lowest rank that found one, as one process words it.
  static std::optional<RankFlock> read_npy(const SimulationConfig& config, const FlockState& first,
                                           const std::string& path, std::string& refusal);
  // The same from the CSV state file `path`, each rank reading its lines (host/mpi/csv_stripe.h):
  // `check_first` refuses, on rank 0, what the file's first boid shows of it (its dimensions,
  // its precision); every rank then checks its own boids.
  static std::optional<RankFlock> read_csv(
      const SimulationConfig& config, const std::string& path,
      const std::function<void(const FlockState&)>& check_first, std::string& refusal);
  // The same from the checkpoint `path`, checked whole but for its boids by rank 0 (`head`,
  // read on rank 0 alone, as `first`, its first boid, checked), each rank checking its own.
  static std::optional<RankFlock> read_checkpoint(const CheckpointHead& head,
                                                  const FlockState& first, const std::string& path,
                                                  std::string& refusal);

  // This rank's share of a flock of `whole_count` boids cut into `slabs`: its boids `own`
  // (ascending by index), `steps_taken` into their flight.
  RankFlock(const SimulationConfig& config, std::uint64_t whole_count, Slabs slabs,
            double largest_share, std::vector<IndexedBoid> own, std::uint64_t steps_taken);

  void step(std::uint64_t steps);

  // The whole flock's metrics at rank 0 (elsewhere, what this rank knows of them): each rank
  // measures its boids where they lie, with ghosts brought up to date by an exchange without
  // a step, and the ranks add their shares and join their flocks' pieces
  // (host/mpi/rank_metrics.cpp). The flight goes on as it would have.
  FlockMetrics metrics();

  // Every rank's share of a state file (.npy when `npy`, else CSV) of the whole flock at `path`
  // (host/mpi/rank_files.cpp): each rank's stripe of rows at their input index, the header by
  // rank 0 (MPI-IO). Returns "" when every rank's part is on disk, else why not (on every rank).
  std::string write_state(const std::string& path, bool npy) const;
  // The same for a checkpoint of the flight (host/io/checkpoint.h), its checksum appended by
  // rank 0 once the ranks' parts are on disk.
  std::string write_checkpoint(const std::string& path) const;

  // This rank's chunks of a trajectory's frame cut as `layout` says, compressed: those of its
  // stripe of whole chunks (host/mpi/frame_chunks.h).
  FrameChunks frame_chunks(const TrajectoryFrameLayout& layout) const;

  // This rank's boids, in its backend's order.
  std::vector<IndexedBoid> boids() const;
  // The rank's own boids, a piece of at most `places` at a time (`visit(piece)`, which may take
  // the piece's list), or one at a time, in the parts' order.
  void for_each_piece(const std::function<void(std::vector<IndexedBoid>&)>& visit,
                      std::uint64_t places = 65536) const;
  void for_each_boid(const std::function<void(const IndexedBoid&)>& visit) const;
  std::uint64_t steps_taken() const { return steps_taken_; }
  std::uint64_t whole_count() const { return whole_count_; }
  // The largest rank's boids over the mean before the slabs were last balanced: at the start,
  // in slabs of equal width.
  double largest_share() const { return largest_share_; }
  // Bytes this rank's backends hold.
  std::uint64_t bytes_allocated() const;

 private:
  // A part of the slab, on its backend.
  struct Part {
    std::unique_ptr<Simulation> engine;
    PartAccess* access = nullptr;
    std::vector<IndexedBoid> arrived, ghosts;  // the last exchange's, ascending by id
    bool extended = false;                     // in this exchange, before its records came
  };

  // The same with no part yet: hand_over or start_parts makes them.
  RankFlock(const SimulationConfig& config, std::uint64_t whole_count, Slabs slabs,
            double largest_share, std::uint64_t steps_taken);

  // The boids [at, at + count) of a start, as a rank's stripe of it gives them.
  using StartPiece = std::function<FlockState(std::uint64_t at, std::uint64_t count)>;
  // Every rank's boids of its stripe [first, last) of the start handed to the ranks whose slabs
  // hold them, a piece at a time (`piece`), into parts made for them (`along`: the stripe's
  // coordinates along the slabs' axis); host/mpi/rank_start.cpp.
  void hand_over(std::uint64_t first, std::uint64_t last, std::vector<double> along,
                 const StartPiece& piece);

  // read_npy's and read_checkpoint's reading (host/mpi/rank_start.cpp).
  static std::optional<RankFlock> read_rows(const SimulationConfig& flight, const std::string& name,
                                            const RowFile& rows, std::uint64_t steps_taken,
                                            std::string& refusal);

  void step_once();
  // Split, hand over and extend every part (and with `step`, step it): after it the parts
  // hold fresh ghosts.
  void exchange(bool step);
  // The parts the slab is held as now, made again where their number changed (own: the
  // rank's boids, to start them with).
  void cut_parts();
  // Rank k's slab cut into its parts' bounds.
  Slabs cuts_of(int k) const;
  void start_parts(std::vector<IndexedBoid> own);
  // The parts made anew, `counts[k]` own boids in part k, their places to be filled.
  void open_parts(const std::vector<std::uint64_t>& counts);
  PartBounds bounds_of(std::size_t part) const;
  // Files a record received from the ranks with the parts it arrives in or is a ghost of
  // (within `reach`).
  void file_received(const IndexedBoid& b, bool arrived, double reach);
  void extend(Part& part, bool step);
  // metrics()'s collective parts.
  double far_nearest(const std::vector<PartMetrics>& m);
  FlockCount join_flocks(const std::vector<PartMetrics>& m);
  double along(const IndexedBoid& b) const;  // the coordinate the slabs cut
  void balance();
  // Rank k's stripe of the whole flock's rows, [first, last) (host/mpi/rank_files.cpp).
  FlockState stripe(std::uint64_t& first, std::uint64_t& last, std::uint64_t unit = 1) const;

  SimulationConfig config_;
  Slabs slabs_;
  Slabs cuts_;               // the rank's slab cut into its parts' (bounds: parts + 1)
  std::vector<Part> parts_;  // one, or the bands and the interior: kLow, kInterior, kHigh
  double band_ = 0;          // a band's depth
  int rank_ = 0;
  std::uint64_t whole_count_ = 0, steps_taken_ = 0;
  double largest_share_ = 1;
  // A step's records, kept between steps.
  std::vector<IndexedBoid> edge_;
  std::vector<std::size_t> edge_from_;                          // the part each came from
  std::vector<std::vector<IndexedBoid>> moved_to_, ghosts_to_;  // by rank
  std::vector<int> within_;
  // The ranks a step's exchange goes to: those whose slabs lie within a ghost's reach and a
  // step's move of this one's. A step after the slabs moved goes to every rank (its boids may
  // lie anywhere).
  Neighborhood near_;
  bool moved_slabs_ = false;
  void find_neighbors();
};

}  // namespace boids::mpi
