// What a flight costs, judged before it flies from its density alone (a uniform start's): a
// boid's mean neighbours and, on CPU threads, a step's time. A flight that would take seconds
// a step says so before it starts, in every tool (run, sweep, serve, the viewer, Python): the
// flock's size is the number a user changes first, and a million boids in the published
// model's 100 x 100 world fly at 8,000 times its density.
#pragma once

#include <cstdint>
#include <string>

#include "host/core/config.h"

namespace boids {

struct FlightCost {
  double neighbors = 0;     ///< a boid's mean neighbours within r, from the density
  double candidates = 0;    ///< the pairs a step visits, about
  double step_seconds = 0;  ///< on this machine's CPU threads, about; 0 on a GPU (not judged)
};

FlightCost flight_cost(const SimulationConfig& config, std::uint64_t count);

/// Boids per unit area (2D) or volume (3D) of `count` boids in the flock's world.
double density_of(const FlockParams& p, std::uint64_t count);
/// The boids per unit area of the model's published example.
double example_density(Model model);
/// Whether a flat flock flies at ten times its model's example density or more: a flock whose
/// --count grew alone, in the published world (the summary and the warning say so alike).
bool far_denser_than_example(const FlockParams& p, std::uint64_t count);

// "" for a flight whose step takes under a few seconds; else, in a line, its neighbours, its
// step's time, and the --density that keeps its model's example's.
std::string slow_flight_warning(const SimulationConfig& config, std::uint64_t count);

}  // namespace boids
