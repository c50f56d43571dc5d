#include "host/serve/picture_painter.h"

#include <algorithm>
#include <chrono>
#include <exception>
#include <utility>

#if defined(__GLIBC__)
#include <malloc.h>
#endif

#include "host/base/errors.h"
#include "host/metrics/boid_measures.h"
#if BOIDS_SERVE_RENDERER
#include "host/serve/rendered_pictures.h"
#endif

namespace boids::serve {

PicturePainter::PicturePainter(PictureDevice device, double idle_seconds)
    : device_(device), idle_seconds_(idle_seconds), thread_([this] { run(); }) {}

PicturePainter::~PicturePainter() {
  {
    const std::lock_guard<std::mutex> lock(mutex_);
    stopping_ = true;
    jobs_.clear();
    cancel_ = true;
  }
  wake_.notify_all();
  thread_.join();
}

void PicturePainter::paint(const void* page, std::shared_ptr<const Snapshot> snapshot,
                           const ImageView& view, std::string memory, Done done) {
  Job job;
  job.page = page;
  job.snapshot = std::move(snapshot);
  job.view = view;
  job.memory = std::move(memory);
  job.done = std::move(done);
  add(std::move(job));
}

void PicturePainter::encode(const void* page, std::shared_ptr<const Snapshot> snapshot,
                            std::uint64_t max_boids, Colouring colouring, std::string memory,
                            Done done) {
  Job job;
  job.page = page;
  job.snapshot = std::move(snapshot);
  job.max_boids = max_boids;
  job.colouring = colouring;
  job.memory = std::move(memory);
  job.done = std::move(done);
  add(std::move(job));
}

void PicturePainter::add(Job job) {
  {
    const std::lock_guard<std::mutex> lock(mutex_);
    const auto same = std::find_if(jobs_.begin(), jobs_.end(),
                                   [&](const Job& waiting) { return waiting.page == job.page; });
    if (same != jobs_.end()) {
      *same = std::move(job);
    } else {
      jobs_.push_back(std::move(job));
    }
  }
  wake_.notify_one();
}

void PicturePainter::forget(const void* page) {
  Job dropped;  // its frame's memory, and the page it holds, go outside the lock
  const std::lock_guard<std::mutex> lock(mutex_);
  const auto same = std::find_if(jobs_.begin(), jobs_.end(),
                                 [&](const Job& waiting) { return waiting.page == page; });
  if (same != jobs_.end()) {
    dropped = std::move(*same);
    jobs_.erase(same);
  }
  if (making_for_ == page) cancel_ = true;
}

std::string PicturePainter::describe() const {
  const std::lock_guard<std::mutex> lock(mutex_);
  return where_;
}

std::size_t PicturePainter::waiting() const {
  const std::lock_guard<std::mutex> lock(mutex_);
  return jobs_.size();
}

void PicturePainter::run() {
  std::unique_lock<std::mutex> lock(mutex_);
  while (!stopping_) {
    const bool asked = wake_.wait_for(lock, std::chrono::duration<double>(idle_seconds_),
                                      [this] { return stopping_ || !jobs_.empty(); });
    if (!asked) {  // no page has asked for a while: the pictures' memory goes back
      give_memory_back();
      continue;
    }
    if (stopping_) break;
    Job job = std::move(jobs_.front());
    jobs_.pop_front();
    making_for_ = job.page;
    cancel_ = false;
    lock.unlock();
    make(job);
    job = Job{};  // the page it holds goes before the lock is taken again
    lock.lock();
    making_for_ = nullptr;
  }
  lock.unlock();
  drawer_.reset();  // on the thread whose OpenGL context it holds
}

void PicturePainter::make(Job& job) {
  if (job.view) {
    draw(job);
    return;
  }
  try {
    encode_frame_into(job.memory, *job.snapshot, job.max_boids, job.colouring, &cancel_);
  } catch (const MeasureCancelled&) {
    return;  // its page has gone
  } catch (const std::exception& e) {
    job.done("", e.what());
    return;
  }
  job.done(std::move(job.memory), "");
}

void PicturePainter::draw(Job& job) {
  std::string error;
  for (int attempt = 0; attempt < 2; ++attempt) {
    bool drawn = false;
    try {
      encode_picture_frame_into(job.memory, *job.snapshot, *job.view, drawer());
      drawn = true;
    } catch (const std::exception& e) {
      error = e.what();
    }
    if (drawn) {
      job.done(std::move(job.memory), "");
      return;
    }
    // Left to choose, a renderer that fails (out of the GPU's memory) gives way to the CPU.
    if (device_ != PictureDevice::kAuto || !drawer_ || !drawer_->on_gpu()) break;
    drawer_ = std::make_unique<PictureMaker>();
    const std::lock_guard<std::mutex> lock(mutex_);
    where_ = drawer_->describe() + " (the renderer failed: " + error + ")";
  }
  job.done("", "the picture cannot be drawn: " + error);
}

// The drawer's buffers, and the heap pages the frames freed: glibc keeps large freed blocks
// for the next allocation, so the resident size would stay at its peak.
void PicturePainter::give_memory_back() {
  if (drawer_) drawer_->release();
#if defined(__GLIBC__)
  malloc_trim(0);
#endif
}

PictureDrawer& PicturePainter::drawer() {
  if (drawer_) return *drawer_;
#if BOIDS_SERVE_RENDERER
  if (device_ != PictureDevice::kCpu) {
    try {
      auto rendered = open_rendered_pictures();
      if (device_ == PictureDevice::kRenderer || rendered->on_gpu()) drawer_ = std::move(rendered);
    } catch (const std::exception&) {
      if (device_ == PictureDevice::kRenderer) throw;
    }
  }
#else
  if (device_ == PictureDevice::kRenderer)
    throw RuntimeError("this boids was built without the renderer (BOIDS_BUILD_VIEWER=OFF)");
#endif
  if (!drawer_) drawer_ = std::make_unique<PictureMaker>();
  const std::lock_guard<std::mutex> lock(mutex_);
  where_ = drawer_->describe();
  return *drawer_;
}

}  // namespace boids::serve
