// A flock's frame as `boids serve` sends it to a browser: every boid's position quantised to 16
// bits per coordinate within the frame's region (the world; in open space the flock's bounds),
// and its heading to 8 bits (an azimuth and an elevation in 3D): 5 bytes a boid in 2D, 8 in a
// box; then the predators (--predators), the same way and never subsampled. The page decodes
// it (host/serve/page/frames.js); the two sides are held together by
// tests/serve/test_serve_parts.cpp and the browser's tests.
//
// Layout, little-endian: a 112-byte header, then the boids' arrays and the predators', each a
// field (so that the page reads them as typed arrays without copying): x, y[, z] as uint16,
// then the azimuth as uint8 [, the elevation as uint8], then, for the boids alone and when the
// page colours them by something else than their heading, a byte each of that; each group
// padded with a zero byte to an even length (so that the next group's uint16 arrays are
// aligned).
//
//   0  "BOID"                       4  format version (4)      5  dimensions (2 or 3)
//   6  uint16: flags (bit 0: paused; bit 1: a picture, below; bit 2: the byte 255 a bound:
//      neighbours counted to kMostNeighbors; bit 3: open space, the region the flock's)
//   8  uint64: step
//  16  uint32: boids in this frame  20  uint32: boids in the flock (the frame holds boids
//      0, stride, 2 stride, ... of the flock in input order)   24  uint32: stride
//  28  float32 x 3: the region's width, height, depth          40  uint64: the frame's number
//  48  uint32: predators
//  52  uint32: microseconds the server held the page's ask (waiting for a newer snapshot,
//      encoding, behind its other messages): the page takes them from its measure of the link
//  56  uint8: the colouring the boids' bytes hold (Colouring; 0: none, the heading)
//  57  3 bytes of 0                 60  float32: the value of the byte 255 (speed, neighbours)
//  64  float64 x 3: the region's origin (0 in a bounded world): a bin q of a side s lies at
//      origin + (q + 0.5) / 65536 s
//  88  float64 x 3: in open space the boids' mean position, which a page's camera follows
//      (a bounded world's middle)
//
// A picture (flag bit 1; host/serve/flock_image.h) holds no boids (0 in this frame, the
// flock's in the flock, stride 0): the predators' group, then a JPEG of the whole flock at the
// page's size and camera, to the frame's end.
#pragma once

#include <atomic>
#include <cstdint>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "host/core/quantised_view.h"
#include "host/core/simulation.h"
#include "host/model/flock.h"
#include "host/render/colouring.h"

namespace boids::serve {

inline constexpr std::size_t kFrameHeaderBytes = 112;
inline constexpr std::uint8_t kFrameVersion = 4;
inline constexpr std::size_t kFrameHeldAt = 52;  // where the server writes its hold

// What a page colours its boids by, in every screen's vocabulary (host/render/colouring.h):
// their heading (the frame's own), their speed (0 to the fastest boid of the frame), their
// neighbours within the flock's radius (0 to the most any boid has), or their flock (its rank
// by size: 0 the largest, ... 254; 255 a boid alone). A flock's density is a picture's.
using render::Colouring;
// The colourings a frame's boids carry a byte each of (Colouring's first four).
inline constexpr std::size_t kFrameColourings = 4;

// The most neighbours a page's colouring counts: past it, a boid is "this many or more", so that
// a page's largest radius (where each boid neighbours most of the flock) costs a bounded count.
inline constexpr std::uint32_t kMostNeighbors = 1000;

// A byte a boid in input order, and the value of the byte 255 (a bound when `bounded`: the
// boids at it reached kMostNeighbors).
struct ColourBytes {
  std::vector<std::uint8_t> bytes;
  float top = 0;
  bool bounded = false;
};

// Whether colouring by `colouring` measures the boids (neighbours, flocks): work that grows with
// the radius, done off the server's thread (host/serve/picture_painter.h).
inline bool is_measured(Colouring colouring) {
  return colouring == Colouring::kNeighbors || colouring == Colouring::kFlock;
}

// Particles quantised, in input order: x, y[, z] and azimuth[, elevation].
struct QuantisedGroup {
  std::vector<std::uint16_t> position[3];
  std::vector<std::uint8_t> heading[2];
  std::size_t count() const { return position[0].size(); }
};

// Every boid of a flock at one step, and its predators, quantised: what the stepping thread
// hands to the clients, each of which takes its own subsample of the boids.
struct Snapshot {
  Snapshot() : colours(std::make_shared<Colours>()) {}

