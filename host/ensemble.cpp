#include "host/ensemble.h"

#include <omp.h>

#include <algorithm>
#include <atomic>
#include <cmath>
#include <exception>
#include <mutex>
#include <thread>

namespace boids {
namespace {

std::vector<EnsembleSample> fly(Simulation& sim, const EnsemblePlan& plan) {
  std::vector<EnsembleSample> samples;
  sim.step(plan.discard);
  for (std::uint64_t done = 0; done < plan.steps; done += plan.every) {
    sim.step(plan.every);
    const FlockMetrics m = sim.metrics();
    samples.push_back({m.polarization, static_cast<double>(m.flocks),
                       static_cast<double>(m.largest_flock), m.mean_nn_distance});
  }
  return samples;
}

}  // namespace

std::vector<std::vector<EnsembleSample>> fly_ensemble(const std::vector<FlockMaker>& flocks,
                                                      const EnsemblePlan& plan, int threads,
                                                      const FlockDone& done) {
  std::vector<std::vector<EnsembleSample>> samples(flocks.size());
  std::atomic<std::size_t> next{0};
  std::mutex report;
  std::exception_ptr failure;
  // Workers of our own, each with one OpenMP thread: the kernels' parallel loops then run on
  // the worker alone, and every partition the kernels make is the one-thread partition.
  const auto work = [&](int omp_threads) {
    if (omp_threads > 0) omp_set_num_threads(omp_threads);
    for (std::size_t i = next++; i < flocks.size(); i = next++) {
      try {
        std::unique_ptr<Simulation> sim = flocks[i]();
        samples[i] = fly(*sim, plan);
        const std::lock_guard<std::mutex> lock(report);
        if (done) done(i, samples[i]);
      } catch (...) {
        const std::lock_guard<std::mutex> lock(report);
        if (!failure) failure = std::current_exception();
        next = flocks.size();  // the others stop at their next flock
      }
    }
  };
  if (threads <= 1) {
    work(0);
  } else {
    std::vector<std::thread> workers;
    for (int t = 0; t < threads; ++t) workers.emplace_back(work, 1);
    for (std::thread& worker : workers) worker.join();
  }
  if (failure) std::rethrow_exception(failure);
  return samples;
}

int ensemble_threads(const SimulationConfig& config, std::uint64_t count, std::size_t flocks) {
  if (config.backend != Backend::kCpu || count >= kSideBySideBoids || flocks < 2) return 1;
  return static_cast<int>(
      std::min<std::size_t>(static_cast<std::size_t>(omp_get_max_threads()), flocks));
}

EnsembleStatistics ensemble_statistics(const std::vector<std::vector<EnsembleSample>>& replicas,
                                       std::uint64_t count) {
  EnsembleStatistics s;
  s.replicas = replicas.size();
  double phi = 0, phi2 = 0, phi4 = 0, flocks = 0, largest = 0, nn = 0;
  std::vector<double> replica_means;
  for (const auto& samples : replicas) {
    double sum = 0;
    for (const EnsembleSample& x : samples) {
      const double p2 = x.polarization * x.polarization;
      phi += x.polarization;
      phi2 += p2;
      phi4 += p2 * p2;
      flocks += x.flocks;
      largest += x.largest_flock;
      nn += x.mean_nn_distance;
      sum += x.polarization;
    }
    s.samples += samples.size();
    if (!samples.empty()) replica_means.push_back(sum / static_cast<double>(samples.size()));
  }
  if (s.samples == 0) return s;
  const double n = static_cast<double>(s.samples);
  phi /= n;
  phi2 /= n;
  phi4 /= n;
  s.polarization_mean = phi;
  s.polarization_std = std::sqrt(std::max(0.0, phi2 - phi * phi) * n / std::max(1.0, n - 1));
  s.binder = phi2 > 0 ? 1 - phi4 / (3 * phi2 * phi2) : 0;
  s.susceptibility = static_cast<double>(count) * std::max(0.0, phi2 - phi * phi);
  s.flocks_mean = flocks / n;
  s.largest_flock_mean = largest / n;
  s.nn_distance_mean = nn / n;
  if (replica_means.size() > 1) {
    double mean = 0, square = 0;
    for (double m : replica_means) mean += m;
    mean /= static_cast<double>(replica_means.size());
    for (double m : replica_means) square += (m - mean) * (m - mean);
    const double k = static_cast<double>(replica_means.size());
    s.polarization_sem = std::sqrt(square / (k - 1) / k);
  }
  return s;
}

}  // namespace boids
