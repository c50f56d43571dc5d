// The H5MD trajectory writer: the layout and values read back with HDF5's C API, the file
// replaced only at the first whole frame, and the whole frames kept when the disk fills or the
// writer is killed.
#include <fcntl.h>
#include <gtest/gtest.h>
#include <hdf5.h>
#include <signal.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include "host/base/errors.h"
#include "host/io/trajectory_file.h"
#include "tests/support/test_directory.h"

namespace {

namespace fs = std::filesystem;
using boids::FlockMetrics;
using boids::FlockState;
using boids::TrajectoryHeader;
using boids::TrajectoryWriter;

// Frame f of a flock of n: every number distinct, and exactly representable.
FlockState frame_state(std::uint64_t n, std::uint64_t f) {
  FlockState s;
  s.resize(n);
  for (std::uint64_t i = 0; i < n; ++i) {
    s.x[i] = static_cast<double>(f) + static_cast<double>(i) / 4;
    s.y[i] = static_cast<double>(f) * 2 + static_cast<double>(i) / 8;
    s.vx[i] = -static_cast<double>(i) - 0.5 * static_cast<double>(f);
    s.vy[i] = 1.0 / static_cast<double>(i + f + 1);
  }
  return s;
}

FlockMetrics frame_metrics(std::uint64_t f) {
  const double d = static_cast<double>(f);
  FlockMetrics m{0.5 + d, 0.25 + d, 3 + f, 7 + f, 1.5 + d, 2.5 + d};
  m.milling = 0.125 + d;
  return m;
}

TrajectoryHeader header(std::uint64_t n, boids::Boundary boundary = boids::Boundary::kTorus) {
  TrajectoryHeader h;
  h.count = n;
  h.world = boids::World{120, 80, boundary};
  h.creator_version = "9.8.7";
  h.parameters = {{"model", std::string("boids")},
                  {"seed", std::int64_t{42}},
                  {"radius", 10.0},
                  {"wind", std::vector<double>{0.5, -1}}};
  return h;
}

// An HDF5 file opened read-only for the test's checks.
class Reader {
 public:
  explicit Reader(const std::string& path)
      : file_(H5Fopen(path.c_str(), H5F_ACC_RDONLY, H5P_DEFAULT)) {}
  ~Reader() {
    if (file_ >= 0) H5Fclose(file_);
  }
  bool ok() const { return file_ >= 0; }

