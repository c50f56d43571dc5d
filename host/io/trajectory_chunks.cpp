#include "host/io/trajectory_chunks.h"

#include <zlib.h>

#include <cstring>

#include "host/base/errors.h"

namespace boids {
namespace {

// The file stores little-endian doubles (H5T_IEEE_F64LE); a chunk written directly holds the
// file's bytes, which are the machine's own here.
static_assert(__BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__, "chunks are written in memory order");

// HDF5's shuffle filter for 8-byte elements: byte k of element e goes to k * elements + e.
void shuffle_rows(const double* const* columns, int width, std::uint64_t begin, std::uint64_t end,
                  std::uint64_t chunk_boids, unsigned char* out) {
  const auto w = static_cast<std::uint64_t>(width);
  const std::uint64_t elements = w * chunk_boids;
  for (std::uint64_t e = 0; e < elements; ++e) {
    const std::uint64_t boid = begin + e / w;
    const double value = boid < end ? columns[e % w][boid] : 0.0;
    unsigned char bytes[8];
    std::memcpy(bytes, &value, 8);
    for (int k = 0; k < 8; ++k) out[k * elements + e] = bytes[k];
  }
}

}  // namespace

void compress_row_chunks(const double* const* columns, int width, std::uint64_t count,
                         std::uint64_t chunk_boids, std::uint64_t first, int level,
                         std::vector<std::vector<unsigned char>>& out) {
  const std::uint64_t raw = chunk_boids * static_cast<std::uint64_t>(width) * sizeof(double);
  const auto chunks = static_cast<std::int64_t>(out.size());
  bool failed = false;
#pragma omp parallel
  {
    std::vector<unsigned char> shuffled(raw);
#pragma omp for schedule(dynamic)
    for (std::int64_t c = 0; c < chunks; ++c) {
      const std::uint64_t begin = (first + static_cast<std::uint64_t>(c)) * chunk_boids;
      shuffle_rows(columns, width, begin, std::min(count, begin + chunk_boids), chunk_boids,
                   shuffled.data());
      std::vector<unsigned char>& chunk = out[static_cast<std::size_t>(c)];
      uLongf size = compressBound(static_cast<uLong>(raw));
      chunk.resize(size);
      if (compress2(chunk.data(), &size, shuffled.data(), static_cast<uLong>(raw), level) != Z_OK) {
#pragma omp atomic write
        failed = true;
      }
      chunk.resize(size);
    }
  }
  if (failed) throw RuntimeError("zlib could not compress a trajectory chunk");
}

FrameColumns frame_columns(const FlockState& state, int columns, const std::vector<double>& zeros) {
  const bool flat = state.dimensions == 2;
  FrameColumns c;
  c.position = {state.x.data(), state.y.data(), flat ? zeros.data() : state.z.data()};
  c.velocity = {state.vx.data(), state.vy.data(), flat ? zeros.data() : state.vz.data()};
  if (columns == 2) c.position[2] = c.velocity[2] = nullptr;
  return c;
}

}  // namespace boids
