#include "host/io/trajectory_reader.h"

#include <hdf5.h>

#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cmath>
#include <cstring>

#include "host/base/errors.h"
#include "host/base/memory.h"
#include "host/base/message_text.h"
#include "host/io/detail/hdf5_support.h"
#include "host/io/trajectory_file.h"

namespace boids {

using hdf5::Id;

class TrajectoryReader::File {
 public:
  explicit File(const std::string& path) : path_(path) {
    hdf5::silence_error_printing();
    if (access(path.c_str(), R_OK) != 0) refuse(std::string("cannot read it: ") + strerror(errno));
    file_ = Id(H5Fopen(path.c_str(), H5F_ACC_RDONLY, H5P_DEFAULT), H5Fclose);
    if (!file_.valid()) {
      const std::string reason = hdf5::failure_reason();
      if (reason.find("lock") != std::string::npos) {
        refuse("locked by the process writing it (HDF5's file lock: " + reason +
               "); read it once that run has ended");
      }
      refuse("not an HDF5 file that can be read (" + reason + ")");
    }
    if (H5Lexists(file_.get(), "h5md", H5P_DEFAULT) <= 0) refuse("not an H5MD file (no /h5md)");
    position_ = dataset("/particles/flock/position/value");
    velocity_ = dataset("/particles/flock/velocity/value");
    const std::vector<hsize_t> shape = shape_of(position_, "position");
    if (shape.size() != 3 || (shape[2] != 2 && shape[2] != 3) || shape[1] == 0) {
      refuse("its positions are not (frames, N, 2) or (frames, N, 3)");
    }
    if (shape_of(velocity_, "velocity") != shape)
      refuse("its velocities and positions differ in shape");
    count_ = shape[1];
    columns_ = dimensions_ = static_cast<int>(shape[2]);
    // A flat flock in a box one unit deep (the default layout, which every reader of 3D files
    // opens): its z column is 0, and the flock it holds is the two-dimensional one its run
    // flew, as its parameters say.
    if (columns_ == 3 && number_attribute("/parameters", "dimensions") == 2.0) dimensions_ = 2;
    if (count_ > kMaxBoids) {
      refuse("it declares " + std::to_string(count_) + " boids, more than a flock holds (" +
             std::to_string(kMaxBoids) + ")");
    }
    steps_ = series<std::int64_t>("/particles/flock/position/step", H5T_NATIVE_INT64);
    times_ = series<double>("/particles/flock/position/time", H5T_NATIVE_DOUBLE);
    // Whole frames: those whose step was written (it is written last), every series long enough.
    frames_ = std::min<std::uint64_t>({steps_.size(), times_.size(), std::uint64_t{shape[0]}});
    steps_.resize(frames_);
    times_.resize(frames_);
    read_box();
    if (H5Lexists(file_.get(), "/particles/predators", H5P_DEFAULT) > 0) read_predators();
  }

  [[noreturn]] void refuse(const std::string& why) const {
    throw InputError("trajectory " + quoted_path(path_) + ": " + why);
  }

  FlockState frame(std::uint64_t k) const {
    if (k >= frames_) {
      refuse("it has no frame " + std::to_string(k) + " (it holds " + std::to_string(frames_) +
             " whole frames)");
    }
    // The frame as read (positions and velocities) and as returned: four times its values.
    const std::uint64_t values = (count_ + predators_) * static_cast<std::uint64_t>(columns_);
    check_memory_fits(4 * 2 * values * sizeof(double), available_host_memory(),
                      "frame " + std::to_string(k) + " of trajectory " + quoted_path(path_),
                      "memory", host_memory_holder());
    FlockState s;
    s.dimensions = s.predators.dimensions = dimensions_;
    read_particles(position_, velocity_, k, count_, s);
    read_particles(predator_position_, predator_velocity_, k, predators_, s.predators);
    check_frame(k, s, "boid");
    check_frame(k, s.predators, "predator");
    return s;
  }

