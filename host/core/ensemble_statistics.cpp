// The order parameter's statistics over an ensemble (host/core/ensemble.h): the pooled moments,
// errors over the replicas, and the autocorrelation time within them.
#include <algorithm>
#include <cmath>

#include "host/core/ensemble.h"

namespace boids {
namespace {

// Sums of the polarization's powers over samples.
struct Moments {
  double n = 0, phi = 0, phi2 = 0, phi4 = 0;

  void add(double p) {
    const double p2 = p * p;
    n += 1;
    phi += p;
    phi2 += p2;
    phi4 += p2 * p2;
  }
  Moments operator-(const Moments& o) const {
    return {n - o.n, phi - o.phi, phi2 - o.phi2, phi4 - o.phi4};
  }
};

double binder_of(const Moments& m) {
  const double phi2 = m.phi2 / m.n, phi4 = m.phi4 / m.n;
  return phi2 > 0 ? 1 - phi4 / (3 * phi2 * phi2) : 0;
}

double susceptibility_of(const Moments& m, std::uint64_t count) {
  const double phi = m.phi / m.n, phi2 = m.phi2 / m.n;
  return static_cast<double>(count) * std::max(0.0, phi2 - phi * phi);
}

// The sum of the squared deviations of `values` from their mean.
double squared_deviations(const std::vector<double>& values) {
  double mean = 0, square = 0;
  for (double v : values) mean += v;
  mean /= static_cast<double>(values.size());
  for (double v : values) square += (v - mean) * (v - mean);
  return square;
}

// The standard error of the mean of `values`, each an independent estimate.
double standard_error(const std::vector<double>& values) {
  if (values.size() < 2) return 0;
  const double k = static_cast<double>(values.size());
  return std::sqrt(squared_deviations(values) / (k - 1) / k);
}

// The jackknife's standard error of an estimate from the estimates with each part left out.
double jackknife_error(const std::vector<double>& left_out) {
  if (left_out.size() < 2) return 0;
  const double k = static_cast<double>(left_out.size());
  return std::sqrt(squared_deviations(left_out) * (k - 1) / k);
}

// The integrated autocorrelation time of `x`, in samples: 1/2 for a series without variance or
// memory. Sokal's window stops the sum where the noise of the tail would outgrow it.
double integrated_autocorrelation(const std::vector<double>& x) {
  const std::size_t n = x.size();
  if (n < 2) return 0.5;
  double mean = 0;
  for (double v : x) mean += v;
  mean /= static_cast<double>(n);
  auto covariance = [&](std::size_t lag) {
    double sum = 0;
    for (std::size_t i = 0; i + lag < n; ++i) sum += (x[i] - mean) * (x[i + lag] - mean);
    return sum / static_cast<double>(n - lag);
  };
  const double c0 = covariance(0);
  if (!(c0 > 0)) return 0.5;
  double tau = 0.5;
  for (std::size_t lag = 1; lag < n / 2; ++lag) {
    tau += covariance(lag) / c0;
    if (static_cast<double>(lag) >= 5 * tau) break;
  }
  return std::max(0.5, tau);
}

}  // namespace

EnsembleStatistics ensemble_statistics(const std::vector<std::vector<EnsembleSample>>& replicas,
                                       std::uint64_t count, std::uint64_t every) {
  EnsembleStatistics s;
  s.replicas = replicas.size();
  Moments all;
  std::vector<Moments> parts;
  std::vector<double> replica_means, replica_milling;
  double flocks = 0, largest = 0, nn = 0, milling = 0, tau = 0;
  std::size_t timed = 0;
  for (const auto& samples : replicas) {
    Moments part;
    std::vector<double> series;
    double own_milling = 0;
    for (const EnsembleSample& x : samples) {
      all.add(x.polarization);  // sample by sample, in order: the sums of one pass
      part.add(x.polarization);
      series.push_back(x.polarization);
      flocks += x.flocks;
      largest += x.largest_flock;
      nn += x.mean_nn_distance;
      milling += x.milling;
      own_milling += x.milling;
    }
    s.samples += samples.size();
    if (samples.empty()) continue;
    parts.push_back(part);
    replica_means.push_back(part.phi / part.n);
    replica_milling.push_back(own_milling / part.n);
    tau += integrated_autocorrelation(series);
    ++timed;
  }
  if (s.samples == 0) return s;
  const double n = all.n, phi = all.phi / n, phi2 = all.phi2 / n;
  s.polarization_mean = phi;
  s.polarization_std = std::sqrt(std::max(0.0, phi2 - phi * phi) * n / std::max(1.0, n - 1));
  s.binder = binder_of(all);
  s.susceptibility = susceptibility_of(all, count);
  s.flocks_mean = flocks / n;
  s.largest_flock_mean = largest / n;
  s.nn_distance_mean = nn / n;
  s.milling_mean = milling / n;
  s.milling_sem = standard_error(replica_milling);
  s.polarization_sem = standard_error(replica_means);
  std::vector<double> binders, susceptibilities;
  for (const Moments& part : parts) {
    binders.push_back(binder_of(all - part));
    susceptibilities.push_back(susceptibility_of(all - part, count));
  }
  if (parts.size() > 1) {
    s.binder_sem = jackknife_error(binders);
    s.susceptibility_sem = jackknife_error(susceptibilities);
  }
  tau /= static_cast<double>(timed);
  s.autocorrelation_steps = tau * static_cast<double>(every);
  s.effective_samples = n / (2 * tau);
  return s;
}

}  // namespace boids
