// Ensembles: many independent flocks flown for the same plan, and the statistics of the order
// parameter over them (a sweep's point is an ensemble of replicas). Small flocks fly in
// batches on a GPU and side by side on CPU threads; every flock flies exactly the flight it
// flies alone.
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <vector>

#include "host/core/simulation.h"

namespace boids {

/// What a flock of an ensemble measures: after `discard` steps, every `every` steps until
/// `discard + steps` (steps / every samples; `every` divides `steps`).
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
  double milling = 0;
};

/// A flock of the ensemble: its configuration, its size, and its start, made when its turn
/// comes (so that a large ensemble never holds every start at once).
struct EnsembleFlock {
  SimulationConfig config;
  std::uint64_t count = 0;
  std::function<FlockState()> start;
};

/// How the flocks fly: one after another, each on every thread (the default); `threads` at
/// once, each on one OpenMP thread; or in batches of consecutive flocks of at most
/// `batch_boids` boids in all (host/core/flock_batch.h), each batch on the whole machine.
struct EnsembleSchedule {
  int threads = 1;
  std::uint64_t batch_boids = 0;  ///< 0: no batches
};

/// Flies every flock by `plan` and returns each one's samples, in the order of `flocks`; every
/// flock flies the flight it flies alone, whatever the schedule. `done(i, samples)` is called,
/// from one thread at a time, as flock i finishes (a batch's flocks finish together).
using FlockDone = std::function<void(std::size_t, const std::vector<EnsembleSample>&)>;
std::vector<std::vector<EnsembleSample>> fly_ensemble(const std::vector<EnsembleFlock>& flocks,
                                                      const EnsemblePlan& plan,
                                                      const EnsembleSchedule& schedule,
                                                      const FlockDone& done = {});

/// The schedule for `flocks` on this machine. Automatically: on a GPU, flocks below
/// kBatchedBoids fly in batches of up to kBatchBoids (a flock alone fills a GPU only from a few
/// hundred thousand boids); on the cpu backend, flocks below kSideBySideBoids fly side by side,
/// a flock to a thread, where one flock could not keep the threads busy (bench/results/README.md
/// compares the ways on CPUs). Or as asked: alone, side by side, or batched (InputError where
/// the flocks cannot share a batch).
enum class EnsembleWay { kAuto, kAlone, kSideBySide, kBatched };
inline constexpr std::uint64_t kSideBySideBoids = 50000;
inline constexpr std::uint64_t kBatchedBoids = 1 << 18;
inline constexpr std::uint64_t kBatchBoids = 1 << 22;
EnsembleSchedule ensemble_schedule(const std::vector<EnsembleFlock>& flocks,
                                   EnsembleWay way = EnsembleWay::kAuto);

/// The order parameter's statistics over an ensemble of flocks of `count` boids, sampled every
/// `every` steps (host/core/ensemble_statistics.cpp): every sample of every replica counts once.
/// A flock's samples are correlated in time and replicas are independent, so the standard
/// errors are over the replicas: of their means for the polarization, by the jackknife (each
/// replica left out in turn) for the Binder cumulant and the susceptibility; 0 with one
/// replica.
struct EnsembleStatistics {
  std::uint64_t replicas = 0, samples = 0;
  double polarization_mean = 0, polarization_std = 0, polarization_sem = 0;
  double binder = 0;          ///< U = 1 - mean(phi^4) / (3 mean(phi^2)^2), the Binder cumulant
  double susceptibility = 0;  ///< N (mean(phi^2) - mean(phi)^2)
  double binder_sem = 0, susceptibility_sem = 0;
  /// The polarization's integrated autocorrelation time, in steps: the mean over replicas of
  /// 1/2 + the sum of its normalised autocorrelation up to Sokal's window (the first lag at
  /// least 5 times the time summed so far), times `every`.
  double autocorrelation_steps = 0;
  /// Independent samples the samples are worth: samples / (2 tau), tau in samples.
  double effective_samples = 0;
  double flocks_mean = 0, largest_flock_mean = 0, nn_distance_mean = 0;
  /// Milling's mean over every sample, and its standard error over the replicas' means.
  double milling_mean = 0, milling_sem = 0;
};
EnsembleStatistics ensemble_statistics(const std::vector<std::vector<EnsembleSample>>& replicas,
                                       std::uint64_t count, std::uint64_t every = 1);

}  // namespace boids
