// A flock quantised for a screen (kernels/quantise.h): the caller's arrays, each a value a
// boid in input order. boids serve's frames are made of them, on the host or where the flock
// lives (Simulation::quantised_into).
#pragma once

#include "host/model/flock.h"
#include "kernels/quantise.h"

namespace boids {

// x, y[, z] in 16-bit bins of the region, the heading's bytes and the speeds.
using QuantisedView = kernels::QuantisedArrays;

// The box whose sides a screen's 65,536 bins span on each axis: a bounded world's own (from
// 0), or in open space, where the world is only the start's region, the flock's bounds.
struct Region {
  double origin[3] = {0, 0, 0};
  double side[3] = {1, 1, 1};
};

// The world's box (the third side 1 in 2D).
Region world_region(const World& world, int dimensions);

// The bounds of `boids` and `predators` (their dimensions'), each side at least `least` wide
// about its middle: where a screen follows a flock in open space. A region of nothing is
// `least` wide about 0.
Region flock_region(const Particles& boids, const Particles& predators, double least);

// `particles` (in `region`, their dimensions') into `out`, on the host.
void quantise_particles(const Particles& particles, const Region& region, const QuantisedView& out);

}  // namespace boids
