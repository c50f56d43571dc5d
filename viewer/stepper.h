// One background thread that runs one job at a time, so that stepping a large flock (or
// rebuilding it) never blocks the window. The main thread touches the simulation only while
// the worker is idle.
#pragma once

#include <condition_variable>
#include <exception>
#include <functional>
#include <mutex>
#include <thread>

namespace boids::viewer {

class Worker {
 public:
  Worker();
  ~Worker();  // waits for the running job
  Worker(const Worker&) = delete;
  Worker& operator=(const Worker&) = delete;

  // Starts `job`; the worker must be idle.
  void start(std::function<void()> job);
  // Whether a job is running. When idle, rethrows what the last job threw, once.
  bool busy();
  void wait();

 private:
  void loop();

  std::mutex mutex_;
  std::condition_variable cv_;
  std::function<void()> job_;
  bool running_ = false, stop_ = false;
  std::exception_ptr error_;
  std::thread thread_;
};

}  // namespace boids::viewer
