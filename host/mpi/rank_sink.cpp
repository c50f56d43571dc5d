#include "host/mpi/rank_sink.h"

#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <vector>

#include "host/base/checksum.h"
#include "host/mpi/communicator.h"

namespace boids::mpi {
namespace {

// Reads the first `at` bytes of the file at `path` and writes their checksum after them.
// Returns "" or why it could not.
std::string write_checksum(const std::string& path, std::uint64_t at) {
  std::FILE* file = std::fopen(path.c_str(), "r+b");
  if (!file) return "cannot reopen the file for its checksum: " + std::string(std::strerror(errno));
  Checksum sum;
  std::vector<char> block(1 << 20);
  bool ok = true;
  for (std::uint64_t left = at; ok && left > 0;) {
    const std::size_t want = std::min<std::uint64_t>(left, block.size());
    ok = std::fread(block.data(), 1, want, file) == want;
    sum.add(block.data(), want);
    left -= want;
  }
  const std::uint64_t value = sum.value();
  ok = ok && std::fwrite(&value, sizeof value, 1, file) == 1 && std::fflush(file) == 0 &&
       fsync(fileno(file)) == 0;
  const int error = errno;
  std::fclose(file);
  return ok ? "" : "cannot write the checksum: " + std::string(std::strerror(error));
}

}  // namespace

RankSink::RankSink(const std::string& path) : file_(path, SharedFile::Mode::kWrite), path_(path) {}

FlockFileSink::Place RankSink::place(std::uint64_t mine) {
  const std::vector<std::uint64_t> by_rank = all_gather(std::vector<std::uint64_t>{mine});
  Place p;
  for (std::size_t r = 0; r < by_rank.size(); ++r) {
    if (static_cast<int>(r) < rank()) p.before += by_rank[r];
    p.total += by_rank[r];
  }
  return p;
}

std::uint64_t RankSink::most(std::uint64_t mine) {
  return max_over_ranks(mine);
}

void RankSink::put_by_first(std::uint64_t at, std::string_view bytes) {
  file_.put_by_first(at, std::string(bytes));
}

std::string RankSink::finish() {
  const std::string failure = file_.finish();
  if (!failure.empty() || checksum_at_ == 0) return failure;
  std::string checked;
  if (rank() == 0) checked = write_checksum(path_, checksum_at_);
  return on_every_rank(checked.empty()) ? "" : (checked.empty() ? "rank 0 failed" : checked);
}

}  // namespace boids::mpi
