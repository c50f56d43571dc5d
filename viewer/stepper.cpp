#include "viewer/stepper.h"

namespace boids::viewer {

Worker::Worker() : thread_([this] { loop(); }) {}

Worker::~Worker() {
  {
    std::lock_guard<std::mutex> lock(mutex_);
    stop_ = true;
  }
  cv_.notify_all();
  thread_.join();
}

void Worker::start(std::function<void()> job) {
  {
    std::lock_guard<std::mutex> lock(mutex_);
    job_ = std::move(job);
    running_ = true;
  }
  cv_.notify_all();
}

bool Worker::busy() {
  std::exception_ptr error;
  {
    std::lock_guard<std::mutex> lock(mutex_);
    if (running_) return true;
    std::swap(error, error_);
  }
  if (error) std::rethrow_exception(error);
  return false;
}

void Worker::wait() {
  std::unique_lock<std::mutex> lock(mutex_);
  cv_.wait(lock, [this] { return !running_; });
}

void Worker::loop() {
  std::unique_lock<std::mutex> lock(mutex_);
  for (;;) {
    cv_.wait(lock, [this] { return stop_ || running_; });
    if (running_) {
      std::function<void()> job = std::move(job_);
      lock.unlock();
      std::exception_ptr error;
      try {
        job();
      } catch (...) {
        error = std::current_exception();
      }
      lock.lock();
      error_ = error;
      running_ = false;
      cv_.notify_all();
    } else if (stop_) {
      return;
    }
  }
}

}  // namespace boids::viewer
