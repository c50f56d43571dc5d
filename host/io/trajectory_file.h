// Trajectories in H5MD 1.1 (HDF5 for molecular data), the layout that molecular-simulation
// tools share:
//
//   /h5md                    version [1, 1]; author/name, creator/name and creator/version
//   /particles/flock/box     dimension 2, boundary ["periodic", "periodic"] (torus) or
//                            ["none", "none"] (walls); in three dimensions dimension 3 and
//                            three boundaries
//   /particles/flock/box/edges/{step, time, value}  value float64 (frames, D, D): the box's
//                            edge vectors as rows, diag(W, H[, D]), at every frame (the form
//                            MDAnalysis reads; H5MD allows a matrix for any box)
//   /particles/flock/position/{step, time, value}  value float64 (frames, N, 2) or
//                            (frames, N, 3), input order
//   /particles/flock/velocity/{step, time, value}
//   /particles/predators/...  with --predators K, the predators as a second particle group:
//                            box, position and velocity as the flock's, (frames, K, D)
//   /observables/<metric>/{step, time, value}      polarization, order, flocks,
//                            largest_flock, mean_nn_distance, mean_neighbors, milling; with
//                            predators, within_reach
//   /parameters              the run's options as attributes
//
// Lengths are in the model's own units (the world's), times in steps (times dt under the
// steering model); no `unit` attributes are written, as the model has no physical units and
// readers refuse unit strings they do not know. A flat flock may be written in a 3D box
// (layout_dimensions 3: z = 0, vz = 0, a box one length unit deep), which readers of 3D files
// alone open (MDAnalysis), as the command line writes it by default; its /parameters say its
// 2 dimensions, and boids' own readers give back the flat flock.
//
// Every element is sampled at the same frames, so there is one `step` (int64) and one `time`
// (float64) dataset, hard-linked into each element. A frame's `step` is written last: readers
// take the frames from the length of `step` (a `value` may hold one more, unfinished frame).
//
// Beside the file, its XDMF description (host/io/xdmf_file.h) is written with every whole frame.
//
// The file survives a full disk and a killed run. Before a frame touches the file, the space
// it can take (its raw size, a margin for compression's worst case and the metadata) is
// reserved with posix_fallocate, so that a full disk (or a file-size limit) fails there, with
// nothing of the frame written; after the frame, HDF5's caches are flushed. The file on disk
// is thus always the last whole frame's, plus unreferenced bytes at its end.
#pragma once

#include <array>
#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <utility>
#include <variant>
#include <vector>

#include "host/metrics/metrics.h"
#include "host/model/flock.h"

namespace boids {

/// The flock's metrics a trajectory records a value of each frame, /observables/NAME/value
/// (with predators, within_reach too).
inline constexpr std::array<const char*, 7> kTrajectoryObservables = {
    "polarization",     "order",          "flocks", "largest_flock",
    "mean_nn_distance", "mean_neighbors", "milling"};

/// A run parameter, stored as an attribute of /parameters.
using TrajectoryParameter = std::variant<std::int64_t, double, std::string, std::vector<double>>;
using TrajectoryParameters = std::vector<std::pair<std::string, TrajectoryParameter>>;

/// What the file describes; fixed for the whole trajectory.
struct TrajectoryHeader {
  std::uint64_t count = 0;      ///< boids, N
  std::uint64_t predators = 0;  ///< K: the second particle group's (none: no group)
  World world;                  ///< the box
  int dimensions = 2;           ///< 2, or 3: the flock's
  /// The file's columns: 0 for the flock's own, or 3 for a flat flock at z = 0 in a box one
  /// unit deep, which readers of 3D files alone open (MDAnalysis; the command line's default)
  int layout_dimensions = 0;
  bool xdmf = true;             ///< describe the frames in XDMF beside the file (xdmf_file.h)
  std::string creator_version;  ///< /h5md/creator/version
  TrajectoryParameters parameters;
};

/// How a frame's per-boid rows are cut into chunks, each compressed as compress_row_chunks
/// (host/io/trajectory_chunks.h) compresses it: `count` rows of `columns` (2, or 3: a flat
/// flock in a box has z = vz = 0) in chunks of `chunk_boids` rows, deflated at `level`.
struct TrajectoryFrameLayout {
  std::uint64_t count = 0, chunk_boids = 0;
  int columns = 2;
  int level = 0;
};

/// A frame's chunks, compressed by whoever holds the boids: `chunks(quantity, first, out)`
/// fills out[k] with chunk first + k of the positions (quantity 0) or the velocities (1).
/// The writer asks for each quantity's chunks in order, a batch at a time.
using TrajectoryChunks = std::function<void(int quantity, std::uint64_t first,
                                            std::vector<std::vector<unsigned char>>& out)>;

class TrajectoryWriter {
 public:
  /// Creates the file under a temporary name beside `path`. The first whole frame replaces
  /// `path` with it, so a run that fails before its first frame leaves an existing file
  /// untouched. Throws RuntimeError naming the file when it cannot be created.
  TrajectoryWriter(const std::string& path, const TrajectoryHeader& header);

  /// Closes the file; one without a whole frame is removed. Reports no error: call close().
  ~TrajectoryWriter();

  TrajectoryWriter(const TrajectoryWriter&) = delete;
  TrajectoryWriter& operator=(const TrajectoryWriter&) = delete;

  /// Adds a frame: `state` in input order (header.count boids, and header.predators
  /// predators) and the metrics, at `step` and `time`, both increasing. Throws RuntimeError (the
  /// file keeps its whole frames) when the frame cannot be written; the writer then takes no more
  /// frames.
  void append(std::uint64_t step, double time, const FlockState& state,
              const FlockMetrics& metrics);
  /// The same, the frame's per-boid rows compressed by `chunks` (a flock spread over MPI ranks
  /// compresses each rank's own boids, host/mpi/rank_files.cpp), cut as frame_layout() says,
  /// and asked for `at_once` chunks at a time.
  void append(std::uint64_t step, double time, const TrajectoryChunks& chunks,
              const FlockMetrics& metrics, std::uint64_t at_once);
  TrajectoryFrameLayout frame_layout() const;

  /// Flushes and closes the file; throws RuntimeError when that fails.
  void close();

  std::uint64_t frames() const;
  const std::string& path() const;

 private:
  class File;
  std::unique_ptr<File> file_;
};

/// Boids per chunk of the position and velocity datasets: a chunk is (1, min(N, this), D).
inline constexpr std::uint64_t kTrajectoryChunkBoids = 65536;

}  // namespace boids