  // Refuses a frame holding a value no run writes: a coordinate or a velocity that is not a
  // finite number, or a position outside the box.
  void check_frame(std::uint64_t k, const Particles& p, const char* what) const {
    const std::vector<double>* positions[3] = {&p.x, &p.y, &p.z};
    const std::vector<double>* velocities[3] = {&p.vx, &p.vy, &p.vz};
    const double sides[3] = {world_.width, world_.height, world_.depth};
    const char* axes[3] = {"x", "y", "z"};
    const char* speeds[3] = {"vx", "vy", "vz"};
    const auto where = [&](std::size_t i) {
      return "frame " + std::to_string(k) + ", " + what + " " + std::to_string(i) + ": ";
    };
    for (std::size_t i = 0; i < p.size(); ++i) {
      for (int a = 0; a < dimensions_; ++a) {
        const double x = (*positions[a])[i], v = (*velocities[a])[i];
        if (!std::isfinite(x) || !std::isfinite(v)) {
          refuse(where(i) + (std::isfinite(x) ? speeds[a] : axes[a]) + " = " +
                 number_text(std::isfinite(x) ? v : x) + " is not a finite number");
        }
        if (!world_.holds(a, x)) {
          refuse(where(i) + axes[a] + " = " + number_text(x) + " lies outside the box [0, " +
                 number_text(sides[a]) + ")");
        }
      }
    }
  }

  std::uint64_t frames_ = 0, count_ = 0, predators_ = 0;
  int dimensions_ = 2;  // the flock's
  int columns_ = 2;     // the file's: 3 for a flat flock in a box
  std::vector<std::int64_t> steps_;
  std::vector<double> times_;
  World world_;

 private:
  Id dataset(const char* name) const {
    if (H5Lexists(file_.get(), "/particles", H5P_DEFAULT) <= 0 ||
        H5Lexists(file_.get(), "/particles/flock", H5P_DEFAULT) <= 0) {
      refuse("no particle group /particles/flock (not a trajectory boids wrote)");
    }
    Id id(H5Dopen2(file_.get(), name, H5P_DEFAULT), H5Dclose);
    if (!id.valid()) refuse(std::string("no dataset ") + name);
    return id;
  }

  std::vector<hsize_t> shape_of(const Id& set, const char* what) const {
    const Id space(H5Dget_space(set.get()), H5Sclose);
    const int rank = space.valid() ? H5Sget_simple_extent_ndims(space.get()) : -1;
    if (rank < 1 || rank > 3) refuse(std::string("its ") + what + " dataset has no usable shape");
    std::vector<hsize_t> dims(static_cast<std::size_t>(rank));
    H5Sget_simple_extent_dims(space.get(), dims.data(), nullptr);
    return dims;
  }

  template <typename T>
  std::vector<T> series(const char* name, hid_t type) const {
    const Id set = dataset(name);
    const std::vector<hsize_t> shape = shape_of(set, name);
    if (shape.size() != 1) refuse(std::string(name) + " is not a series");
    std::vector<T> values(shape[0]);
    if (!values.empty() &&
        H5Dread(set.get(), type, H5S_ALL, H5S_ALL, H5P_DEFAULT, values.data()) < 0) {
      refuse(std::string("cannot read ") + name + ": " + hdf5::failure_reason());
    }
    return values;
  }

  // The box's sides from its edges' last frame (a matrix of edge vectors; a vector in files
  // from before the box was an element), and its boundary.
  void read_box() {
    world_ = World{};
    const bool element =
        H5Lexists(file_.get(), "/particles/flock/box/edges/value", H5P_DEFAULT) > 0;
    const Id edges =
        dataset(element ? "/particles/flock/box/edges/value" : "/particles/flock/box/edges");
    const std::vector<hsize_t> shape = shape_of(edges, "box edges");
    std::size_t total = 1;
    for (const hsize_t n : shape) total *= n;
    std::vector<double> values(total);
    if (total == 0 ||
        H5Dread(edges.get(), H5T_NATIVE_DOUBLE, H5S_ALL, H5S_ALL, H5P_DEFAULT, values.data()) < 0) {
      refuse("cannot read its box");
    }
    const auto d = static_cast<std::size_t>(columns_);
    const std::size_t needed = element ? d * d : d;
    if (values.size() < needed) {
      refuse("its box's edges hold " + std::to_string(values.size()) + " values, fewer than the " +
             std::to_string(needed) + " of a box in " + std::to_string(d) + " dimensions");
    }
    double sides[3] = {0, 0, 1};
    for (std::size_t a = 0; a < d; ++a) {
      sides[a] = element ? values[values.size() - d * d + a * d + a] : values[a];
      if (!(std::isfinite(sides[a]) && sides[a] > 0)) {
        refuse("its box's side " + std::to_string(a + 1) + " is " + number_text(sides[a]) +
               ", not a positive number");
      }
    }
    world_.width = sides[0];
    world_.height = sides[1];
    world_.depth = sides[2];
    const Id box(H5Gopen2(file_.get(), "/particles/flock/box", H5P_DEFAULT), H5Gclose);
    world_.boundary = Boundary::kTorus;
    if (first_text(box, "boundary", d) == "none") world_.boundary = Boundary::kWalls;
    if (first_text(box, "space", 1) == "open") world_.boundary = Boundary::kOpen;
  }

