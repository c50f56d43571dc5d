// The files a flock spread over ranks writes where its boids lie: each rank its own rows, at
// their input index, into one file (MPI-IO), or its own chunks of a trajectory's frame, so
// that no rank gathers the flock.
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <string>
#include <vector>

#include "host/base/checksum.h"
#include "host/base/errors.h"
#include "host/io/checkpoint.h"
#include "host/io/npy_file.h"
#include "host/io/state_file.h"
#include "host/io/trajectory_chunks.h"
#include "host/mpi/communicator.h"
#include "host/mpi/frame_chunks.h"
#include "host/mpi/rank_flock.h"
#include "host/mpi/shared_file.h"
#include "host/mpi/slab_axis.h"

namespace boids::mpi {
namespace {

// Reads the file at `path`, all but its last 8 bytes, and writes their checksum there. Returns
// "" or why it could not.
std::string append_checksum(const std::string& path) {
  std::FILE* file = std::fopen(path.c_str(), "r+b");
  if (!file) return "cannot reopen the file for its checksum: " + std::string(std::strerror(errno));
  Checksum sum;
  std::fseek(file, 0, SEEK_END);
  const long size = std::ftell(file);
  std::fseek(file, 0, SEEK_SET);
  std::vector<char> block(1 << 20);
  long left = size - 8;
  bool ok = size >= 8;
  while (ok && left > 0) {
    const std::size_t want =
        static_cast<std::size_t>(std::min<long>(left, static_cast<long>(block.size())));
    ok = std::fread(block.data(), 1, want, file) == want;
    sum.add(block.data(), want);
    left -= static_cast<long>(want);
  }
  const std::uint64_t value = sum.value();
  ok = ok && std::fwrite(&value, sizeof value, 1, file) == 1 && std::fflush(file) == 0 &&
       fsync(fileno(file)) == 0;
  const int error = errno;
  std::fclose(file);
  return ok ? "" : "cannot write the checksum: " + std::string(std::strerror(error));
}

}  // namespace

// Rank k's stripe of the whole flock's rows in input order: [kN/P, (k+1)N/P) (in whole
// `unit`s of rows), each row x, y[, z], vx, vy[, vz]. The ranks hand each of their boids' rows
// to the rank whose stripe holds it, so that each then writes one contiguous run of a file (a
// file view scattering every rank's own rows over the file costs MPI-IO twice the rows again in
// its own buffers).
std::vector<double> RankFlock::stripe_rows(std::uint64_t& first, std::uint64_t& last,
                                           std::uint64_t unit) const {
  const int dimensions = config_.params.dimensions;
  const auto columns = static_cast<std::size_t>(2 * dimensions);
  // The rank's boids read out of its parts a piece at a time, twice (never copied whole): first
  // counted by the stripe that holds each, then each row put in its stripe's run of `rows`.
  std::vector<std::size_t> counts(static_cast<std::size_t>(ranks()), 0);
  const auto stripe_holding_boid = [&](const IndexedBoid& b) {
    return stripe_holding(b.id, whole_count_, ranks(), unit);
  };
  for_each_boid([&](const IndexedBoid& b) { ++counts[stripe_holding_boid(b)]; });
  std::vector<std::size_t> at(counts.size(), 0);
  for (std::size_t r = 1; r < counts.size(); ++r) at[r] = at[r - 1] + counts[r - 1];
  const std::size_t mine = at.back() + counts.back();
  std::vector<double> rows(mine * columns);
  std::vector<std::uint64_t> ids(mine);
  for_each_boid([&](const IndexedBoid& b) {
    const std::size_t i = at[stripe_holding_boid(b)]++;
    const double values[6] = {b.x, b.y, b.z, b.vx, b.vy, b.vz};
    double* row = &rows[i * columns];
    for (int c = 0; c < 6; ++c) {
      if (c % 3 < dimensions) *row++ = values[c];
    }
    ids[i] = b.id;
  });
  std::vector<std::size_t> value_counts(counts);
  for (std::size_t& c : value_counts) c *= columns;
  const std::vector<double> got_rows = to_ranks(rows, value_counts);
  rows = {};
  const std::vector<std::uint64_t> got_ids = to_ranks(ids, counts);
  ids = {};
  const Stripe held = stripe_of(whole_count_, rank_, ranks(), unit);
  first = held.first;
  last = held.last;
  std::vector<double> stripe((last - first) * columns);
  for (std::size_t i = 0; i < got_ids.size(); ++i) {
    std::memcpy(&stripe[(got_ids[i] - first) * columns], &got_rows[i * columns],
                columns * sizeof(double));
  }
  return stripe;
}

// The header by rank 0, then each rank's stripe of rows as one run, in one collective write.
// The file is sized first; the caller renames it once it is whole.
std::string RankFlock::write_npy(const std::string& path) const {
  const auto columns = static_cast<std::size_t>(2 * config_.params.dimensions);
  std::uint64_t first = 0, last = 0;
  const std::vector<double> stripe = stripe_rows(first, last);
  const std::string header = npy_header(whole_count_, columns);
  SharedFile file(path, SharedFile::Mode::kWrite);
  if (!file.opened()) return file.why();
  const std::uint64_t row_bytes = 8 * columns;
  file.size(header.size() + whole_count_ * row_bytes);
  file.put_by_first(0, header);
  file.put(header.size() + first * row_bytes, stripe.data(), last - first, row_bytes);
  return file.finish();
}

// The header by rank 0, then each rank's stripe of rows as text, at the end of the stripes'
// text before it. A row's text has no fixed length: the ranks first format their rows a piece
// at a time to measure them (keeping none of the text), learn where their text begins, then
// format them again and write each piece. The bytes are one process's.
std::string RankFlock::write_csv(const std::string& path) const {
  const int dimensions = config_.params.dimensions;
  const auto columns = static_cast<std::uint64_t>(2 * dimensions);
  constexpr std::uint64_t kRowsAtOnce = 65536;
  std::uint64_t first = 0, last = 0;
  const std::vector<double> stripe = stripe_rows(first, last);
  const std::uint64_t rows = last - first;
  const auto piece = [&](std::uint64_t at) {
    return format_state_rows(stripe.data() + at * columns, std::min(kRowsAtOnce, rows - at),
                             dimensions);
  };
  std::uint64_t bytes = 0;
  for (std::uint64_t at = 0; at < rows; at += kRowsAtOnce) bytes += piece(at).size();
  const std::vector<std::uint64_t> by_rank = all_gather(std::vector<std::uint64_t>{bytes});
  const std::string header = state_header_line(dimensions);
  std::uint64_t at_text = header.size(), whole = header.size();
  for (std::size_t r = 0; r < by_rank.size(); ++r) {
    if (static_cast<int>(r) < rank_) at_text += by_rank[r];
    whole += by_rank[r];
  }
  SharedFile file(path, SharedFile::Mode::kWrite);
  if (!file.opened()) return file.why();
  file.size(whole);
  file.put_by_first(0, header);
  const std::uint64_t pieces = max_over_ranks((rows + kRowsAtOnce - 1) / kRowsAtOnce);
  for (std::uint64_t k = 0; k < pieces; ++k) {
    const std::string text = k * kRowsAtOnce < rows ? piece(k * kRowsAtOnce) : std::string();
    file.put(at_text, text.data(), text.size(), 1);
    at_text += text.size();
  }
  return file.finish();
}

// A checkpoint's layout (host/io/checkpoint.h): its prefix by rank 0, then each column of the
// state and the order (input order: the identity) as runs of each rank's stripe, one
// collective write each; rank 0 then reads the file back for its checksum and appends it.
std::string RankFlock::write_checkpoint(const std::string& path) const {
  const auto columns = static_cast<std::size_t>(2 * config_.params.dimensions);
  std::uint64_t first = 0, last = 0;
  const std::vector<double> stripe = stripe_rows(first, last);
  const std::string prefix = checkpoint_prefix(config_, steps_taken_, whole_count_);
  std::string failure;
  {
    SharedFile file(path, SharedFile::Mode::kWrite);
    if (!file.opened()) return file.why();
    const std::uint64_t n = whole_count_;
    file.size(prefix.size() + n * 8 * (columns + 1) + 8);
    file.put_by_first(0, prefix);
    std::vector<double> column(last - first);
    for (std::size_t c = 0; c < columns; ++c) {
      for (std::uint64_t i = 0; i < last - first; ++i) column[i] = stripe[i * columns + c];
      file.put(prefix.size() + (c * n + first) * 8, column.data(), last - first, 8);
    }
    std::vector<std::uint64_t> order(last - first);
    for (std::uint64_t i = 0; i < last - first; ++i) order[i] = first + i;
    file.put(prefix.size() + (columns * n + first) * 8, order.data(), last - first, 8);
    failure = file.finish();
  }
  if (!failure.empty()) return failure;
  // The checksum runs over every byte before it, in order: rank 0 reads them back.
  std::string checked;
  if (rank_ == 0) checked = append_checksum(path);
  return on_every_rank(checked.empty()) ? "" : (checked.empty() ? "rank 0 failed" : checked);
}

// The rows of the rank's stripe of whole chunks, as columns, compressed chunk by chunk on the
// rank's threads: the stripe's last chunk is short only where the flock ends, as the writer's.
FrameChunks RankFlock::frame_chunks(const TrajectoryFrameLayout& layout) const {
  const int dimensions = config_.params.dimensions;
  std::uint64_t first = 0, last = 0;
  FlockState rows;
  rows.dimensions = dimensions;
  {
    const std::vector<double> stripe = stripe_rows(first, last, layout.chunk_boids);
    rows.resize(last - first);
    const std::vector<std::vector<double>*> columns =
        dimensions == 3 ? std::vector<std::vector<double>*>{&rows.x,  &rows.y,  &rows.z,
                                                            &rows.vx, &rows.vy, &rows.vz}
                        : std::vector<std::vector<double>*>{&rows.x, &rows.y, &rows.vx, &rows.vy};
    for (std::uint64_t i = 0; i < last - first; ++i) {
      for (std::size_t c = 0; c < columns.size(); ++c)
        (*columns[c])[i] = stripe[i * columns.size() + c];
    }
  }
  const std::vector<double> zeros(dimensions == 2 && layout.columns == 3 ? last - first : 0, 0.0);
  const FrameColumns columns = frame_columns(rows, layout.columns, zeros);
  FrameChunks mine;
  mine.first = first / layout.chunk_boids;
  const std::uint64_t count = (last - first + layout.chunk_boids - 1) / layout.chunk_boids;
  for (int q = 0; q < 2; ++q) {
    mine.of[q].resize(count);
    compress_row_chunks(q == 0 ? columns.position.data() : columns.velocity.data(), layout.columns,
                        last - first, layout.chunk_boids, 0, layout.level, mine.of[q]);
  }
  return mine;
}

namespace {

// A batch of a frame's chunks that rank 0 asks for; `count` 0 ends the frame.
struct ChunkBatch {
  std::uint64_t quantity, first, count;
};

// This rank's chunks of `batch`, at rank 0: their sizes, then their bytes, in rank order (the
// stripes are in rank order, so the chunks arrive in order).
void send_batch(const FrameChunks& mine, const ChunkBatch& batch, std::vector<std::uint64_t>& sizes,
                std::vector<unsigned char>& bytes) {
  const CompressedChunks& chunks = mine.of[batch.quantity];
  const std::uint64_t from = std::max(batch.first, mine.first);
  const std::uint64_t to = std::min(batch.first + batch.count, mine.first + chunks.size());
  std::vector<std::uint64_t> my_sizes;
  std::vector<unsigned char> my_bytes;
  for (std::uint64_t c = from; c < to; ++c) {
    const std::vector<unsigned char>& chunk = chunks[c - mine.first];
    my_sizes.push_back(chunk.size());
    my_bytes.insert(my_bytes.end(), chunk.begin(), chunk.end());
  }
  sizes = gather(my_sizes);
  bytes = gather_records(my_bytes.data(), my_bytes.size(), 1);
}

}  // namespace

void gather_frame_chunks(const FrameChunks& mine, int quantity, std::uint64_t first,
                         CompressedChunks& out) {
  ChunkBatch batch{static_cast<std::uint64_t>(quantity), first, out.size()};
  broadcast(&batch, sizeof batch);
  std::vector<std::uint64_t> sizes;
  std::vector<unsigned char> bytes;
  send_batch(mine, batch, sizes, bytes);
  if (sizes.size() != out.size()) {
    throw RuntimeError("the ranks sent " + std::to_string(sizes.size()) + " chunks of " +
                       std::to_string(out.size()));
  }
  std::size_t at = 0;
  for (std::size_t k = 0; k < out.size(); ++k) {
    out[k].assign(bytes.begin() + static_cast<std::ptrdiff_t>(at),
                  bytes.begin() + static_cast<std::ptrdiff_t>(at + sizes[k]));
    at += sizes[k];
  }
}

void end_frame_chunks() {
  ChunkBatch done{0, 0, 0};
  broadcast(&done, sizeof done);
}

void serve_frame_chunks(const FrameChunks& mine) {
  for (;;) {
    ChunkBatch batch{0, 0, 0};
    broadcast(&batch, sizeof batch);
    if (batch.count == 0) return;
    std::vector<std::uint64_t> sizes;
    std::vector<unsigned char> bytes;
    send_batch(mine, batch, sizes, bytes);
  }
}

}  // namespace boids::mpi
