// Ensembles: many independent flocks flown for the same plan, and the statistics of the order
// parameter over them (a sweep's point is an ensemble of replicas). Small flocks on the cpu
// backend fly side by side, one flock to a thread, where one flock could not keep the threads
// busy; every flock flies exactly the flight it flies alone.
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <vector>

#include "host/simulation.h"

namespace boids {

// What a flock of an ensemble measures: after `discard` steps, every `every` steps until
// `discard + steps` (steps / every samples; `every` divides `steps`).
struct EnsemblePlan {
  std::uint64_t discard = 0;
  std::uint64_t steps = 1000;
  std::uint64_t every = 10;
};

struct EnsembleSample {
  double polarization = 0;
  double flocks = 0;
  double largest_flock = 0;
  double mean_nn_distance = 0;
};

// A flock of the ensemble, made when its turn comes (so that a large ensemble never holds
// every flock at once).
using FlockMaker = std::function<std::unique_ptr<Simulation>()>;

// Flies every flock by `plan` and returns each one's samples, in the order of `flocks`.
// `threads` flocks fly at once, each on one OpenMP thread (1: one after another, each on every
// thread). `done(i, samples)` is called, from one thread at a time, as flock i finishes.
using FlockDone = std::function<void(std::size_t, const std::vector<EnsembleSample>&)>;
std::vector<std::vector<EnsembleSample>> fly_ensemble(const std::vector<FlockMaker>& flocks,
                                                      const EnsemblePlan& plan, int threads,
                                                      const FlockDone& done = {});

// How many flocks of `count` boids on `config` fly at once on this machine: the cpu backend's
// threads for flocks too small to keep them busy (below kSideBySideBoids), else 1.
inline constexpr std::uint64_t kSideBySideBoids = 50000;
int ensemble_threads(const SimulationConfig& config, std::uint64_t count, std::size_t flocks);

// The order parameter's statistics over an ensemble of flocks of `count` boids: every sample of
// every replica counts once; the standard error is over the replicas' means (a flock's samples
// are correlated in time; replicas are independent).
struct EnsembleStatistics {
  std::uint64_t replicas = 0, samples = 0;
  double polarization_mean = 0, polarization_std = 0, polarization_sem = 0;
  double binder = 0;          // U = 1 - <phi^4> / (3 <phi^2>^2)
  double susceptibility = 0;  // N (<phi^2> - <phi>^2)
  double flocks_mean = 0, largest_flock_mean = 0, nn_distance_mean = 0;
};
EnsembleStatistics ensemble_statistics(const std::vector<std::vector<EnsembleSample>>& replicas,
                                       std::uint64_t count);

}  // namespace boids