  std::uint64_t step = 0;
  std::uint64_t number = 0;  // counts the snapshots of a flight: a client sends each once
  int dimensions = 2;
  World world;
  Region region;          // the box the bins span: the world's, or in open space the flock's
  double centre[3] = {};  // in open space the boids' mean position, else the world's middle
  bool paused = false;
  QuantisedGroup boids;
  QuantisedGroup predators;
  double radius = 0;          // the flock's, for its neighbours and flocks; 0 where it is not known
  std::vector<float> speeds;  // the boids', whose bytes the speed's colouring holds
  std::size_t count() const { return boids.count(); }

  // The boids' bytes of `colouring`; null for the heading, and where the snapshot cannot tell
  // (neighbours and flocks of a flock whose radius it does not know). Each is made when a page
  // first asks for it, once for every page: speeds from the snapshot's speeds, neighbours and
  // flocks from the quantised positions, which throws MeasureCancelled
  // (host/metrics/boid_measures.h) once `cancelled` is raised, leaving them to make again.
  const ColourBytes* colour_bytes(Colouring colouring,
                                  const std::atomic<bool>* cancelled = nullptr) const;

  struct Colours {
    std::mutex mutex;
    ColourBytes by[kFrameColourings];  // by Colouring
    bool made[kFrameColourings] = {};
  };
  std::shared_ptr<Colours> colours;  // shared by copies of a snapshot, made again by _into
};

// The quantised coordinate of `value` in [0, side): floor(value / side * 65536), within
// [0, 65535]; and its decoded value, the middle of its bin.
std::uint16_t quantise_position(double value, double side);
double decoded_position(std::uint16_t q, double side);

// Each azimuth byte's heading as a unit vector, cos and sin of a 256th of a turn each: what a
// picture sums of its boids for their mean heading.
struct AzimuthVectors {
  float cos[256], sin[256];
};
const AzimuthVectors& azimuth_vectors();

// The heading of (vx, vy[, vz]): the azimuth atan2(vy, vx) in 256ths of a turn (computed within
// 1e-5 radians); the elevation asin(vz / |v|) from -pi/2 (0) to pi/2 (255). A boid at rest
// heads along x.
std::uint8_t quantise_azimuth(double vx, double vy);
std::uint8_t quantise_elevation(double vx, double vy, double vz);

// The snapshot of `state` (input order, its predators too) in `world`, in open space over the
// flock's bounds (each side at least `radius` wide, 1 where it is not known). The _into forms
// reuse the
// memory of what they fill: fresh pages cost more than the quantisation (bench/results:
// serve's frames).
Snapshot make_snapshot(const FlockState& state, const World& world, std::uint64_t step,
                       std::uint64_t number, bool paused, double radius = 0);
void make_snapshot_into(Snapshot& snapshot, const FlockState& state, const World& world,
                        std::uint64_t step, std::uint64_t number, bool paused, double radius = 0);
// The snapshot of a flying flock, quantised where it lives (Simulation::quantised_into): on a
// GPU, 9 bytes a boid (12 in 3D) cross to the host. In open space its bounds come first: its
// state crosses, and is quantised on the host.
void make_snapshot_into(Snapshot& snapshot, const Simulation& sim, std::uint64_t number,
                        bool paused);

// The frame of `snapshot` for a client that takes at most `max_boids` boids: every boid when
// they fit, else every stride-th (the stride the smallest that fits), the same boids each frame
// so that the page can interpolate them; coloured as asked where the snapshot can tell, else
// by heading (the header says which).
std::string encode_frame(const Snapshot& snapshot, std::uint64_t max_boids,
                         Colouring colouring = Colouring::kHeading);
void encode_frame_into(std::string& out, const Snapshot& snapshot, std::uint64_t max_boids,
                       Colouring colouring = Colouring::kHeading,
                       const std::atomic<bool>* cancelled = nullptr);

// The frame of the whole flock of `snapshot` drawn by `drawer` as a picture (a JPEG of
// `quality`) with its predators, for a page whose link cannot carry the points.
struct ImageView;
class PictureDrawer;
void encode_picture_frame_into(std::string& out, const Snapshot& snapshot, const ImageView& view,
                               PictureDrawer& drawer, int quality = 80);

// The bytes a frame of `boids` boids and `predators` predators in `dimensions` takes, with a
// byte a boid more when `coloured`.
std::size_t frame_bytes(std::uint64_t boids, int dimensions, std::uint64_t predators = 0,
                        bool coloured = false);

}  // namespace boids::serve