  std::vector<hsize_t> shape(const std::string& name) const {
    const hid_t d = H5Dopen2(file_, name.c_str(), H5P_DEFAULT);
    const hid_t space = H5Dget_space(d);
    std::vector<hsize_t> dims(static_cast<std::size_t>(H5Sget_simple_extent_ndims(space)));
    H5Sget_simple_extent_dims(space, dims.data(), nullptr);
    H5Sclose(space);
    H5Dclose(d);
    return dims;
  }
  template <typename T>
  std::vector<T> read(const std::string& name, hid_t type) const {
    std::size_t size = 1;
    for (hsize_t d : shape(name)) size *= d;
    std::vector<T> values(size);
    const hid_t d = H5Dopen2(file_, name.c_str(), H5P_DEFAULT);
    EXPECT_GE(H5Dread(d, type, H5S_ALL, H5S_ALL, H5P_DEFAULT, values.data()), 0) << name;
    H5Dclose(d);
    return values;
  }
  template <typename T>
  std::vector<T> attribute(const std::string& object, const char* name, hid_t type) const {
    const hid_t a = H5Aopen_by_name(file_, object.c_str(), name, H5P_DEFAULT, H5P_DEFAULT);
    const hid_t space = H5Aget_space(a);
    std::vector<T> values(static_cast<std::size_t>(H5Sget_simple_extent_npoints(space)));
    EXPECT_GE(H5Aread(a, type, values.data()), 0) << object << " " << name;
    H5Sclose(space);
    H5Aclose(a);
    return values;
  }
  // A fixed-length string attribute's values.
  std::vector<std::string> strings(const std::string& object, const char* name) const {
    const hid_t a = H5Aopen_by_name(file_, object.c_str(), name, H5P_DEFAULT, H5P_DEFAULT);
    const hid_t type = H5Aget_type(a);
    EXPECT_EQ(H5Tget_class(type), H5T_STRING);
    EXPECT_FALSE(H5Tis_variable_str(type) > 0);
    const std::size_t width = H5Tget_size(type);
    const hid_t space = H5Aget_space(a);
    const auto count = static_cast<std::size_t>(H5Sget_simple_extent_npoints(space));
    std::vector<char> text(width * count);
    H5Aread(a, type, text.data());
    std::vector<std::string> values;
    for (std::size_t i = 0; i < count; ++i) {
      std::string v(text.data() + i * width, width);
      values.push_back(v.substr(0, v.find('\0')));
    }
    H5Sclose(space);
    H5Tclose(type);
    H5Aclose(a);
    return values;
  }
  // Where the object lies, and how many links lead to it.
  std::pair<haddr_t, unsigned> object(const std::string& name) const {
    H5O_info_t info;
    EXPECT_GE(H5Oget_info_by_name2(file_, name.c_str(), &info, H5O_INFO_BASIC, H5P_DEFAULT), 0);
    return {info.addr, info.rc};
  }
  // The chunk shape and the filters of a dataset.
  std::pair<std::vector<hsize_t>, std::vector<H5Z_filter_t>> storage(
      const std::string& name) const {
    const hid_t d = H5Dopen2(file_, name.c_str(), H5P_DEFAULT);
    const hid_t plist = H5Dget_create_plist(d);
    std::vector<hsize_t> chunk(3);
    chunk.resize(static_cast<std::size_t>(H5Pget_chunk(plist, 3, chunk.data())));
    std::vector<H5Z_filter_t> filters;
    for (int i = 0; i < H5Pget_nfilters(plist); ++i) {
      unsigned flags = 0;
      std::size_t n = 0;
      filters.push_back(H5Pget_filter2(plist, static_cast<unsigned>(i), &flags, &n, nullptr, 0,
                                       nullptr, nullptr));
    }
    H5Pclose(plist);
    H5Dclose(d);
    return {chunk, filters};
  }
  hid_t id() const { return file_; }

 private:
  hid_t file_;
};

class Trajectory : public boids::test_support::TestDirectory {
 protected:
  Trajectory() : TestDirectory("boids_trajectory") {}
};

}  // namespace

