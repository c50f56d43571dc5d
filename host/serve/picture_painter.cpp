#include "host/serve/picture_painter.h"

#include <chrono>
#include <exception>
#include <utility>

#include "host/base/errors.h"
#include "host/serve/frame.h"
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
  }
  wake_.notify_all();
  thread_.join();
}

void PicturePainter::paint(std::shared_ptr<const Snapshot> snapshot, const ImageView& view,
                           std::string memory, Done done) {
  {
    const std::lock_guard<std::mutex> lock(mutex_);
    jobs_.push_back({std::move(snapshot), view, std::move(memory), std::move(done)});
  }
  wake_.notify_one();
}

std::string PicturePainter::describe() const {
  const std::lock_guard<std::mutex> lock(mutex_);
  return where_;
}

void PicturePainter::run() {
  std::unique_lock<std::mutex> lock(mutex_);
  while (!stopping_) {
    const bool asked = wake_.wait_for(lock, std::chrono::duration<double>(idle_seconds_),
                                      [this] { return stopping_ || !jobs_.empty(); });
    if (!asked) {  // no page has asked for a while: the pictures' memory goes back
      if (drawer_) drawer_->release();
      continue;
    }
    if (stopping_) break;
    Job job = std::move(jobs_.front());
    jobs_.pop_front();
    lock.unlock();
    draw(job);
    lock.lock();
  }
  lock.unlock();
  drawer_.reset();  // on the thread whose OpenGL context it holds
}

void PicturePainter::draw(Job& job) {
  std::string error;
  for (int attempt = 0; attempt < 2; ++attempt) {
    bool drawn = false;
    try {
      encode_picture_frame_into(job.memory, *job.snapshot, job.view, drawer());
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
