// A flock quantised for a screen (kernels/quantise.h): the caller's arrays, each a value a
// boid in input order. boids serve's frames are made of them, on the host or where the flock
// lives (Simulation::quantised_into).
#pragma once

#include "host/model/flock.h"
#include "kernels/quantise.h"

namespace boids {

// x, y[, z] in 16-bit bins of the world, the heading's bytes and the speeds.
using QuantisedView = kernels::QuantisedArrays;

// `particles` (in `world`, their dimensions') into `out`, on the host.
void quantise_particles(const Particles& particles, const World& world, const QuantisedView& out);

}  // namespace boids