TEST_F(Trajectory, WritesTheH5mdLayout) {
  const std::uint64_t n = 5;
  {
    TrajectoryWriter writer(path("t.h5"), header(n));
    for (std::uint64_t f = 0; f < 3; ++f)
      writer.append(f * 10, static_cast<double>(f) * 0.5, frame_state(n, f), frame_metrics(f));
    EXPECT_EQ(writer.frames(), 3u);
    writer.close();
  }
  Reader r(path("t.h5"));
  ASSERT_TRUE(r.ok());
  EXPECT_EQ(r.attribute<long long>("/h5md", "version", H5T_NATIVE_LLONG),
            (std::vector<long long>{1, 1}));
  EXPECT_EQ(r.strings("/h5md/author", "name"), std::vector<std::string>{"boids"});
  EXPECT_EQ(r.strings("/h5md/creator", "name"), std::vector<std::string>{"boids"});
  EXPECT_EQ(r.strings("/h5md/creator", "version"), std::vector<std::string>{"9.8.7"});
  const std::string box = "/particles/flock/box";
  EXPECT_EQ(r.attribute<long long>(box, "dimension", H5T_NATIVE_LLONG), std::vector<long long>{2});
  EXPECT_EQ(r.strings(box, "boundary"), (std::vector<std::string>{"periodic", "periodic"}));
  // The box at every frame, as a matrix of edge vectors.
  EXPECT_EQ(r.shape(box + "/edges/value"), (std::vector<hsize_t>{3, 2, 2}));
  EXPECT_EQ(r.read<double>(box + "/edges/value", H5T_NATIVE_DOUBLE),
            (std::vector<double>{120, 0, 0, 80, 120, 0, 0, 80, 120, 0, 0, 80}));
  EXPECT_EQ(r.read<long long>(box + "/edges/step", H5T_NATIVE_LLONG),
            (std::vector<long long>{0, 10, 20}));

  const std::string position = "/particles/flock/position/value";
  const std::string velocity = "/particles/flock/velocity/value";
  EXPECT_EQ(r.shape(position), (std::vector<hsize_t>{3, n, 2}));
  EXPECT_EQ(r.shape(velocity), (std::vector<hsize_t>{3, n, 2}));
  const auto p = r.read<double>(position, H5T_NATIVE_DOUBLE);
  const auto v = r.read<double>(velocity, H5T_NATIVE_DOUBLE);
  for (std::uint64_t f = 0; f < 3; ++f) {
    const FlockState s = frame_state(n, f);
    for (std::uint64_t i = 0; i < n; ++i) {
      const std::size_t at = (f * n + i) * 2;
      EXPECT_EQ(p[at], s.x[i]);
      EXPECT_EQ(p[at + 1], s.y[i]);
      EXPECT_EQ(v[at], s.vx[i]);
      EXPECT_EQ(v[at + 1], s.vy[i]);
    }
  }
  const auto [chunk, filters] = r.storage(position);
  EXPECT_EQ(chunk, (std::vector<hsize_t>{1, n, 2}));
  EXPECT_EQ(filters, (std::vector<H5Z_filter_t>{H5Z_FILTER_SHUFFLE, H5Z_FILTER_DEFLATE}));

  // One step and one time dataset, linked into every element.
  const std::string step = "/particles/flock/position/step";
  EXPECT_EQ(r.read<long long>(step, H5T_NATIVE_LLONG), (std::vector<long long>{0, 10, 20}));
  EXPECT_EQ(r.read<double>("/particles/flock/position/time", H5T_NATIVE_DOUBLE),
            (std::vector<double>{0, 0.5, 1}));
  EXPECT_EQ(r.object("/particles/flock/velocity/step"), r.object(step));
  EXPECT_EQ(r.object(step).second, 10u);  // position, velocity, the box and seven observables

  const auto reals = [&](const char* name) {
    return r.read<double>(std::string("/observables/") + name + "/value", H5T_NATIVE_DOUBLE);
  };
  const auto wholes = [&](const char* name) {
    return r.read<long long>(std::string("/observables/") + name + "/value", H5T_NATIVE_LLONG);
  };
  EXPECT_EQ(reals("polarization"), (std::vector<double>{0.5, 1.5, 2.5}));
  EXPECT_EQ(reals("order"), (std::vector<double>{0.25, 1.25, 2.25}));
  EXPECT_EQ(wholes("flocks"), (std::vector<long long>{3, 4, 5}));
  EXPECT_EQ(wholes("largest_flock"), (std::vector<long long>{7, 8, 9}));
  EXPECT_EQ(reals("mean_nn_distance"), (std::vector<double>{1.5, 2.5, 3.5}));
  EXPECT_EQ(reals("mean_neighbors"), (std::vector<double>{2.5, 3.5, 4.5}));
  EXPECT_EQ(reals("milling"), (std::vector<double>{0.125, 1.125, 2.125}));
  EXPECT_EQ(r.object("/observables/order/time"), r.object("/particles/flock/position/time"));

  EXPECT_EQ(r.strings("/parameters", "model"), std::vector<std::string>{"boids"});
  EXPECT_EQ(r.attribute<long long>("/parameters", "seed", H5T_NATIVE_LLONG),
            std::vector<long long>{42});
  EXPECT_EQ(r.attribute<double>("/parameters", "radius", H5T_NATIVE_DOUBLE),
            std::vector<double>{10});
  EXPECT_EQ(r.attribute<double>("/parameters", "wind", H5T_NATIVE_DOUBLE),
            (std::vector<double>{0.5, -1}));
}

