// A frame's per-boid rows (x, y (, z) or vx, vy (, vz)) cut into HDF5 chunks and compressed on
// CPU threads, byte for byte as HDF5's shuffle and deflate filters would (HDF5 runs its
// filters on one thread, where deflate was most of a frame's cost), for H5Dwrite_chunk.
#pragma once

#include <array>
#include <cstdint>
#include <vector>

#include "host/model/flock.h"

namespace boids {

// Deflate's fastest level: after the byte shuffle, higher levels save little on positions
// and velocities (docs/formats.md gives the measurements) and cost several times the time.
inline constexpr int kTrajectoryDeflateLevel = 1;

// Chunks [first, first + out.size()) of the rows (columns[0][i], ..., columns[width - 1][i])
// of `count` boids (width 2 or 3), `chunk_boids` boids each (the last padded with zeros, as
// HDF5 stores a chunk at the dataset's edge): the doubles' bytes shuffled (every first byte,
// then every second, ...) and deflated in zlib's format at `level`. Each chunk replaces the
// contents of its `out` entry.
void compress_row_chunks(const double* const* columns, int width, std::uint64_t count,
                         std::uint64_t chunk_boids, std::uint64_t first, int level,
                         std::vector<std::vector<unsigned char>>& out);

// A frame's columns as compress_row_chunks reads them: x, y (, z) and vx, vy (, vz) of `state`,
// `columns` each (3 for a flat flock in a box: z and vz then read `zeros`, a zero a boid).
struct FrameColumns {
  std::array<const double*, 3> position{}, velocity{};
};
FrameColumns frame_columns(const FlockState& state, int columns, const std::vector<double>& zeros);

}  // namespace boids
