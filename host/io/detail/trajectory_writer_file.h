// The trajectory writer's file (host/io/trajectory_file.h) as its two sources share it: the
// H5MD layout made when the file is created (trajectory_layout.cpp) and the frames appended and
// committed (trajectory_file.cpp). Not for other includes.
#pragma once

#include <algorithm>
#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "host/io/detail/hdf5_support.h"
#include "host/io/output_file.h"
#include "host/io/trajectory_chunks.h"
#include "host/io/trajectory_file.h"
#include "host/io/xdmf_file.h"

namespace boids {
namespace trajectory_writing {

// Chunks compressed at a time: enough for every thread, few enough that a frame of a hundred
// million boids is not held compressed whole.
inline constexpr std::size_t kChunkBatch = 64;
// Frames per chunk of the one-number-per-frame series (step, time, the observables).
inline constexpr hsize_t kSeriesChunk = 256;

inline constexpr const char* kOption = "--trajectory";

inline constexpr const auto& kObservables = kTrajectoryObservables;

}  // namespace trajectory_writing

class TrajectoryWriter::File {
 public:
  File(const std::string& path, const TrajectoryHeader& header);
  ~File();

  void append(std::uint64_t step, double time, const TrajectoryChunks& chunks,
              const FlockMetrics& m, std::uint64_t at_once = trajectory_writing::kChunkBatch);
  void close();
  TrajectoryFrameLayout frame_layout() const {
    return {count_, std::min<std::uint64_t>(count_, kTrajectoryChunkBoids), dimensions_,
            kTrajectoryDeflateLevel};
  }
  // The chunks of `state`'s rows, compressed here.
  TrajectoryChunks chunks_of(const FlockState& state);
  // The predators of the next frame (header.predators of them).
  void take_predators(const Particles& predators);
  std::uint64_t frames() const { return frames_; }
  const std::string& path() const { return path_; }

 private:
  [[noreturn]] void fail(const std::string& what, const std::string& why) const;
  hid_t check(hid_t id, const char* what) const;
  void check_status(herr_t status, const char* what) const;

  void create(const TrajectoryHeader& header);
  void write_metadata(const TrajectoryHeader& header);
  hdf5::Id make_group(hid_t parent, const char* name) const;
  hdf5::Id make_series(hid_t group, const char* name, hid_t type, bool per_boid, int matrix = 0,
                       std::uint64_t rows = 0) const;
  void create_predators();
  void link_time(hid_t group) const;

  void reserve_frame(std::uint64_t step);
  bool drop_reservation() const;
  void write_frame(const TrajectoryChunks& chunks, const FlockMetrics& m, std::uint64_t at_once);
  void write_row(hid_t dataset, hid_t memory_type, const void* data) const;
  void write_rows(hid_t dataset, int quantity, const TrajectoryChunks& chunks,
                  std::uint64_t at_once);
  void grow(hid_t dataset, hsize_t* dims) const;
  void flush(const char* what) const;
  void commit(std::uint64_t step, double time);
  void abandon();

  std::string path_, temporary_;
  OutputFiles destination_;  // the temporary file beside the destination, renamed at frame 1
  std::uint64_t count_;
  std::uint64_t predators_;  // K, in their own group; 0: none
  int dimensions_;           // 2, or 3: the columns of a position or velocity in the file
  bool flat_in_box_;         // a 2D flock written in three columns: z and vz are zeros_
  std::vector<double> zeros_;
  std::vector<double> edges_;  // the box's D x D matrix, written at every frame
  hdf5::Id file_;
  int fd_ = -1;
  hdf5::Id position_, velocity_, step_, time_, edges_value_;
  hdf5::Id predator_position_, predator_velocity_, predator_edges_, within_reach_;
  std::vector<double> predator_rows_[2];  // the next frame's predators: positions, velocities
  std::array<hdf5::Id, trajectory_writing::kObservables.size()> observables_;
  std::vector<std::vector<unsigned char>> chunks_;  // a batch of compressed chunks
  std::uint64_t frames_ = 0, last_step_ = 0;
  hsize_t committed_size_ = 0;    // the file's size after the last whole frame
  std::optional<XdmfFile> xdmf_;  // the frames' description, beside the file
  bool broken_ = false, closed_ = false;
};

}  // namespace boids