TEST_F(Trajectory, WallsHaveNoPeriodicBoundary) {
  {
    TrajectoryWriter writer(path("w.h5"), header(3, boids::Boundary::kWalls));
    writer.append(0, 0, frame_state(3, 0), frame_metrics(0));
    writer.close();
  }
  Reader r(path("w.h5"));
  EXPECT_EQ(r.strings("/particles/flock/box", "boundary"),
            (std::vector<std::string>{"none", "none"}));
}

TEST_F(Trajectory, LargeFlocksSpanSeveralChunks) {
  const std::uint64_t n = boids::kTrajectoryChunkBoids + 1000;
  {
    TrajectoryWriter writer(path("l.h5"), header(n));
    writer.append(0, 0, frame_state(n, 0), frame_metrics(0));
    writer.append(5, 5, frame_state(n, 5), frame_metrics(5));
    writer.close();
  }
  Reader r(path("l.h5"));
  EXPECT_EQ(r.storage("/particles/flock/position/value").first,
            (std::vector<hsize_t>{1, boids::kTrajectoryChunkBoids, 2}));
  const auto v = r.read<double>("/particles/flock/velocity/value", H5T_NATIVE_DOUBLE);
  const FlockState s = frame_state(n, 5);
  for (std::uint64_t i = 0; i < n; ++i) {
    ASSERT_EQ(v[(n + i) * 2], s.vx[i]) << i;
    ASSERT_EQ(v[(n + i) * 2 + 1], s.vy[i]) << i;
  }
}

