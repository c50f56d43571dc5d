#include "host/tools/progress_lines.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <string>

#include "host/core/flight_cost.h"

namespace boids::tools {
namespace {

double seconds_between(std::chrono::steady_clock::time_point a,
                       std::chrono::steady_clock::time_point b) {
  return std::chrono::duration<double>(b - a).count();
}

// "42 s", "3 min 05 s", "2 h 07 min": a time left, to the precision a reader plans by.
std::string duration_text(double seconds) {
  char text[32];
  const auto whole = static_cast<long long>(std::llround(seconds));
  if (whole < 60) {
    std::snprintf(text, sizeof text, "%lld s", whole);
  } else if (whole < 3600) {
    std::snprintf(text, sizeof text, "%lld min %02lld s", whole / 60, whole % 60);
  } else {
    std::snprintf(text, sizeof text, "%lld h %02lld min", whole / 3600, whole / 60 % 60);
  }
  return text;
}

std::chrono::steady_clock::duration interval(double seconds) {
  return std::chrono::duration_cast<std::chrono::steady_clock::duration>(
      std::chrono::duration<double>(seconds));
}

}  // namespace

void say_if_slow(const char* tool, const SimulationConfig& config, std::uint64_t count) {
  const std::string said = slow_flight_warning(config, count);
  if (said.empty()) return;
  std::fprintf(stderr, "%s: %s\n", tool, said.c_str());
  std::fflush(stderr);
}

ProgressLines::ProgressLines(std::uint64_t first, std::uint64_t last, double seconds,
                             bool predators)
    : first_(first),
      last_(last),
      seconds_(seconds),
      predators_(predators),
      next_(start_ + interval(seconds)),
      last_step_(first) {}

bool ProgressLines::due() const {
  return seconds_ > 0 && Clock::now() >= next_;
}

void ProgressLines::print_header() const {
  std::fprintf(stderr, "%12s %10s %12s %8s %8s %8s %8s %10s%s %10s  %s\n", "step", "steps/s",
               "polarization", "order", "milling", "flocks", "largest", "mean_nn",
               predators_ ? "  in_reach" : "", "elapsed", "left");
}

void ProgressLines::print(std::uint64_t step, const FlockMetrics& m, double measuring) {
  const Clock::time_point now = Clock::now();
  if (!headed_) print_header();
  headed_ = true;
  const double since = seconds_between(last_line_, now);
  const double rate = since > 0 ? static_cast<double>(step - last_step_) / since : 0.0;
  const double elapsed = seconds_between(start_, now);
  const double done = static_cast<double>(step - first_);
  const double left = done > 0 ? elapsed * static_cast<double>(last_ - step) / done : 0.0;
  char reach[24] = "";
  if (predators_) {
    std::snprintf(reach, sizeof reach, " %9llu", static_cast<unsigned long long>(m.within_reach));
  }
  std::fprintf(stderr, "%12llu %10.4g %12.6f %8.5f %8.5f %8llu %8llu %10.5g%s %10s  %s\n",
               static_cast<unsigned long long>(step), rate, m.polarization, m.order, m.milling,
               static_cast<unsigned long long>(m.flocks),
               static_cast<unsigned long long>(m.largest_flock), m.mean_nn_distance, reach,
               duration_text(elapsed).c_str(), duration_text(left).c_str());
  std::fflush(stderr);
  last_line_ = now;
  last_step_ = step;
  next_ = now + interval(std::max(seconds_, 10 * measuring));
}

}  // namespace boids::tools