  // The first of the `count` fixed-length strings of attribute `name` of `group`; "" where
  // there is none.
  static std::string first_text(const Id& group, const char* name, std::size_t count) {
    if (!group.valid() || H5Aexists(group.get(), name) <= 0) return "";
    const Id attribute(H5Aopen(group.get(), name, H5P_DEFAULT), H5Aclose);
    const Id type(H5Aget_type(attribute.get()), H5Tclose);
    const std::size_t size = H5Tget_size(type.get());
    std::vector<char> text(size * count + 1, '\0');
    if (H5Tget_class(type.get()) != H5T_STRING || H5Tis_variable_str(type.get()) ||
        H5Aread(attribute.get(), type.get(), text.data()) < 0) {
      return "";
    }
    std::string first(text.data(), strnlen(text.data(), size));
    while (!first.empty() && first.back() == ' ') first.pop_back();  // space-padded
    return first;
  }

  // The predators' group (--predators), sampled with the flock: as many frames at least.
  void read_predators() {
    predator_position_ = dataset("/particles/predators/position/value");
    predator_velocity_ = dataset("/particles/predators/velocity/value");
    const std::vector<hsize_t> shape = shape_of(predator_position_, "predators' position");
    if (shape.size() != 3 || shape[2] != static_cast<hsize_t>(columns_) || shape[0] < frames_ ||
        shape_of(predator_velocity_, "predators' velocity") != shape) {
      refuse("its predators' positions and velocities are not (frames, K, D) beside the flock's");
    }
    predators_ = shape[1];
  }

  // Particles 0 .. n - 1 of frame k from its position and velocity datasets, into `out`.
  void read_particles(const Id& position, const Id& velocity, std::uint64_t k, std::uint64_t n,
                      Particles& out) const {
    out.resize(n);
    if (n == 0) return;
    const auto c = static_cast<std::size_t>(columns_), d = static_cast<std::size_t>(dimensions_);
    std::vector<double> p(n * c), v(n * c);
    read_row(position, k, n, p);
    read_row(velocity, k, n, v);
    std::vector<double>* const positions[3] = {&out.x, &out.y, &out.z};
    std::vector<double>* const velocities[3] = {&out.vx, &out.vy, &out.vz};
    for (std::size_t i = 0; i < n; ++i) {
      for (std::size_t a = 0; a < d; ++a) {
        (*positions[a])[i] = p[i * c + a];
        (*velocities[a])[i] = v[i * c + a];
      }
      // A flat flock's third column holds nothing but zeros: anything else is not its flight.
      if (c > d && (p[i * c + d] != 0.0 || v[i * c + d] != 0.0)) {
        refuse("frame " + std::to_string(k) + ", particle " + std::to_string(i) +
               ": z = " + number_text(p[i * c + d]) + ", vz = " + number_text(v[i * c + d]) +
               " in a flat flock's file (its parameters say 2 dimensions), not 0");
      }
    }
  }

  void read_row(const Id& set, std::uint64_t k, std::uint64_t n, std::vector<double>& out) const {
    const auto d = static_cast<hsize_t>(columns_);
    const hsize_t start[3] = {k, 0, 0}, count[3] = {1, n, d};
    const Id file_space(H5Dget_space(set.get()), H5Sclose);
    const Id memory(H5Screate_simple(3, count, nullptr), H5Sclose);
    if (H5Sselect_hyperslab(file_space.get(), H5S_SELECT_SET, start, nullptr, count, nullptr) < 0 ||
        H5Dread(set.get(), H5T_NATIVE_DOUBLE, memory.get(), file_space.get(), H5P_DEFAULT,
                out.data()) < 0) {
      refuse("cannot read frame " + std::to_string(k) + ": " + hdf5::failure_reason());
    }
  }