std::string contents(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

TEST_F(Trajectory, AnExistingFileIsReplacedOnlyByAWholeFrame) {
  { std::ofstream(path("t.h5")) << "earlier"; }
  {
    TrajectoryWriter writer(path("t.h5"), header(4));
    EXPECT_EQ(contents(path("t.h5")), "earlier");
    EXPECT_EQ(entries().size(), 2u);  // and the temporary file
  }
  EXPECT_EQ(contents(path("t.h5")), "earlier");
  EXPECT_EQ(entries(), std::set<std::string>{"t.h5"});
  {
    TrajectoryWriter writer(path("t.h5"), header(4));
    writer.append(0, 0, frame_state(4, 0), frame_metrics(0));
    EXPECT_EQ(entries(), (std::set<std::string>{"t.h5", "t.xdmf"}));  // the file and its XDMF
    EXPECT_EQ(contents(path("t.h5")).substr(1, 3), "HDF");
    writer.append(1, 1, frame_state(4, 1), frame_metrics(1));
  }  // not closed: still readable
  Reader r(path("t.h5"));
  ASSERT_TRUE(r.ok());
  EXPECT_EQ(r.shape("/particles/flock/position/step"), std::vector<hsize_t>{2});
}

TEST_F(Trajectory, FailuresNameTheFile) {
  const std::string missing = path("no/such/dir/t.h5");
  try {
    TrajectoryWriter writer(missing, header(4));
    FAIL() << "created";
  } catch (const boids::RuntimeError& e) {
    EXPECT_NE(std::string(e.what()).find(missing), std::string::npos) << e.what();
  }
  TrajectoryWriter writer(path("t.h5"), header(4));
  writer.append(3, 0, frame_state(4, 0), frame_metrics(0));
  EXPECT_THROW(writer.append(3, 0, frame_state(4, 0), frame_metrics(0)), boids::RuntimeError);
  EXPECT_THROW(writer.append(4, 0, frame_state(5, 0), frame_metrics(0)), boids::RuntimeError);
}

// Every frame the file says it has is whole: steps 0, 1, 2, ... and the frames' values.
void expect_whole_frames(const std::string& file, std::uint64_t n, std::uint64_t least) {
  Reader r(file);
  ASSERT_TRUE(r.ok());
  const auto steps = r.read<long long>("/particles/flock/position/step", H5T_NATIVE_LLONG);
  ASSERT_GE(steps.size(), least);
  ASSERT_GE(r.shape("/particles/flock/position/value")[0], steps.size());
  const auto p = r.read<double>("/particles/flock/position/value", H5T_NATIVE_DOUBLE);
  const auto flocks = r.read<long long>("/observables/flocks/value", H5T_NATIVE_LLONG);
  for (std::size_t f = 0; f < steps.size(); ++f) {
    ASSERT_EQ(steps[f], static_cast<long long>(f));
    ASSERT_EQ(flocks[f], static_cast<long long>(3 + f));
    const FlockState s = frame_state(n, f);
    for (std::uint64_t i = 0; i < n; ++i) {
      ASSERT_EQ(p[(f * n + i) * 2], s.x[i]) << "frame " << f << " boid " << i;
      ASSERT_EQ(p[(f * n + i) * 2 + 1], s.y[i]) << "frame " << f << " boid " << i;
    }
  }
}

// The writer runs in a child process that death tests start afresh (fork and exec: OpenMP's
// threads, which compress the chunks, do not survive a bare fork).
class TrajectoryDeathTest : public Trajectory {
 protected:
  // The child runs the test afresh: it takes the parent's directory from the environment.
  void SetUp() override {
    GTEST_FLAG_SET(death_test_style, "threadsafe");
    if (const char* inherited = std::getenv(kDirectory)) {
      dir_ = inherited;
      return;
    }
    Trajectory::SetUp();
    setenv(kDirectory, dir_.c_str(), 1);
  }
  void TearDown() override {
    unsetenv(kDirectory);
    Trajectory::TearDown();
  }
  static constexpr const char* kDirectory = "BOIDS_TRAJECTORY_TEST_DIRECTORY";
};

// Writes frames until one fails; exits with the number of whole frames.
[[noreturn]] void write_until_full(const std::string& file, std::uint64_t n,
                                   const std::string& message) {
  // A 3 MB file-size limit stands for a disk that fills; with SIGXFSZ ignored, writes past it
  // fail with EFBIG instead of killing the process.
  signal(SIGXFSZ, SIG_IGN);
  const rlimit limit{3 << 20, 3 << 20};
  setrlimit(RLIMIT_FSIZE, &limit);
  TrajectoryWriter writer(file, header(n));
  try {
    for (std::uint64_t f = 0; f < 1000; ++f)
      writer.append(f, 0, frame_state(n, f), frame_metrics(f));
  } catch (const boids::RuntimeError& e) {
    std::ofstream(message) << e.what();
    const int frames = static_cast<int>(writer.frames());
    std::exit(frames);
  }
  std::exit(255);
}

TEST_F(TrajectoryDeathTest, AFullDiskKeepsEveryWholeFrame) {
  const std::uint64_t n = 3000;
  const std::string file = path("full.h5"), message = path("message");
  EXPECT_EXIT(
      write_until_full(file, n, message),
      [](int status) { return WIFEXITED(status) && WEXITSTATUS(status) > 2; }, "");
  const std::string why = contents(message);
  const auto frames = Reader(file).shape("/particles/flock/position/step").at(0);
  EXPECT_NE(why.find("File too large"), std::string::npos) << why;
  EXPECT_NE(why.find("keeps its " + std::to_string(frames) + " whole frames"), std::string::npos)
      << why;
  expect_whole_frames(file, n, 3);
}

// Writes frames until a thread kills the process, a second in, wherever the writer is.
[[noreturn]] void write_until_killed(const std::string& file, std::uint64_t n) {
  std::thread([] {
    std::this_thread::sleep_for(std::chrono::milliseconds(1500));
    raise(SIGKILL);
  }).detach();
  TrajectoryWriter writer(file, header(n));
  for (std::uint64_t f = 0;; ++f) writer.append(f, 0, frame_state(n, f), frame_metrics(f));
}

TEST_F(TrajectoryDeathTest, AKilledWriterKeepsItsWholeFrames) {
  const std::uint64_t n = 20000;
  const std::string file = path("killed.h5");
  EXPECT_EXIT(write_until_killed(file, n), ::testing::KilledBySignal(SIGKILL), "");
  expect_whole_frames(file, n, 1);
}
