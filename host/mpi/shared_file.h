// One file opened by every rank of the run together (MPI-IO), for a flock's files written and
// read where its boids lie: each rank writes or reads its own byte ranges. The first failure
// is kept, with the rank it happened on and MPI-IO's words for it, and every rank can learn
// whether all went well (on_every_rank), so that none waits in a collective call that another
// has given up.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>

namespace boids::mpi {

class SharedFile {
 public:
  enum class Mode { kWrite, kRead };

  // Opens `path` on every rank together (created for writing if missing).
  SharedFile(const std::string& path, Mode mode);
  ~SharedFile();  // closes it, if still open on every rank
  SharedFile(const SharedFile&) = delete;
  SharedFile& operator=(const SharedFile&) = delete;

  // Whether every rank opened it (collective).
  bool opened() const { return opened_; }

  // Writing, collective calls but put_by_first: the file's size; rank 0's bytes at `at`;
  // every rank's `count` records of `record_bytes` at its own `at` (a rank may have none).
  void size(std::uint64_t bytes);
  void put_by_first(std::uint64_t at, const std::string& bytes);
  void put(std::uint64_t at, const void* data, std::uint64_t count, std::size_t record_bytes);

  // Reading, by this rank alone: `bytes` at `at` into `data` (zeros after a failure).
  void get(std::uint64_t at, void* data, std::size_t bytes);

  // Synced (when written) and closed by every rank: "" when every rank's part went well,
  // else why not (the same on every rank where it failed here; elsewhere a general word).
  std::string finish();

  // Why it failed here ("" while it has not).
  const std::string& failure() const { return failure_; }
  // Why it failed: here, or, where all went well here, on another rank.
  std::string why() const {
    return failure_.empty() ? "another rank could not do its part" : failure_;
  }

 private:
  void check(const char* what, int result);

  struct Handle;
  std::unique_ptr<Handle> handle_;
  Mode mode_;
  int rank_ = 0;
  bool opened_ = false;
  std::string failure_;
};

}  // namespace boids::mpi
