#include "host/core/ensemble.h"

#include <omp.h>

#include <algorithm>
#include <atomic>
#include <cmath>
#include <exception>
#include <mutex>
#include <thread>

#include "host/base/errors.h"
#include "host/base/interruption.h"
#include "host/core/flock_batch.h"

namespace boids {
namespace {

EnsembleSample sample_of(const FlockMetrics& m) {
  return {m.polarization, static_cast<double>(m.flocks), static_cast<double>(m.largest_flock),
          m.mean_nn_distance, m.milling};
}

// The most steps a flock takes between two looks at a stop signal while it settles.
constexpr std::uint64_t kSettlingStretch = 256;

// Steps `flown` by `plan`, calling measure() at every sample; throws Interrupted, between
// steps, once a stop is asked for (host/base/interruption.h).
template <typename Flown, typename Measure>
void follow_plan(Flown& flown, const EnsemblePlan& plan, Measure&& measure) {
  for (std::uint64_t done = 0; done < plan.discard; done += kSettlingStretch) {
    flown.step(std::min(kSettlingStretch, plan.discard - done));
    throw_if_stopped();
  }
  for (std::uint64_t done = 0; done < plan.steps; done += plan.every) {
    flown.step(plan.every);
    throw_if_stopped();
    measure();
  }
}

// The flocks [first, end) as one batch.
void fly_batch(const std::vector<EnsembleFlock>& flocks, std::size_t first, std::size_t end,
               const EnsemblePlan& plan, std::vector<std::vector<EnsembleSample>>& samples) {
  std::vector<SimulationConfig> configs;
  std::vector<FlockState> starts;
  for (std::size_t i = first; i < end; ++i) {
    configs.push_back(flocks[i].config);
    starts.push_back(flocks[i].start());
  }
  const std::unique_ptr<FlockBatch> batch = make_batch(configs, starts);
  starts.clear();
  follow_plan(*batch, plan, [&] {
    const std::vector<FlockMetrics> m = batch->metrics();
    for (std::size_t k = 0; k < m.size(); ++k) samples[first + k].push_back(sample_of(m[k]));
  });
}

// The ends of the batches: consecutive flocks, at most `most` boids in all (or one flock).
std::vector<std::size_t> batch_ends(const std::vector<EnsembleFlock>& flocks, std::uint64_t most) {
  std::vector<std::size_t> ends;
  std::uint64_t boids = 0;
  for (std::size_t i = 0; i < flocks.size(); ++i) {
    if (i > 0 && boids + flocks[i].count > most) {
      ends.push_back(i);
      boids = 0;
    }
    boids += flocks[i].count;
  }
  ends.push_back(flocks.size());
  return ends;
}

}  // namespace

std::vector<std::vector<EnsembleSample>> fly_ensemble(const std::vector<EnsembleFlock>& flocks,
                                                      const EnsemblePlan& plan,
                                                      const EnsembleSchedule& schedule,
                                                      const FlockDone& done) {
  std::vector<std::vector<EnsembleSample>> samples(flocks.size());
  if (flocks.empty()) return samples;
  if (schedule.batch_boids > 0) {
    std::size_t first = 0;
    for (const std::size_t end : batch_ends(flocks, schedule.batch_boids)) {
      fly_batch(flocks, first, end, plan, samples);
      if (done) {
        for (std::size_t i = first; i < end; ++i) done(i, samples[i]);
      }
      first = end;
    }
    return samples;
  }
  std::atomic<std::size_t> next{0};
  std::mutex report;
  std::exception_ptr failure;
  // Workers of our own, each with one OpenMP thread: the kernels' parallel loops then run on
  // the worker alone, and every partition the kernels make is the one-thread partition.
  const auto work = [&](int omp_threads) {
    if (omp_threads > 0) omp_set_num_threads(omp_threads);
    for (std::size_t i = next++; i < flocks.size(); i = next++) {
      try {
        const std::unique_ptr<Simulation> sim =
            make_simulation(flocks[i].config, flocks[i].start());
        follow_plan(*sim, plan, [&] { samples[i].push_back(sample_of(sim->metrics())); });
        const std::lock_guard<std::mutex> lock(report);
        if (done) done(i, samples[i]);
      } catch (...) {
        const std::lock_guard<std::mutex> lock(report);
        if (!failure) failure = std::current_exception();
        next = flocks.size();  // the others stop at their next flock
      }
    }
  };
  if (schedule.threads <= 1) {
    work(0);
  } else {
    std::vector<std::thread> workers;
    for (int t = 0; t < schedule.threads; ++t) workers.emplace_back(work, 1);
    for (std::thread& worker : workers) worker.join();
  }
  if (failure) std::rethrow_exception(failure);
  return samples;
}

EnsembleSchedule ensemble_schedule(const std::vector<EnsembleFlock>& flocks, EnsembleWay way) {
  std::vector<SimulationConfig> configs;
  std::uint64_t largest = 0;
  for (const EnsembleFlock& f : flocks) {
    configs.push_back(f.config);
    largest = std::max(largest, f.count);
  }
  if (way == EnsembleWay::kBatched && !flocks.empty()) {
    const std::string why = why_not_batched(configs);
    if (!why.empty()) throw InputError(why);
  }
  if (way == EnsembleWay::kAuto && flocks.size() > 1) {
    const Backend backend = configs.front().backend;
    if (backend == Backend::kCuda && largest < kBatchedBoids && batchable(configs)) {
      way = EnsembleWay::kBatched;
    } else if (backend == Backend::kCpu && largest < kSideBySideBoids) {
      way = EnsembleWay::kSideBySide;
    }
  }
  EnsembleSchedule schedule;
  if (way == EnsembleWay::kBatched) schedule.batch_boids = kBatchBoids;
  if (way == EnsembleWay::kSideBySide) {
    schedule.threads = static_cast<int>(std::max<std::size_t>(
        1, std::min<std::size_t>(static_cast<std::size_t>(omp_get_max_threads()), flocks.size())));
  }
  return schedule;
}

}  // namespace boids
