// Least-squares fits of log time against log count: time ~ count^exponent.
#pragma once

#include <utility>
#include <vector>

namespace boids::bench {

struct PowerFit {
  double exponent;  // NaN when there are too few points
  double r2;        // coefficient of determination of the log-log fit; NaN likewise
  int points;
};

// One fit over several series (e.g. the float and double rows of one method): a common
// exponent with an intercept of each series' own, fitted by least squares on log(count) and
// log(seconds). r2 is the fraction of the variance within series that the exponent explains.
// A series of one point says nothing about the exponent and is left out.
PowerFit fit_power_law(const std::vector<std::vector<std::pair<double, double>>>& series);

}  // namespace boids::bench
