#include "host/serve/frame.h"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <type_traits>

#include "host/core/quantised_view.h"
#include "host/metrics/boid_measures.h"
#include "host/serve/flock_image.h"
#include "kernels/quantise.h"

namespace boids::serve {
namespace {

template <typename T>
void put(std::string& out, std::size_t at, T value) {
  std::memcpy(&out[at], &value, sizeof value);  // the machines boids runs on are little-endian
}

}  // namespace

std::uint16_t quantise_position(double value, double side) {
  return kernels::position_bin(value / side * 65536.0);
}

double decoded_position(std::uint16_t q, double side) {
  return (q + 0.5) / 65536.0 * side;
}

const AzimuthVectors& azimuth_vectors() {
  static const AzimuthVectors vectors = [] {
    AzimuthVectors v{};
    for (int a = 0; a < 256; ++a) {
      v.cos[a] = static_cast<float>(std::cos(a / 256.0 * 2 * kPi));
      v.sin[a] = static_cast<float>(std::sin(a / 256.0 * 2 * kPi));
    }
    return v;
  }();
  return vectors;
}

std::uint8_t quantise_azimuth(double vx, double vy) {
  return kernels::azimuth_byte(vx, vy);
}

std::uint8_t quantise_elevation(double vx, double vy, double vz) {
  return kernels::elevation_byte(vx, vy, vz);
}

Snapshot make_snapshot(const FlockState& state, const World& world, std::uint64_t step,
                       std::uint64_t number, bool paused, double radius) {
  Snapshot s;
  make_snapshot_into(s, state, world, step, number, paused, radius);
  return s;
}

namespace {

// `to`'s arrays for `count` particles in `dimensions`, its memory used again; `speeds` the
// same for their speeds.
QuantisedView sized(QuantisedGroup& to, std::size_t count, int dimensions,
                    std::vector<float>* speeds) {
  const bool box = dimensions == 3;
  for (int a = 0; a < 3; ++a) to.position[a].resize(a < (box ? 3 : 2) ? count : 0);
  for (int h = 0; h < 2; ++h) to.heading[h].resize(h < (box ? 2 : 1) ? count : 0);
  if (speeds) speeds->resize(count);
  QuantisedView view;
  for (int a = 0; a < 3; ++a) view.position[a] = to.position[a].data();
  for (int h = 0; h < 2; ++h) view.heading[h] = to.heading[h].data();
  view.speed = speeds ? speeds->data() : nullptr;
  return view;
}

// The bytes of a group of `count` in a frame: 5 or 8 a particle (a byte more when coloured),
// padded to an even length.
std::size_t group_bytes(std::uint64_t count, int dimensions, bool coloured = false) {
  const auto bytes = static_cast<std::size_t>(count) * ((dimensions == 3 ? 8 : 5) + coloured);
  return bytes + bytes % 2;
}

// Each boid's speed in 255ths of the fastest's.
void speed_bytes(ColourBytes& out, const std::vector<float>& speeds) {
  float fastest = 0;
  for (const float s : speeds) {
    if (std::isfinite(s)) fastest = std::max(fastest, s);
  }
  out.top = fastest;
  out.bytes.resize(speeds.size());
  for (std::size_t i = 0; i < speeds.size(); ++i) {
    const double s = speeds[i];
    const double share = fastest > 0 && std::isfinite(s) ? s / fastest : 0.0;
    out.bytes[i] = static_cast<std::uint8_t>(std::lround(share * 255));
  }
}

// The boids where their bins' middles lie: close enough to count neighbours and flocks by.
FlockState decoded(const Snapshot& s) {
  FlockState state;
  state.dimensions = s.dimensions;
  state.resize(s.count());
  std::vector<double>* axes[3] = {&state.x, &state.y, &state.z};
  for (int a = 0; a < s.dimensions; ++a) {
    for (std::size_t i = 0; i < s.count(); ++i)
      (*axes[a])[i] =
          s.region.origin[a] + decoded_position(s.boids.position[a][i], s.region.side[a]);
  }
  return state;
}

void neighbor_bytes(ColourBytes& out, const Snapshot& s, const MeasureLimits& limits) {
  const std::vector<std::uint32_t> counts = neighbor_counts(decoded(s), s.radius, s.world, limits);
  const std::uint32_t most = counts.empty() ? 0 : *std::max_element(counts.begin(), counts.end());
  out.top = static_cast<float>(most);
  out.bounded = most >= limits.most_neighbors;
  out.bytes.resize(counts.size());
  for (std::size_t i = 0; i < counts.size(); ++i)
    out.bytes[i] = most == 0 ? std::uint8_t{0}
                             : static_cast<std::uint8_t>((counts[i] * 255ull + most / 2) / most);
}

void flock_bytes(ColourBytes& out, const Snapshot& s, const MeasureLimits& limits) {
  const std::vector<std::uint32_t> ranks = flock_ranks(decoded(s), s.radius, s.world, limits);
  std::vector<std::uint64_t> sizes;
  for (const std::uint32_t r : ranks) {
    if (r >= sizes.size()) sizes.resize(r + 1, 0);
    sizes[r] += 1;
  }
  out.top = static_cast<float>(sizes.size());  // how many flocks
  out.bytes.resize(ranks.size());
  for (std::size_t i = 0; i < ranks.size(); ++i)
    out.bytes[i] = sizes[ranks[i]] == 1 ? 255 : static_cast<std::uint8_t>(std::min(ranks[i], 254u));
}

}  // namespace

const ColourBytes* Snapshot::colour_bytes(Colouring colouring,
                                          const std::atomic<bool>* cancelled) const {
  const auto c = static_cast<std::size_t>(colouring);
  if (colouring == Colouring::kHeading) return nullptr;
  const std::lock_guard<std::mutex> lock(colours->mutex);
  if (!colours->made[c]) {
    if (colouring == Colouring::kSpeed) {
      if (speeds.size() != count()) return nullptr;  // a snapshot made without them
      speed_bytes(colours->by[c], speeds);
    } else if (!(radius > 0)) {
      return nullptr;
    }
    MeasureLimits limits;
    limits.most_neighbors = kMostNeighbors;
    limits.cancelled = cancelled;
    if (colouring == Colouring::kNeighbors) neighbor_bytes(colours->by[c], *this, limits);
    if (colouring == Colouring::kFlock) flock_bytes(colours->by[c], *this, limits);
    colours->made[c] = true;
  }
  return &colours->by[c];
}

namespace {

// A snapshot made again: no page holds it (host/serve/flock_news.h), so its colours are its
// own to make again when a page asks.
void forget_colours(Snapshot& s) {
  for (bool& made : s.colours->made) made = false;
}

// The region a snapshot's bins span in a bounded world: the world's box; the centre, its middle.
void place_in_world(Snapshot& s, const World& world) {
  s.region = world_region(world, s.dimensions);
  for (int a = 0; a < 3; ++a) s.centre[a] = s.region.side[a] / 2;
}

// In open space: the flock's bounds, each side at least `radius` wide, and the centre a page
// follows there, the boids' mean position.
void place_on_flock(Snapshot& s, const FlockState& state, double radius) {
  s.region = flock_region(state, state.predators, radius > 0 ? radius : 1.0);
  const std::vector<double>* axes[3] = {&state.x, &state.y, &state.z};
  for (int a = 0; a < 3; ++a) {
    double sum = 0;
    std::size_t counted = 0;
    if (a < s.dimensions) {
      for (const double v : *axes[a]) {
        if (!std::isfinite(v)) continue;
        sum += v;
        counted += 1;
      }
    }
    s.centre[a] = counted > 0 ? sum / static_cast<double>(counted)
                              : s.region.origin[a] + s.region.side[a] / 2;
  }
}

}  // namespace

void make_snapshot_into(Snapshot& s, const FlockState& state, const World& world,
                        std::uint64_t step, std::uint64_t number, bool paused, double radius) {
  s.step = step;
  s.number = number;
  s.dimensions = state.dimensions;
  s.world = world;
  s.paused = paused;
  s.radius = radius;
  if (world.open()) {
    place_on_flock(s, state, radius);
  } else {
    place_in_world(s, world);
  }
  quantise_particles(state, s.region, sized(s.boids, state.size(), state.dimensions, &s.speeds));
  quantise_particles(state.predators, s.region,
                     sized(s.predators, state.predators.size(), state.dimensions, nullptr));
  forget_colours(s);
}

void make_snapshot_into(Snapshot& s, const Simulation& sim, std::uint64_t number, bool paused) {
  const FlockParams& params = sim.config().params;
  if (params.world.open()) {  // its bounds first, on the host
    FlockState state = sim.state();
    state.predators = sim.predators();
    make_snapshot_into(s, state, params.world, sim.steps_taken(), number, paused, params.radius);
    return;
  }
  s.step = sim.steps_taken();
  s.number = number;
  s.dimensions = params.dimensions;
  s.world = params.world;
  s.paused = paused;
  s.radius = params.radius;
  place_in_world(s, params.world);
  sim.quantised_into(sized(s.boids, sim.count(), params.dimensions, &s.speeds));
  const Particles predators = sim.predators();
  quantise_particles(predators, s.region,
                     sized(s.predators, predators.size(), params.dimensions, nullptr));
  forget_colours(s);
}

std::size_t frame_bytes(std::uint64_t boids, int dimensions, std::uint64_t predators,
                        bool coloured) {
  return kFrameHeaderBytes + group_bytes(boids, dimensions, coloured) +
         group_bytes(predators, dimensions);
}

std::string encode_frame(const Snapshot& snapshot, std::uint64_t max_boids, Colouring colouring) {
  std::string out;
  encode_frame_into(out, snapshot, max_boids, colouring);
  return out;
}

void encode_frame_into(std::string& out, const Snapshot& snapshot, std::uint64_t max_boids,
                       Colouring colouring, const std::atomic<bool>* cancelled) {
  const std::uint64_t total = snapshot.count();
  const std::uint64_t most = std::max<std::uint64_t>(max_boids, 1);
  const std::uint64_t stride = total <= most ? 1 : (total + most - 1) / most;
  const std::uint64_t boids = total == 0 ? 0 : (total + stride - 1) / stride;
  const bool box = snapshot.dimensions == 3;
  const std::uint64_t predators = snapshot.predators.count();
  const ColourBytes* colours = snapshot.colour_bytes(colouring, cancelled);
  if (!colours) colouring = Colouring::kHeading;
  out.resize(frame_bytes(boids, snapshot.dimensions, predators, colours != nullptr));
  std::memcpy(&out[0], "BOID", 4);
  put<std::uint8_t>(out, 4, kFrameVersion);
  put<std::uint8_t>(out, 5, static_cast<std::uint8_t>(snapshot.dimensions));
  put<std::uint16_t>(out, 6,
                     (snapshot.paused ? 1 : 0) | (colours && colours->bounded ? 4 : 0) |
                         (snapshot.world.open() ? 8 : 0));
  put<std::uint64_t>(out, 8, snapshot.step);
  put<std::uint32_t>(out, 16, static_cast<std::uint32_t>(boids));
  put<std::uint32_t>(out, 20, static_cast<std::uint32_t>(total));
  put<std::uint32_t>(out, 24, static_cast<std::uint32_t>(stride));
  put<float>(out, 28, static_cast<float>(snapshot.region.side[0]));
  put<float>(out, 32, static_cast<float>(snapshot.region.side[1]));
  put<float>(out, 36, static_cast<float>(box ? snapshot.region.side[2] : 0.0));
  put<std::uint64_t>(out, 40, snapshot.number);
  put<std::uint32_t>(out, 48, static_cast<std::uint32_t>(predators));
  put<std::uint32_t>(out, kFrameHeldAt, 0);  // the server's, as it sends the frame
  put<std::uint32_t>(out, 56, static_cast<std::uint8_t>(colouring));  // and 3 bytes of 0
  put<float>(out, 60, colours ? colours->top : 0.0f);
  for (int a = 0; a < 3; ++a) {
    put<double>(out, 64 + 8 * a, a < snapshot.dimensions ? snapshot.region.origin[a] : 0.0);
    put<double>(out, 88 + 8 * a, a < snapshot.dimensions ? snapshot.centre[a] : 0.0);
  }
  std::size_t at = kFrameHeaderBytes;
  // Each array of a group in turn: whole (a copy) or every stride-th particle; then the pad.
  const auto put_group = [&](const QuantisedGroup& group, std::uint64_t taken, std::uint64_t every,
                             const ColourBytes* coloured) {
    const std::size_t start = at;
    const auto put_array = [&](const auto& from) {
      using T = typename std::decay_t<decltype(from)>::value_type;
      if (taken == 0) return;  // an empty array's data() may be null, which memcpy refuses
      if (every == 1) {
        std::memcpy(&out[at], from.data(), taken * sizeof(T));
      } else {
        for (std::uint64_t k = 0; k < taken; ++k) put<T>(out, at + k * sizeof(T), from[k * every]);
      }
      at += taken * sizeof(T);
    };
    for (int a = 0; a < (box ? 3 : 2); ++a) put_array(group.position[a]);
    for (int h = 0; h < (box ? 2 : 1); ++h) put_array(group.heading[h]);
    if (coloured) put_array(coloured->bytes);
    if ((at - start) % 2 == 1) out[at++] = 0;
  };
  put_group(snapshot.boids, boids, stride, colours);
  put_group(snapshot.predators, predators, 1, nullptr);
}

void encode_picture_frame_into(std::string& out, const Snapshot& snapshot, const ImageView& view,
                               PictureDrawer& drawer, int quality) {
  Snapshot frame_of_predators;  // the header and the predators as a frame of no boids says them
  frame_of_predators.step = snapshot.step;
  frame_of_predators.number = snapshot.number;
  frame_of_predators.dimensions = snapshot.dimensions;
  frame_of_predators.world = snapshot.world;
  frame_of_predators.region = snapshot.region;
  std::copy(std::begin(snapshot.centre), std::end(snapshot.centre), frame_of_predators.centre);
  frame_of_predators.paused = snapshot.paused;
  frame_of_predators.predators = snapshot.predators;
  encode_frame_into(out, frame_of_predators, 1);
  const std::uint16_t flags = (snapshot.paused ? 1 : 0) | 2 | (snapshot.world.open() ? 8 : 0);
  put<std::uint16_t>(out, 6, flags);
  put<std::uint32_t>(out, 20, static_cast<std::uint32_t>(snapshot.count()));
  put<std::uint32_t>(out, 24, 0);
  out += encode_jpeg(drawer.pixels(snapshot, view), view.width, view.height, quality);
}

}  // namespace boids::serve
