#include "host/io/trajectory_file.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <array>
#include <cerrno>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <memory>
#include <optional>

#include "host/base/errors.h"
#include "host/base/message_text.h"
#include "host/io/detail/hdf5_support.h"
#include "host/io/detail/trajectory_writer_file.h"
#include "host/io/output_file.h"
#include "host/io/trajectory_chunks.h"
#include "host/io/xdmf_file.h"

namespace boids {

using hdf5::Id;
using trajectory_writing::kObservables;
using trajectory_writing::kOption;

TrajectoryWriter::File::File(const std::string& path, const TrajectoryHeader& header)
    : path_(path),
      count_(header.count),
      predators_(header.predators),
      dimensions_(header.layout_dimensions > 0 ? header.layout_dimensions : header.dimensions),
      flat_in_box_(dimensions_ == 3 && header.dimensions == 2) {
  if (flat_in_box_) zeros_.assign(count_, 0.0);
  const double depth = flat_in_box_ ? 1.0 : header.world.depth;
  const double sides[3] = {header.world.width, header.world.height, depth};
  const auto d = static_cast<std::size_t>(dimensions_);
  edges_.assign(d * d, 0.0);
  for (std::size_t k = 0; k < d; ++k) edges_[k * d + k] = sides[k];
  hdf5::silence_error_printing();
  if (count_ == 0)
    throw RuntimeError("trajectory " + quoted_path(path_) + ": a flock without boids");
  try {
    destination_.add(kOption, path_);
  } catch (const InputError& e) {
    throw RuntimeError(e.what());  // it was checked before the run; it changed since
  }
  temporary_ = destination_.file_to_write(kOption);
  if (header.xdmf) {
    const std::size_t slash = path_.find_last_of('/');
    xdmf_.emplace(xdmf_path_for(path_),
                  XdmfTrajectory{slash == std::string::npos ? path_ : path_.substr(slash + 1),
                                 count_, dimensions_, header.predators});
  }
  try {
    create(header);
  } catch (...) {
    file_.reset();
    throw;
  }
}

TrajectoryWriter::File::~File() {
  if (!closed_) {
    // Whatever failed has been reported: keep the whole frames.
    if (!broken_) static_cast<void>(drop_reservation());
    file_.reset();
  }
}

void TrajectoryWriter::File::fail(const std::string& what, const std::string& why) const {
  std::string message = "trajectory " + quoted_path(path_) + ": " + what + ": " + why;
  if (frames_ > 0) {
    message += "; the file keeps its " + std::to_string(frames_) + " whole frame" +
               (frames_ == 1 ? "" : "s") + ", to step " + std::to_string(last_step_);
  }
  throw RuntimeError(message);
}

hid_t TrajectoryWriter::File::check(hid_t id, const char* what) const {
  if (id < 0) fail(what, hdf5::failure_reason());
  return id;
}

void TrajectoryWriter::File::check_status(herr_t status, const char* what) const {
  if (status < 0) fail(what, hdf5::failure_reason());
}

TrajectoryChunks TrajectoryWriter::File::chunks_of(const FlockState& state) {
  if (state.size() != count_) {
    throw RuntimeError("trajectory " + quoted_path(path_) + ": a frame of " +
                       std::to_string(state.size()) + " boids in a file of " +
                       std::to_string(count_));
  }
  return [this, &state](int quantity, std::uint64_t first,
                        std::vector<std::vector<unsigned char>>& out) {
    const FrameColumns columns = frame_columns(state, dimensions_, zeros_);
    compress_row_chunks(quantity == 0 ? columns.position.data() : columns.velocity.data(),
                        dimensions_, count_, frame_layout().chunk_boids, first,
                        kTrajectoryDeflateLevel, out);
  };
}

void TrajectoryWriter::File::append(std::uint64_t step, double time, const TrajectoryChunks& chunks,
                                    const FlockMetrics& m, std::uint64_t at_once) {
  if (broken_ || closed_)
    throw RuntimeError("trajectory " + quoted_path(path_) + ": the file is closed");
  if (frames_ > 0 && step <= last_step_) {
    throw RuntimeError("trajectory " + quoted_path(path_) + ": step " + std::to_string(step) +
                       " does not follow step " + std::to_string(last_step_));
  }
  if (predators_ > 0 && predator_rows_[0].size() != predators_ * dimensions_) {
    throw RuntimeError("trajectory " + quoted_path(path_) + ": a frame without its predators");
  }
  reserve_frame(step);
  try {
    write_frame(chunks, m, std::max<std::uint64_t>(at_once, 1));
    commit(step, time);
  } catch (...) {
    abandon();
    throw;
  }
}

// Claims the disk space the frame can take before any of it is written: compressed data is at
// most its raw size and deflate's worst-case growth, and a megabyte covers the metadata a
// frame adds (B-tree nodes, the series' next chunks). A full disk or a file-size limit fails
// here, while the file on disk is still the last whole frame's.
void TrajectoryWriter::File::reserve_frame(std::uint64_t step) {
  const std::uint64_t raw =
      (count_ + predators_) * 2 * static_cast<std::uint64_t>(dimensions_) * sizeof(double) +
      (kObservables.size() + 3 + 2 * edges_.size()) * 8;
  const std::uint64_t bytes = raw + raw / 64 + (1u << 20);
  int error;
  do {
    error = posix_fallocate(fd_, static_cast<off_t>(committed_size_), static_cast<off_t>(bytes));
  } while (error == EINTR);
  if (error == 0) return;
  broken_ = true;
  static_cast<void>(drop_reservation());  // what it did allocate lies beyond every frame
  fail("cannot write the frame at step " + std::to_string(step), std::strerror(error));
}

void TrajectoryWriter::File::write_frame(const TrajectoryChunks& chunks, const FlockMetrics& m,
                                         std::uint64_t at_once) {
  write_rows(position_.get(), 0, chunks, at_once);
  write_rows(velocity_.get(), 1, chunks, at_once);
  write_row(edges_value_.get(), H5T_NATIVE_DOUBLE, edges_.data());
  const double reals[] = {m.polarization,     m.order,          0,        0,
                          m.mean_nn_distance, m.mean_neighbors, m.milling};
  const std::int64_t wholes[] = {0, 0, static_cast<std::int64_t>(m.flocks),
                                 static_cast<std::int64_t>(m.largest_flock)};
  for (std::size_t i = 0; i < kObservables.size(); ++i) {
    if (i == 2 || i == 3) {
      write_row(observables_[i].get(), H5T_NATIVE_INT64, &wholes[i]);
    } else {
      write_row(observables_[i].get(), H5T_NATIVE_DOUBLE, &reals[i]);
    }
  }
  if (predators_ > 0) {
    write_row(predator_position_.get(), H5T_NATIVE_DOUBLE, predator_rows_[0].data());
    write_row(predator_velocity_.get(), H5T_NATIVE_DOUBLE, predator_rows_[1].data());
    write_row(predator_edges_.get(), H5T_NATIVE_DOUBLE, edges_.data());
    const auto within = static_cast<std::int64_t>(m.within_reach);
    write_row(within_reach_.get(), H5T_NATIVE_INT64, &within);
  }
}

// Grows the dataset to frames_ + 1 rows; `dims` receives its new shape.
void TrajectoryWriter::File::grow(hid_t dataset, hsize_t* dims) const {
  const char* what = "cannot write a frame";
  {
    const Id space(check(H5Dget_space(dataset), what), H5Sclose);
    check(H5Sget_simple_extent_dims(space.get(), dims, nullptr), what);
  }
  dims[0] = frames_ + 1;
  check_status(H5Dset_extent(dataset, dims), what);
}

// A frame of every boid's positions (`quantity` 0) or velocities (1), compressed by `chunks`
// `at_once` chunks at a time and written chunk by chunk.
void TrajectoryWriter::File::write_rows(hid_t dataset, int quantity, const TrajectoryChunks& chunks,
                                        std::uint64_t at_once) {
  hsize_t dims[3] = {0, 0, 0};
  grow(dataset, dims);
  const std::uint64_t boids = frame_layout().chunk_boids;
  const std::uint64_t all = (count_ + boids - 1) / boids;
  for (std::uint64_t first = 0; first < all; first += at_once) {
    chunks_.resize(std::min<std::uint64_t>(at_once, all - first));
    chunks(quantity, first, chunks_);
    for (std::size_t c = 0; c < chunks_.size(); ++c) {
      const hsize_t offset[3] = {frames_, (first + c) * boids, 0};
      check_status(
          H5Dwrite_chunk(dataset, H5P_DEFAULT, 0, offset, chunks_[c].size(), chunks_[c].data()),
          "cannot write a frame");
    }
  }
}

// Grows the dataset by a row and writes `data` into it.
void TrajectoryWriter::File::write_row(hid_t dataset, hid_t memory_type, const void* data) const {
  const char* what = "cannot write a frame";
  hsize_t dims[3] = {0, 0, 0};
  grow(dataset, dims);
  const int rank = dims[1] > 0 ? 3 : 1;
  const hsize_t start[3] = {frames_, 0, 0};
  const hsize_t count[3] = {1, dims[1], dims[2]};
  const Id file_space(check(H5Dget_space(dataset), what), H5Sclose);
  check_status(
      H5Sselect_hyperslab(file_space.get(), H5S_SELECT_SET, start, nullptr, count, nullptr), what);
  const Id memory_space(check(H5Screate_simple(rank, count, nullptr), what), H5Sclose);
  check_status(
      H5Dwrite(dataset, memory_type, memory_space.get(), file_space.get(), H5P_DEFAULT, data),
      what);
}

// Cuts the file back to its last whole frame: the reservation's unused space goes; nothing
// refers to it.
bool TrajectoryWriter::File::drop_reservation() const {
  return fd_ < 0 || ftruncate(fd_, static_cast<off_t>(committed_size_)) == 0;
}

void TrajectoryWriter::File::flush(const char* what) const {
  check_status(H5Fflush(file_.get(), H5F_SCOPE_GLOBAL), what);
}

// The frame's data is on disk; now its step and time make it count. The first whole frame
// replaces the destination.
void TrajectoryWriter::File::commit(std::uint64_t step, double time) {
  const char* what = "cannot write a frame";
  flush(what);
  const std::int64_t step_value = static_cast<std::int64_t>(step);
  write_row(step_.get(), H5T_NATIVE_INT64, &step_value);
  write_row(time_.get(), H5T_NATIVE_DOUBLE, &time);
  flush(what);
  check_status(H5Fget_filesize(file_.get(), &committed_size_), what);
  if (frames_ == 0) {
    try {
      destination_.written_externally(kOption);  // flushed to disk, the mode it should have
      destination_.commit();
    } catch (const RuntimeError& e) {
      fail("cannot replace the file", e.what());
    }
  }
  ++frames_;
  last_step_ = step;
  if (xdmf_) xdmf_->append(time);  // once the frame is whole: it describes whole frames alone
}

// After a write failed midway HDF5's caches may describe what is not on disk: nothing more
// may reach the file. Its descriptor is pointed at /dev/null, read-only, so that closing
// writes nothing.
void TrajectoryWriter::File::abandon() {
  broken_ = true;
  const int null = open("/dev/null", O_RDONLY);
  if (null >= 0) {
    dup2(null, fd_);
    ::close(null);
  }
}

void TrajectoryWriter::File::close() {
  if (closed_) return;
  closed_ = true;
  const char* what = "cannot close the file";
  if (broken_) {
    file_.reset();
    return;
  }
  flush(what);
  if (!drop_reservation() || fsync(fd_) != 0) fail(what, std::strerror(errno));
  if (!file_.reset()) fail(what, hdf5::failure_reason());
}

TrajectoryWriter::TrajectoryWriter(const std::string& path, const TrajectoryHeader& header)
    : file_(std::make_unique<File>(path, header)) {}

TrajectoryWriter::~TrajectoryWriter() = default;

void TrajectoryWriter::append(std::uint64_t step, double time, const FlockState& state,
                              const FlockMetrics& metrics) {
  file_->take_predators(state.predators);
  file_->append(step, time, file_->chunks_of(state), metrics);
}

void TrajectoryWriter::append(std::uint64_t step, double time, const TrajectoryChunks& chunks,
                              const FlockMetrics& metrics, std::uint64_t at_once) {
  file_->append(step, time, chunks, metrics, at_once);
}

TrajectoryFrameLayout TrajectoryWriter::frame_layout() const {
  return file_->frame_layout();
}

void TrajectoryWriter::close() {
  file_->close();
}

std::uint64_t TrajectoryWriter::frames() const {
  return file_->frames();
}

const std::string& TrajectoryWriter::path() const {
  return file_->path();
}

}  // namespace boids
