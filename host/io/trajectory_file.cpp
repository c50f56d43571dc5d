#include "host/io/trajectory_file.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <array>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <optional>

#include "host/base/errors.h"
#include "host/base/message_text.h"
#include "host/io/detail/hdf5_support.h"
#include "host/io/output_file.h"
#include "host/io/trajectory_chunks.h"
#include "host/io/xdmf_file.h"

namespace boids {
namespace {

using hdf5::Id;

// Chunks compressed at a time: enough for every thread, few enough that a frame of a hundred
// million boids is not held compressed whole.
constexpr std::size_t kChunkBatch = 64;
// Frames per chunk of the one-number-per-frame series (step, time, the observables).
constexpr hsize_t kSeriesChunk = 256;

constexpr const char* kOption = "--trajectory";

constexpr std::array<const char*, 6> kObservables = {
    "polarization", "order", "flocks", "largest_flock", "mean_nn_distance", "mean_neighbors"};

}  // namespace

class TrajectoryWriter::File {
 public:
  File(const std::string& path, const TrajectoryHeader& header);
  ~File();

  void append(std::uint64_t step, double time, const TrajectoryChunks& chunks,
              const FlockMetrics& m, std::uint64_t at_once = kChunkBatch);
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
  Id make_group(hid_t parent, const char* name) const;
  Id make_series(hid_t group, const char* name, hid_t type, bool per_boid, int matrix = 0,
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
  Id file_;
  int fd_ = -1;
  Id position_, velocity_, step_, time_, edges_value_;
  Id predator_position_, predator_velocity_, predator_edges_, within_reach_;
  std::vector<double> predator_rows_[2];  // the next frame's predators: positions, velocities
  std::array<Id, kObservables.size()> observables_;
  std::vector<std::vector<unsigned char>> chunks_;  // a batch of compressed chunks
  std::uint64_t frames_ = 0, last_step_ = 0;
  hsize_t committed_size_ = 0;    // the file's size after the last whole frame
  std::optional<XdmfFile> xdmf_;  // the frames' description, beside the file
  bool broken_ = false, closed_ = false;
};

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

void TrajectoryWriter::File::create(const TrajectoryHeader& header) {
  // The sec2 driver, whose handle is a file descriptor (for the reservations); objects closed
  // with the file; the oldest file format, which every reader opens and which keeps no
  // "open for writing" flag that would lock readers out of a killed run's file.
  const Id access(check(H5Pcreate(H5P_FILE_ACCESS), "cannot create the file"), H5Pclose);
  check_status(H5Pset_fapl_sec2(access.get()), "cannot create the file");
  check_status(H5Pset_fclose_degree(access.get(), H5F_CLOSE_STRONG), "cannot create the file");
  file_ = Id(check(H5Fcreate(temporary_.c_str(), H5F_ACC_TRUNC, H5P_DEFAULT, access.get()),
                   "cannot create the file"),
             H5Fclose);
  int* handle = nullptr;
  check_status(H5Fget_vfd_handle(file_.get(), H5P_DEFAULT, reinterpret_cast<void**>(&handle)),
               "cannot create the file");
  fd_ = *handle;
  write_metadata(header);

  const Id particles = make_group(file_.get(), "particles");
  const Id flock = make_group(particles.get(), "flock");
  const Id position = make_group(flock.get(), "position");
  step_ = make_series(position.get(), "step", H5T_STD_I64LE, false);
  time_ = make_series(position.get(), "time", H5T_IEEE_F64LE, false);
  position_ = make_series(position.get(), "value", H5T_IEEE_F64LE, true);
  const Id edges = make_group(make_group(flock.get(), "box").get(), "edges");
  link_time(edges.get());
  edges_value_ = make_series(edges.get(), "value", H5T_IEEE_F64LE, false, dimensions_);
  const Id velocity = make_group(flock.get(), "velocity");
  link_time(velocity.get());
  velocity_ = make_series(velocity.get(), "value", H5T_IEEE_F64LE, true);
  const Id observables = make_group(file_.get(), "observables");
  for (std::size_t i = 0; i < kObservables.size(); ++i) {
    const Id group = make_group(observables.get(), kObservables[i]);
    link_time(group.get());
    const bool whole = i == 2 || i == 3;  // flocks, largest_group
    observables_[i] =
        make_series(group.get(), "value", whole ? H5T_STD_I64LE : H5T_IEEE_F64LE, false);
  }
  if (predators_ > 0) create_predators();
  flush("cannot create the file");
  committed_size_ = 0;
  check_status(H5Fget_filesize(file_.get(), &committed_size_), "cannot create the file");
}

void TrajectoryWriter::File::write_metadata(const TrajectoryHeader& header) {
  const char* what = "cannot write the file's header";
  const Id h5md = make_group(file_.get(), "h5md");
  check_status(hdf5::write_attribute(h5md.get(), "version", std::vector<long long>{1, 1}), what);
  const Id author = make_group(h5md.get(), "author");
  check_status(hdf5::write_attribute(author.get(), "name", std::string("boids")), what);
  const Id creator = make_group(h5md.get(), "creator");
  check_status(hdf5::write_attribute(creator.get(), "name", std::string("boids")), what);
  check_status(hdf5::write_attribute(creator.get(), "version", header.creator_version), what);

  const Id particles = make_group(file_.get(), "particles");
  for (const char* group : {"flock", "predators"}) {
    if (predators_ == 0 && std::strcmp(group, "predators") == 0) continue;
    const Id box = make_group(make_group(particles.get(), group).get(), "box");
    const auto dimensions = static_cast<std::size_t>(dimensions_);
    check_status(hdf5::write_attribute(box.get(), "dimension", static_cast<long long>(dimensions)),
                 what);
    // A flat flock's box is flat along z: no boundary there.
    std::vector<std::string> boundary(dimensions, header.world.torus() ? "periodic" : "none");
    if (flat_in_box_) boundary[2] = "none";
    check_status(hdf5::write_attribute(box.get(), "boundary", boundary), what);
  }

  const Id parameters = make_group(file_.get(), "parameters");
  for (const auto& [name, value] : header.parameters) {
    const herr_t status = std::visit(
        [&](const auto& v) {
          using T = std::decay_t<decltype(v)>;
          if constexpr (std::is_same_v<T, std::int64_t>) {
            return hdf5::write_attribute(parameters.get(), name.c_str(), static_cast<long long>(v));
          } else {
            return hdf5::write_attribute(parameters.get(), name.c_str(), v);
          }
        },
        value);
    check_status(status, what);
  }
}

// The predators' group, beside the flock's and sampled with it, and their observable.
void TrajectoryWriter::File::create_predators() {
  const Id group = make_group(make_group(file_.get(), "particles").get(), "predators");
  const Id position = make_group(group.get(), "position");
  link_time(position.get());
  predator_position_ = make_series(position.get(), "value", H5T_IEEE_F64LE, true, 0, predators_);
  const Id velocity = make_group(group.get(), "velocity");
  link_time(velocity.get());
  predator_velocity_ = make_series(velocity.get(), "value", H5T_IEEE_F64LE, true, 0, predators_);
  const Id edges = make_group(make_group(group.get(), "box").get(), "edges");
  link_time(edges.get());
  predator_edges_ = make_series(edges.get(), "value", H5T_IEEE_F64LE, false, dimensions_);
  const Id reach = make_group(make_group(file_.get(), "observables").get(), "within_reach");
  link_time(reach.get());
  within_reach_ = make_series(reach.get(), "value", H5T_STD_I64LE, false);
}

// The predators of the next frame, as rows of the file's columns (z = 0 for a flat flock).
void TrajectoryWriter::File::take_predators(const Particles& q) {
  if (q.size() != predators_) {
    throw RuntimeError("trajectory " + quoted_path(path_) + ": a frame of " +
                       std::to_string(q.size()) + " predators in a file of " +
                       std::to_string(predators_));
  }
  const auto d = static_cast<std::size_t>(dimensions_);
  const bool box = q.dimensions == 3;
  for (std::vector<double>& rows : predator_rows_) rows.assign(d * q.size(), 0.0);
  for (std::size_t k = 0; k < q.size(); ++k) {
    const double x[3] = {q.x[k], q.y[k], box ? q.z[k] : 0.0};
    const double v[3] = {q.vx[k], q.vy[k], box ? q.vz[k] : 0.0};
    for (std::size_t a = 0; a < d; ++a) {
      predator_rows_[0][d * k + a] = x[a];
      predator_rows_[1][d * k + a] = v[a];
    }
  }
}

// Opens the group, creating it the first time.
Id TrajectoryWriter::File::make_group(hid_t parent, const char* name) const {
  const htri_t exists = H5Lexists(parent, name, H5P_DEFAULT);
  const hid_t id = exists > 0 ? H5Gopen2(parent, name, H5P_DEFAULT)
                              : H5Gcreate2(parent, name, H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT);
  return Id(check(id, "cannot create a group"), H5Gclose);
}

// A dataset that grows by a row a frame: (frames) for the series, (frames, M, M) for a series
// of M x M matrices, (frames, N, D) per boid (N: `rows`, or the flock's count), chunked
// (1, min(N, kTrajectoryChunkBoids), D), byte-shuffled and deflated.
Id TrajectoryWriter::File::make_series(hid_t group, const char* name, hid_t type, bool per_boid,
                                       int matrix, std::uint64_t rows) const {
  const char* what = "cannot create a dataset";
  const int rank = per_boid || matrix > 0 ? 3 : 1;
  const auto d = static_cast<hsize_t>(dimensions_);
  const auto m = static_cast<hsize_t>(matrix);
  const hsize_t n = rows > 0 ? rows : count_;
  const hsize_t dims[3] = {0, per_boid ? n : m, per_boid ? d : m};
  const hsize_t most[3] = {H5S_UNLIMITED, dims[1], dims[2]};
  hsize_t chunk[3] = {1, std::min<hsize_t>(n, kTrajectoryChunkBoids), d};
  if (!per_boid) chunk[0] = kSeriesChunk, chunk[1] = m, chunk[2] = m;
  const Id space(check(H5Screate_simple(rank, dims, most), what), H5Sclose);
  const Id layout(check(H5Pcreate(H5P_DATASET_CREATE), what), H5Pclose);
  check_status(H5Pset_chunk(layout.get(), rank, chunk), what);
  if (per_boid) {
    check_status(H5Pset_shuffle(layout.get()), what);
    check_status(H5Pset_deflate(layout.get(), static_cast<unsigned>(kTrajectoryDeflateLevel)),
                 what);
  }
  return Id(
      check(H5Dcreate2(group, name, type, space.get(), H5P_DEFAULT, layout.get(), H5P_DEFAULT),
            what),
      H5Dclose);
}

// Every element is sampled at the position's frames: its step and time are the position's.
void TrajectoryWriter::File::link_time(hid_t group) const {
  const char* what = "cannot create a link";
  check_status(H5Lcreate_hard(file_.get(), "/particles/flock/position/step", group, "step",
                              H5P_DEFAULT, H5P_DEFAULT),
               what);
  check_status(H5Lcreate_hard(file_.get(), "/particles/flock/position/time", group, "time",
                              H5P_DEFAULT, H5P_DEFAULT),
               what);
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
  const double reals[] = {m.polarization, m.order, 0, 0, m.mean_nn_distance, m.mean_neighbours};
  const std::int64_t wholes[] = {0, 0, static_cast<std::int64_t>(m.groups),
                                 static_cast<std::int64_t>(m.largest_group)};
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
