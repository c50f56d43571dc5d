// A progress bar on stderr for long runs, drawn only when stderr is a terminal and the run
// has already taken a moment, so that short runs and pipes stay quiet.
#pragma once

#include <chrono>
#include <cstdint>
#include <string>

namespace boids::tools {

class ProgressBar {
 public:
  // `total` things to do, named `unit` ("steps", "flocks").
  explicit ProgressBar(std::uint64_t total, std::string unit = "steps");
  ~ProgressBar();
  ProgressBar(const ProgressBar&) = delete;
  ProgressBar& operator=(const ProgressBar&) = delete;

  bool enabled() const { return enabled_; }
  void update(std::uint64_t done);
  void finish();

 private:
  using Clock = std::chrono::steady_clock;
  std::uint64_t total_;
  std::string unit_;
  bool enabled_;
  bool drawn_ = false;
  Clock::time_point start_ = Clock::now();
  Clock::time_point last_draw_ = start_;
};

}  // namespace boids::tools
