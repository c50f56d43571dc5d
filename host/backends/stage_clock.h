// The seconds an executor's launches spend in each stage of the kernels' work (kernels/stages.h),
// added up while the clock is on (Simulation::timed_step with stages: boids-bench). Off, the
// default, a launch costs a test. A stage's time is its own: a launch made inside another
// (a GPU's sort makes the cell starts) is taken out of the one it is made in.
#pragma once

#include <chrono>
#include <string>
#include <vector>

#include "host/core/simulation.h"

namespace boids {

class StageClock {
 public:
  void start() {
    on_ = true;
    seconds_.clear();
  }
  std::vector<StageSeconds> stop() {
    on_ = false;
    return std::move(seconds_);
  }
  bool on() const { return on_; }

  // Times its own life as `stage` on `clock` (when on), `wait` (the executor's synchronize)
  // called at its start and end so that the launches in between are done.
  template <typename Wait>
  class Timer {
   public:
    Timer(StageClock& clock, const char* stage, const Wait& wait)
        : clock_(clock), stage_(stage), wait_(wait), on_(clock.on()) {
      if (!on_) return;
      wait_();
      clock_.inner_.push_back(0.0);
      start_ = std::chrono::steady_clock::now();
    }
    ~Timer() {
      if (!on_) return;
      wait_();
      const double whole =
          std::chrono::duration<double>(std::chrono::steady_clock::now() - start_).count();
      const double inner = clock_.inner_.back();
      clock_.inner_.pop_back();
      if (!clock_.inner_.empty()) clock_.inner_.back() += whole;
      clock_.add(stage_, whole - inner);
    }
    Timer(const Timer&) = delete;
    Timer& operator=(const Timer&) = delete;

   private:
    StageClock& clock_;
    const char* stage_;
    Wait wait_;
    bool on_;
    std::chrono::steady_clock::time_point start_;
  };

 private:
  void add(const char* stage, double seconds) {
    for (StageSeconds& s : seconds_) {
      if (s.stage == stage) {
        s.seconds += seconds;
        return;
      }
    }
    seconds_.push_back({stage, seconds});
  }

  bool on_ = false;
  std::vector<StageSeconds> seconds_;
  std::vector<double> inner_;  // the time of the launches made inside each open timer
};

}  // namespace boids
