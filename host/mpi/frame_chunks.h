// A trajectory's frame written by a flock spread over ranks (host/io/trajectory_file.h): each
// rank compresses the chunks of its own stripe of whole chunks (RankFlock::frame_chunks), and
// rank 0's writer takes them a batch at a time, gathered from the ranks that hold them. So no
// rank gathers the flock, the compression (most of a frame's cost) runs on every rank, and
// rank 0 holds a batch of compressed chunks at most; the file is one process's, through the
// same writer (its disk reservation, its whole frames).
#pragma once

#include <array>
#include <cstdint>
#include <vector>

namespace boids::mpi {

using CompressedChunks = std::vector<std::vector<unsigned char>>;

// A rank's chunks of a frame: chunks [first, first + of[q].size()) of the positions (q = 0)
// and the velocities (q = 1).
struct FrameChunks {
  std::uint64_t first = 0;
  std::array<CompressedChunks, 2> of;
};

// Rank 0, while its writer asks: chunks [first, first + out.size()) of quantity `quantity`
// into `out`, from the ranks that hold them (every other rank in serve_frame_chunks).
void gather_frame_chunks(const FrameChunks& mine, int quantity, std::uint64_t first,
                         CompressedChunks& out);
// Rank 0, once its writer is done with the frame (or failed): lets the others go on.
void end_frame_chunks();
// Every other rank: sends rank 0 its part of each batch it asks for, until it ends the frame.
void serve_frame_chunks(const FrameChunks& mine);

}  // namespace boids::mpi
