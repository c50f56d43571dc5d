// The trajectory file's H5MD layout, made when the writer creates it: the groups of the flock
// (and its predators) with their time-dependent datasets, the box, the observables and the
// metadata (host/io/trajectory_file.h).
#include <algorithm>
#include <cstdint>
#include <cstring>
#include <string>
#include <type_traits>
#include <variant>
#include <vector>

#include "host/base/errors.h"
#include "host/base/message_text.h"
#include "host/io/detail/hdf5_support.h"
#include "host/io/detail/trajectory_writer_file.h"

namespace boids {

using hdf5::Id;
using trajectory_writing::kObservables;
using trajectory_writing::kSeriesChunk;

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
    // Open space has no box: its edges are the start's region, and `space` says so to readers
    // that know it (H5MD's own boundary, none, is the walls').
    if (header.world.open()) {
      check_status(
          hdf5::write_attribute(box.get(), "space", std::vector<std::string>{std::string("open")}),
          what);
    }
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

}  // namespace boids
