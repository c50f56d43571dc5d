// The one writer of a flock's files (host/io/flock_writer.h): the bytes a flock's shares write
// into one file, each at its own place, are the bytes one process writes of the whole flock,
// in every format, in 2D and 3D, with shares that cross the writer's pieces or hold nothing.
// Here the writers are threads meeting at each collective call, as MPI ranks meet
// (tests/host/mpi/mpi_run_check.py checks the ranks themselves).
#include <gtest/gtest.h>

#include <algorithm>
#include <condition_variable>
#include <cstring>
#include <functional>
#include <mutex>
#include <random>
#include <stdexcept>
#include <string>
#include <thread>
#include <vector>

#include "host/base/checksum.h"
#include "host/core/config.h"
#include "host/io/checkpoint.h"
#include "host/io/flock_writer.h"
#include "host/io/state_file.h"

namespace boids {
namespace {

// Where `writers` threads meet: each hands in a value and gets every writer's.
class Meeting {
 public:
  explicit Meeting(int writers) : values_(static_cast<std::size_t>(writers)) {}
  std::vector<std::uint64_t> exchange(int who, std::uint64_t mine) {
    std::unique_lock<std::mutex> lock(mutex_);
    values_[static_cast<std::size_t>(who)] = mine;
    const std::uint64_t round = round_;
    if (++arrived_ == static_cast<int>(values_.size())) {
      met_ = values_;
      arrived_ = 0;
      ++round_;
      done_.notify_all();
    } else {
      done_.wait(lock, [&] { return round_ != round; });
    }
    return met_;
  }

 private:
  std::mutex mutex_;
  std::condition_variable done_;
  std::vector<std::uint64_t> values_, met_;
  int arrived_ = 0;
  std::uint64_t round_ = 0;
};

// One file in memory, shared by the writers.
struct MemoryFile {
  std::mutex mutex;
  std::string bytes;
  void write(std::uint64_t at, const void* data, std::uint64_t size) {
    if (size == 0) return;  // an empty share's data may be null
    std::lock_guard<std::mutex> lock(mutex);
    if (bytes.size() < at + size) bytes.resize(at + size, '\0');
    std::memcpy(&bytes[at], data, size);
  }
};

// A writer's share of the memory file, as a rank's of a shared file.
class ShareSink final : public FlockFileSink {
 public:
  ShareSink(Meeting& meeting, MemoryFile& file, int who)
      : meeting_(meeting), file_(file), who_(who) {}
  Place place(std::uint64_t mine) override {
    const std::vector<std::uint64_t> all = meeting_.exchange(who_, mine);
    Place p;
    for (std::size_t w = 0; w < all.size(); ++w) {
      if (static_cast<int>(w) < who_) p.before += all[w];
      p.total += all[w];
    }
    return p;
  }
  std::uint64_t most(std::uint64_t mine) override {
    const std::vector<std::uint64_t> all = meeting_.exchange(who_, mine);
    return *std::max_element(all.begin(), all.end());
  }
  bool streams() const override { return false; }
  void size(std::uint64_t bytes) override {
    std::lock_guard<std::mutex> lock(file_.mutex);
    file_.bytes.resize(bytes, '\0');
  }
  void put_by_first(std::uint64_t at, std::string_view bytes) override {
    if (who_ == 0) file_.write(at, bytes.data(), bytes.size());
  }
  void put(std::uint64_t at, const void* data, std::uint64_t count,
           std::size_t record_bytes) override {
    meeting_.exchange(who_, 0);  // collective, as MPI-IO's
    file_.write(at, data, count * record_bytes);
  }
  void append_checksum(std::uint64_t at) override { checksum_at_ = at; }
  std::string finish() override {
    meeting_.exchange(who_, 0);
    if (who_ == 0 && checksum_at_ > 0) {
      Checksum sum;
      sum.add(file_.bytes.data(), checksum_at_);
      const std::uint64_t value = sum.value();
      file_.write(checksum_at_, &value, sizeof value);
    }
    meeting_.exchange(who_, 0);
    return "";
  }

