// The files a flock spread over ranks writes where its boids lie: each rank its own stripe of
// rows, by the one writer of each format (host/io/flock_writer.h) into its share of one file
// (MPI-IO), or its own chunks of a trajectory's frame, so that no rank gathers the flock.
#include <algorithm>
#include <string>
#include <vector>

#include "host/base/errors.h"
#include "host/base/memory.h"
#include "host/io/checkpoint.h"
#include "host/io/flock_writer.h"
#include "host/io/trajectory_chunks.h"
#include "host/mpi/communicator.h"
#include "host/mpi/frame_chunks.h"
#include "host/mpi/rank_flock.h"
#include "host/mpi/rank_sink.h"
#include "host/mpi/slab_axis.h"

namespace boids::mpi {

// Rank k's stripe of the whole flock's rows in input order: [kN/P, (k+1)N/P) (in whole
// `unit`s of rows). The ranks hand each of their boids' rows
// to the rank whose stripe holds it, so that each then writes one contiguous run of a file (a
// file view scattering every rank's own rows over the file costs MPI-IO twice the rows again in
// its own buffers).
FlockState RankFlock::stripe(std::uint64_t& first, std::uint64_t& last, std::uint64_t unit) const {
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
  release(rows);
  const std::vector<std::uint64_t> got_ids = to_ranks(ids, counts);
  release(ids);
  const Stripe held = stripe_of(whole_count_, rank_, ranks(), unit);
  first = held.first;
  last = held.last;
  FlockState stripe;
  stripe.dimensions = dimensions;
  stripe.resize(last - first);
  const std::vector<std::vector<double>*> into = stripe.columns();
  for (std::size_t i = 0; i < got_ids.size(); ++i) {
    for (std::size_t c = 0; c < columns; ++c)
      (*into[c])[got_ids[i] - first] = got_rows[i * columns + c];
  }
  return stripe;
}

// Each rank's stripe as its share of the file (host/io/flock_writer.h), written at once.
std::string RankFlock::write_state(const std::string& path, bool npy) const {
  std::uint64_t first = 0, last = 0;
  const FlockState rows = stripe(first, last);
  RankSink sink(path);
  if (!sink.opened()) return sink.why();
  write_state_share(sink, {rows, first, whole_count_}, npy);
  return sink.finish();
}

// The same for a checkpoint, whose order is the input order (the ranks' backends' orders are
// theirs alone).
std::string RankFlock::write_checkpoint(const std::string& path) const {
  std::uint64_t first = 0, last = 0;
  const FlockState rows = stripe(first, last);
  std::vector<std::uint64_t> order(last - first);
  for (std::uint64_t i = 0; i < last - first; ++i) order[i] = first + i;
  const std::string prefix = checkpoint_prefix(config_, steps_taken_, whole_count_);
  RankSink sink(path);
  if (!sink.opened()) return sink.why();
  write_checkpoint_share(sink, prefix, {rows, first, whole_count_}, order);
  return sink.finish();
}

// The rows of the rank's stripe of whole chunks, as columns, compressed chunk by chunk on the
// rank's threads: the stripe's last chunk is short only where the flock ends, as the writer's.
FrameChunks RankFlock::frame_chunks(const TrajectoryFrameLayout& layout) const {
  const int dimensions = config_.params.dimensions;
  std::uint64_t first = 0, last = 0;
  const FlockState rows = stripe(first, last, layout.chunk_boids);
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
