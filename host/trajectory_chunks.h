// A frame's per-boid pairs (x, y or vx, vy) cut into HDF5 chunks and compressed on CPU threads,
// byte for byte as HDF5's shuffle and deflate filters would (HDF5 runs its filters on one
// thread, which made deflate 90 % of a frame's cost), for H5Dwrite_chunk.
#pragma once

#include <cstdint>
#include <vector>

namespace boids {

// Chunks [first, first + out.size()) of the pairs (a[i], b[i]) of `count` boids, `chunk_boids`
// boids each (the last padded with zeros, as HDF5 stores a chunk at the dataset's edge): the
// doubles' bytes shuffled (every first byte, then every second, ...) and deflated in zlib's
// format at `level`. Each chunk replaces the contents of its `out` entry.
void compress_pair_chunks(const double* a, const double* b, std::uint64_t count,
                          std::uint64_t chunk_boids, std::uint64_t first, int level,
                          std::vector<std::vector<unsigned char>>& out);

}  // namespace boids
