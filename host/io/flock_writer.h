// The one writer of each file that holds a whole flock: a state file (CSV or .npy) and a
// checkpoint. Each is written from a share of the flock's rows in input order into a sink
// that is either the whole file, from one process (WholeFileSink, streamed in order), or one
// rank's byte range of the same file, every rank of an MPI run writing its own share at once
// (host/mpi/rank_sink.h). The bytes are the same either way: a flock saved by four ranks reads
// back, byte for byte, as the one saved by one process.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "host/base/checksum.h"
#include "host/io/output_file.h"
#include "host/model/flock.h"

namespace boids {

// Rows first .. first + rows.size() - 1 (input order) of a flock of `count` boids: all of
// them in one process, a rank's stripe of them in an MPI run.
struct FlockShare {
  const FlockState& rows;
  std::uint64_t first = 0, count = 0;
};

// Where a flock's file goes. Every writer of one file makes the same calls in the same order
// (a rank's calls are collective), each with its own values.
class FlockFileSink {
 public:
  virtual ~FlockFileSink() = default;

  // `mine` summed over the writers before this one, and over all of them.
  struct Place {
    std::uint64_t before = 0, total = 0;
  };
  virtual Place place(std::uint64_t mine) = 0;
  // The largest `mine` of any writer: how many collective writes each makes.
  virtual std::uint64_t most(std::uint64_t mine) = 0;
  // Whether the bytes arrive in order from one writer, so that a text's offsets need not be
  // measured before it is written.
  virtual bool streams() const = 0;

  // The whole file's size, in bytes.
  virtual void size(std::uint64_t bytes) = 0;
  // `bytes` at `at`, written by the first writer alone (a header).
  virtual void put_by_first(std::uint64_t at, std::string_view bytes) = 0;
  // This writer's `count` records of `record_bytes` at `at` (it may have none).
  virtual void put(std::uint64_t at, const void* data, std::uint64_t count,
                   std::size_t record_bytes) = 0;
  // The checksum of every byte before it, appended (a checkpoint's last word).
  virtual void append_checksum(std::uint64_t at) = 0;
  // "" when the file is whole, else why not: the same on every writer.
  virtual std::string finish() = 0;
};

// The whole file from one process, its bytes handed to `sink` in order: a write anywhere but
// where the last one ended is a logic error.
class WholeFileSink final : public FlockFileSink {
 public:
  explicit WholeFileSink(OutputFiles::ByteSink sink) : sink_(std::move(sink)) {}
  Place place(std::uint64_t mine) override { return {0, mine}; }
  std::uint64_t most(std::uint64_t mine) override { return mine; }
  bool streams() const override { return true; }
  void size(std::uint64_t) override {}
  void put_by_first(std::uint64_t at, std::string_view bytes) override;
  void put(std::uint64_t at, const void* data, std::uint64_t count,
           std::size_t record_bytes) override;
  void append_checksum(std::uint64_t at) override;
  std::string finish() override { return ""; }

 private:
  void append(std::uint64_t at, const void* data, std::uint64_t bytes);
  OutputFiles::ByteSink sink_;
  Checksum sum_;
  std::uint64_t written_ = 0;
};

// A state file's bytes: CSV (host/io/state_file.h: a header line, rows of shortest doubles),
// or .npy when `npy` (float64 little-endian, C order, shape (count, 4) or (count, 6)).
void write_state_share(FlockFileSink& sink, const FlockShare& share, bool npy);

// A checkpoint's bytes (host/io/checkpoint.h): `prefix` (checkpoint_prefix), the share's
// columns, `order` (the share's slots of the backend's order) and the checksum.
void write_checkpoint_share(FlockFileSink& sink, const std::string& prefix, const FlockShare& share,
                            const std::vector<std::uint64_t>& order);

}  // namespace boids
