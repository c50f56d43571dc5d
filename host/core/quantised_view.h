// A flock quantised for a screen (kernels/quantise.h): the caller's arrays, each a value a
// boid in input order. boids serve's frames are made of them, on the host or where the flock
// lives (Simulation::quantised_into).
#pragma once

#include <cstdint>

#include "host/model/flock.h"

namespace boids {

struct QuantisedView {
  // x, y[, z]: the bin of 65,536 across the world's side each coordinate lies in.
  std::uint16_t* position[3] = {nullptr, nullptr, nullptr};
  // The azimuth in 256ths of a turn[, the elevation from -pi/2 (0) to pi/2 (255)].
  std::uint8_t* heading[2] = {nullptr, nullptr};
  // Each boid's speed; null where not wanted.
  float* speed = nullptr;
};

// `particles` (in `world`, their dimensions') into `out`, on the host.
void quantise_particles(const Particles& particles, const World& world, const QuantisedView& out);

}  // namespace boids