 public:
  // A series of numbers as doubles, its whole frames only; none where the file lacks it or
  // holds something else there (an observable is the run's record, not needed to replay).
  std::vector<double> optional_series(const std::string& name) const {
    if (H5Lexists(file_.get(), name.c_str(), H5P_DEFAULT) <= 0) return {};
    const Id set(H5Dopen2(file_.get(), name.c_str(), H5P_DEFAULT), H5Dclose);
    if (!set.valid()) return {};
    const Id space(H5Dget_space(set.get()), H5Sclose);
    if (!space.valid() || H5Sget_simple_extent_ndims(space.get()) != 1) return {};
    hsize_t length = 0;
    H5Sget_simple_extent_dims(space.get(), &length, nullptr);
    std::vector<double> values(length);
    if (length == 0 ||
        H5Dread(set.get(), H5T_NATIVE_DOUBLE, H5S_ALL, H5S_ALL, H5P_DEFAULT, values.data()) < 0) {
      return {};
    }
    values.resize(std::min<std::uint64_t>(values.size(), frames_));
    return values;
  }

  std::optional<double> number_attribute(const char* group, const std::string& name) const {
    if (H5Lexists(file_.get(), group, H5P_DEFAULT) <= 0) return std::nullopt;
    const Id g(H5Gopen2(file_.get(), group, H5P_DEFAULT), H5Gclose);
    if (!g.valid() || H5Aexists(g.get(), name.c_str()) <= 0) return std::nullopt;
    const Id attribute(H5Aopen(g.get(), name.c_str(), H5P_DEFAULT), H5Aclose);
    const Id space(H5Aget_space(attribute.get()), H5Sclose);
    const Id type(H5Aget_type(attribute.get()), H5Tclose);
    const H5T_class_t kind = H5Tget_class(type.get());
    double value = 0;
    if ((kind != H5T_FLOAT && kind != H5T_INTEGER) ||
        H5Sget_simple_extent_npoints(space.get()) != 1 ||
        H5Aread(attribute.get(), H5T_NATIVE_DOUBLE, &value) < 0) {
      return std::nullopt;
    }
    return value;
  }

 private:
  std::string path_;
  Id file_, position_, velocity_, predator_position_, predator_velocity_;
};

TrajectoryReader::TrajectoryReader(const std::string& path) : file_(std::make_unique<File>(path)) {}
TrajectoryReader::~TrajectoryReader() = default;
std::uint64_t TrajectoryReader::frames() const {
  return file_->frames_;
}
std::uint64_t TrajectoryReader::count() const {
  return file_->count_;
}
std::uint64_t TrajectoryReader::predators() const {
  return file_->predators_;
}
int TrajectoryReader::dimensions() const {
  return file_->dimensions_;
}
int TrajectoryReader::columns() const {
  return file_->columns_;
}
const std::vector<std::int64_t>& TrajectoryReader::steps() const {
  return file_->steps_;
}
const std::vector<double>& TrajectoryReader::times() const {
  return file_->times_;
}
World TrajectoryReader::world() const {
  return file_->world_;
}
FlockState TrajectoryReader::frame(std::uint64_t k) const {
  return file_->frame(k);
}
std::map<std::string, std::vector<double>> TrajectoryReader::observables() const {
  std::map<std::string, std::vector<double>> found;
  std::vector<std::string> names(kTrajectoryObservables.begin(), kTrajectoryObservables.end());
  names.push_back("within_reach");  // with predators
  for (const std::string& name : names) {
    std::vector<double> values = file_->optional_series("/observables/" + name + "/value");
    if (!values.empty()) found.emplace(name, std::move(values));
  }
  return found;
}
std::optional<double> TrajectoryReader::parameter(const std::string& name) const {
  return file_->number_attribute("/parameters", name);
}

}  // namespace boids
