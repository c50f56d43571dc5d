#include "host/serve/frame.h"

#include <algorithm>
#include <cmath>
#include <cstring>

namespace boids::serve {
namespace {

template <typename T>
void put(std::string& out, std::size_t at, T value) {
  std::memcpy(&out[at], &value, sizeof value);  // the machines boids runs on are little-endian
}

}  // namespace

std::uint16_t quantise_position(double value, double side) {
  const double bin = std::floor(value / side * 65536.0);
  if (!(bin > 0)) return 0;  // NaN too
  return static_cast<std::uint16_t>(std::min(bin, 65535.0));
}

double decoded_position(std::uint16_t q, double side) {
  return (q + 0.5) / 65536.0 * side;
}

std::uint8_t quantise_azimuth(double vx, double vy) {
  const double turns = std::atan2(vy, vx) / (2 * kPi);  // (-1/2, 1/2]
  const auto bin = static_cast<long>(std::lround(turns * 256.0));
  return static_cast<std::uint8_t>(((bin % 256) + 256) % 256);
}

std::uint8_t quantise_elevation(double vx, double vy, double vz) {
  const double speed = std::sqrt(vx * vx + vy * vy + vz * vz);
  const double elevation = speed > 0 ? std::asin(std::clamp(vz / speed, -1.0, 1.0)) : 0.0;
  return static_cast<std::uint8_t>(std::lround((elevation / kPi + 0.5) * 255.0));
}

Snapshot make_snapshot(const FlockState& state, const World& world, std::uint64_t step,
                       std::uint64_t number, bool paused) {
  Snapshot s;
  s.step = step;
  s.number = number;
  s.dimensions = state.dimensions;
  s.world = world;
  s.paused = paused;
  const std::size_t n = state.size();
  const bool box = state.dimensions == 3;
  for (int a = 0; a < (box ? 3 : 2); ++a) s.position[a].resize(n);
  for (int h = 0; h < (box ? 2 : 1); ++h) s.heading[h].resize(n);
  const auto count = static_cast<std::int64_t>(n);
#pragma omp parallel for schedule(static)
  for (std::int64_t k = 0; k < count; ++k) {
    const auto i = static_cast<std::size_t>(k);
    s.position[0][i] = quantise_position(state.x[i], world.width);
    s.position[1][i] = quantise_position(state.y[i], world.height);
    s.heading[0][i] = quantise_azimuth(state.vx[i], state.vy[i]);
    if (box) {
      s.position[2][i] = quantise_position(state.z[i], world.depth);
      s.heading[1][i] = quantise_elevation(state.vx[i], state.vy[i], state.vz[i]);
    }
  }
  return s;
}

std::size_t frame_bytes(std::uint64_t boids, int dimensions) {
  return kFrameHeaderBytes + static_cast<std::size_t>(boids) * (dimensions == 3 ? 8 : 5);
}

std::string encode_frame(const Snapshot& snapshot, std::uint64_t max_boids) {
  const std::uint64_t total = snapshot.count();
  const std::uint64_t most = std::max<std::uint64_t>(max_boids, 1);
  const std::uint64_t stride = total <= most ? 1 : (total + most - 1) / most;
  const std::uint64_t boids = total == 0 ? 0 : (total + stride - 1) / stride;
  const bool box = snapshot.dimensions == 3;
  std::string out(frame_bytes(boids, snapshot.dimensions), '\0');
  std::memcpy(&out[0], "BOID", 4);
  put<std::uint8_t>(out, 4, kFrameVersion);
  put<std::uint8_t>(out, 5, static_cast<std::uint8_t>(snapshot.dimensions));
  put<std::uint16_t>(out, 6, snapshot.paused ? 1 : 0);
  put<std::uint64_t>(out, 8, snapshot.step);
  put<std::uint32_t>(out, 16, static_cast<std::uint32_t>(boids));
  put<std::uint32_t>(out, 20, static_cast<std::uint32_t>(total));
  put<std::uint32_t>(out, 24, static_cast<std::uint32_t>(stride));
  put<float>(out, 28, static_cast<float>(snapshot.world.width));
  put<float>(out, 32, static_cast<float>(snapshot.world.height));
  put<float>(out, 36, static_cast<float>(box ? snapshot.world.depth : 0.0));
  put<std::uint64_t>(out, 40, snapshot.number);
  std::size_t at = kFrameHeaderBytes;
  for (int a = 0; a < (box ? 3 : 2); ++a) {
    const std::vector<std::uint16_t>& from = snapshot.position[a];
    for (std::uint64_t k = 0; k < boids; ++k) put<std::uint16_t>(out, at + 2 * k, from[k * stride]);
    at += 2 * boids;
  }
  for (int h = 0; h < (box ? 2 : 1); ++h) {
    const std::vector<std::uint8_t>& from = snapshot.heading[h];
    for (std::uint64_t k = 0; k < boids; ++k) out[at + k] = static_cast<char>(from[k * stride]);
    at += boids;
  }
  return out;
}

}  // namespace boids::serve