 private:
  Meeting& meeting_;
  MemoryFile& file_;
  int who_;
  std::uint64_t checksum_at_ = 0;
};

FlockState random_flock(std::uint64_t count, int dimensions, unsigned seed) {
  FlockState s;
  s.dimensions = dimensions;
  s.resize(count);
  std::mt19937_64 random(seed);
  std::uniform_real_distribution<double> position(0, 100), velocity(-2, 2);
  for (std::vector<double>* column : s.columns()) {
    const bool is_velocity = column == &s.vx || column == &s.vy || column == &s.vz;
    for (double& v : *column) v = is_velocity ? velocity(random) : position(random);
  }
  return s;
}

// Rows [first, last) of `s`.
FlockState rows_of(const FlockState& s, std::uint64_t first, std::uint64_t last) {
  FlockState part;
  part.dimensions = s.dimensions;
  part.resize(last - first);
  const std::vector<const std::vector<double>*> from = s.columns();
  const std::vector<std::vector<double>*> to = part.columns();
  for (std::size_t c = 0; c < from.size(); ++c) {
    std::copy(from[c]->begin() + static_cast<std::ptrdiff_t>(first),
              from[c]->begin() + static_cast<std::ptrdiff_t>(last), to[c]->begin());
  }
  return part;
}

// The file `write` makes when `flock` is cut at `cuts` (each writer's first row, ascending)
// and every share is written by its own thread.
std::string written_in_shares(const FlockState& flock, const std::vector<std::uint64_t>& cuts,
                              const std::function<void(FlockFileSink&, const FlockShare&)>& write) {
  const int writers = static_cast<int>(cuts.size());
  Meeting meeting(writers);
  MemoryFile file;
  std::vector<std::thread> threads;
  for (int w = 0; w < writers; ++w) {
    threads.emplace_back([&, w] {
      const std::uint64_t first = cuts[static_cast<std::size_t>(w)];
      const std::uint64_t last =
          w + 1 < writers ? cuts[static_cast<std::size_t>(w) + 1] : flock.size();
      const FlockState rows = rows_of(flock, first, last);
      ShareSink sink(meeting, file, w);
      write(sink, {rows, first, flock.size()});
      EXPECT_EQ(sink.finish(), "");
    });
  }
  for (std::thread& t : threads) t.join();
  return file.bytes;
}

// Shares of 140,000 boids crossing the writer's pieces of 65,536 rows; one holds none.
const std::vector<std::uint64_t> kCuts = {0, 1, 70001, 70001, 139999};

TEST(FlockWriter, SharesWriteTheWholeFlocksStateFile) {
  for (const int dimensions : {2, 3}) {
    const FlockState flock = random_flock(140000, dimensions, 7 + dimensions);
    for (const bool npy : {false, true}) {
      const std::string whole = format_state_file(npy ? "s.npy" : "s.csv", flock);
      const std::string shared =
          written_in_shares(flock, kCuts, [&](FlockFileSink& sink, const FlockShare& share) {
            write_state_share(sink, share, npy);
          });
      EXPECT_TRUE(shared == whole) << dimensions << "D " << (npy ? ".npy" : "CSV");
    }
  }
}

TEST(FlockWriter, SharesWriteTheWholeFlocksCheckpoint) {
  for (const int dimensions : {2, 3}) {
    Checkpoint c;
    c.config.params.dimensions = dimensions;
    c.step = 42;
    c.state = random_flock(140000, dimensions, 3);
    c.order.resize(c.state.size());
    for (std::uint64_t i = 0; i < c.order.size(); ++i) c.order[i] = i;
    const std::string prefix = checkpoint_prefix(c.config, c.step, c.state.size());
    const std::string shared =
        written_in_shares(c.state, kCuts, [&](FlockFileSink& sink, const FlockShare& share) {
          const std::vector<std::uint64_t> order(
              c.order.begin() + static_cast<std::ptrdiff_t>(share.first),
              c.order.begin() + static_cast<std::ptrdiff_t>(share.first + share.rows.size()));
          write_checkpoint_share(sink, prefix, share, order);
        });
    EXPECT_TRUE(shared == format_checkpoint(c)) << dimensions << "D";
    EXPECT_EQ(parse_checkpoint(shared, "shared.bin").state.x, c.state.x);
  }
}

TEST(FlockWriter, AWholeFileIsWrittenInOrderOrNotAtAll) {
  std::string out;
  WholeFileSink sink([&](const void* data, std::size_t size) {
    out.append(static_cast<const char*>(data), size);
  });
  sink.put_by_first(0, "head");
  EXPECT_THROW(sink.put(10, "rows", 1, 4), std::logic_error);
  sink.put(4, "rows", 1, 4);
  EXPECT_EQ(out, "headrows");
}

}  // namespace
}  // namespace boids
