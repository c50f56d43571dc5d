// A rank's share of a flock's file (host/io/flock_writer.h): every rank of the run writes its
// own rows of the same file at once (MPI-IO), rank 0 the header, so that no rank gathers the
// flock. A checkpoint's checksum, over every byte before it, is rank 0's once the ranks' bytes
// are on disk: it reads them back.
#pragma once

#include <cstdint>
#include <string>

#include "host/io/flock_writer.h"
#include "host/mpi/shared_file.h"

namespace boids::mpi {

class RankSink final : public FlockFileSink {
 public:
  // Opens `path` on every rank (collective); opened() says whether all could.
  explicit RankSink(const std::string& path);
  bool opened() const { return file_.opened(); }
  std::string why() const { return file_.why(); }

  Place place(std::uint64_t mine) override;
  std::uint64_t most(std::uint64_t mine) override;
  bool streams() const override { return false; }
  void size(std::uint64_t bytes) override { file_.size(bytes); }
  void put_by_first(std::uint64_t at, std::string_view bytes) override;
  void put(std::uint64_t at, const void* data, std::uint64_t count,
           std::size_t record_bytes) override {
    file_.put(at, data, count, record_bytes);
  }
  void append_checksum(std::uint64_t at) override { checksum_at_ = at; }
  std::string finish() override;

 private:
  SharedFile file_;
  std::string path_;
  std::uint64_t checksum_at_ = 0;  // 0: none
};

}  // namespace boids::mpi
