// A flock's frame as `boids serve` sends it to a browser: every boid's position quantised to 16
// bits per coordinate within the world, and its heading to 8 bits (an azimuth and an elevation
// in 3D): 5 bytes a boid in 2D, 8 in a box; then the predators (--predators), the same way and
// never subsampled. The page decodes it (host/serve/page/frames.js); the two sides are held
// together by tests/serve/test_serve_parts.cpp and the browser's tests.
//
// Layout, little-endian: a 56-byte header, then the boids' arrays and the predators', each a
// field (so that the page reads them as typed arrays without copying): x, y[, z] as uint16,
// then the azimuth as uint8 [, the elevation as uint8], each group padded with a zero byte to
// an even length (so that the next group's uint16 arrays are aligned).
//
//   0  "BOID"                       4  format version (2)      5  dimensions (2 or 3)
//   6  uint16: flags (bit 0: paused)                           8  uint64: step
//  16  uint32: boids in this frame  20  uint32: boids in the flock (the frame holds boids
//      0, stride, 2 stride, ... of the flock in input order)   24  uint32: stride
//  28  float32 x 3: the world's width, height, depth           40  uint64: the frame's number
//  48  uint32: predators            52  4 bytes of 0
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "host/model/flock.h"

namespace boids::serve {

inline constexpr std::size_t kFrameHeaderBytes = 56;
inline constexpr std::uint8_t kFrameVersion = 2;

// Particles quantised, in input order: x, y[, z] and azimuth[, elevation].
struct QuantisedGroup {
  std::vector<std::uint16_t> position[3];
  std::vector<std::uint8_t> heading[2];
  std::size_t count() const { return position[0].size(); }
};

// Every boid of a flock at one step, and its predators, quantised: what the stepping thread
// hands to the clients, each of which takes its own subsample of the boids.
struct Snapshot {
  std::uint64_t step = 0;
  std::uint64_t number = 0;  // counts the snapshots of a flight: a client sends each once
  int dimensions = 2;
  World world;
  bool paused = false;
  QuantisedGroup boids;
  QuantisedGroup predators;
  std::size_t count() const { return boids.count(); }
};

// The quantised coordinate of `value` in [0, side): floor(value / side * 65536), within
// [0, 65535]; and its decoded value, the middle of its bin.
std::uint16_t quantise_position(double value, double side);
double decoded_position(std::uint16_t q, double side);

// The heading of (vx, vy[, vz]): the azimuth atan2(vy, vx) in 256ths of a turn (computed within
// 1e-5 radians); the elevation asin(vz / |v|) from -pi/2 (0) to pi/2 (255). A boid at rest
// heads along x.
std::uint8_t quantise_azimuth(double vx, double vy);
std::uint8_t quantise_elevation(double vx, double vy, double vz);

// The snapshot of `state` (input order, its predators too) in `world`. The _into forms reuse the
// memory of what they fill: fresh pages cost more than the quantisation (bench/results:
// serve's frames).
Snapshot make_snapshot(const FlockState& state, const World& world, std::uint64_t step,
                       std::uint64_t number, bool paused);
void make_snapshot_into(Snapshot& snapshot, const FlockState& state, const World& world,
                        std::uint64_t step, std::uint64_t number, bool paused);

// The frame of `snapshot` for a client that takes at most `max_boids` boids: every boid when
// they fit, else every stride-th (the stride the smallest that fits), the same boids each frame
// so that the page can interpolate them.
std::string encode_frame(const Snapshot& snapshot, std::uint64_t max_boids);
void encode_frame_into(std::string& out, const Snapshot& snapshot, std::uint64_t max_boids);

// The bytes a frame of `boids` boids and `predators` predators in `dimensions` takes.
std::size_t frame_bytes(std::uint64_t boids, int dimensions, std::uint64_t predators = 0);

}  // namespace boids::serve
