#include "bench/fit.h"

#include <cmath>
#include <limits>

namespace boids::bench {

PowerFit fit_power_law(const std::vector<std::vector<std::pair<double, double>>>& series) {
  const double nan = std::numeric_limits<double>::quiet_NaN();
  double sxx = 0, sxy = 0, syy = 0;
  int points = 0;
  std::vector<std::pair<double, double>> means;
  for (const auto& s : series) {
    if (s.size() < 2) continue;
    double mx = 0, my = 0;
    for (const auto& [count, seconds] : s) {
      mx += std::log(count);
      my += std::log(seconds);
    }
    mx /= static_cast<double>(s.size());
    my /= static_cast<double>(s.size());
    for (const auto& [count, seconds] : s) {
      const double dx = std::log(count) - mx, dy = std::log(seconds) - my;
      sxx += dx * dx;
      sxy += dx * dy;
      syy += dy * dy;
    }
    points += static_cast<int>(s.size());
  }
  if (points < 2 || !(sxx > 0)) return {nan, nan, points};
  const double exponent = sxy / sxx;
  const double residual = syy - exponent * sxy;  // sum of squared residuals
  const double r2 = syy > 0 ? 1.0 - residual / syy : 1.0;
  return {exponent, r2, points};
}

}  // namespace boids::bench
