// The pages' pictures, drawn on a thread of their own so that the server's thread goes on
// answering every page while one is drawn (a picture of ten million boids takes a second on a
// CPU). One painter serves every page: a page has one picture asked at a time, and they are
// drawn in the order asked. Its drawer is made with its first picture and keeps its memory
// until no page has asked for a while.
#pragma once

#include <condition_variable>
#include <deque>
#include <functional>
#include <memory>
#include <mutex>
#include <string>
#include <thread>

#include "host/serve/flock_image.h"

namespace boids::serve {

// Where pictures are drawn (boids serve --pictures): `auto`, by the renderer (host/render)
// where an OpenGL context opens on a GPU, else on the CPU; `renderer`, by the renderer
// wherever a context opens (Mesa's llvmpipe on a machine without a GPU), failing the pages
// whose pictures it cannot draw; `cpu`, on the CPU.
enum class PictureDevice { kAuto, kRenderer, kCpu };
inline constexpr const char* kPictureDevices[] = {"auto", "renderer", "cpu"};

class PicturePainter {
 public:
  // The frame drawn (host/serve/frame.h), or why none could be, on the painter's thread.
  using Done = std::function<void(std::string frame, std::string error)>;

  explicit PicturePainter(PictureDevice device, double idle_seconds = 10);
  ~PicturePainter();  // drops the pictures not yet drawn
  PicturePainter(const PicturePainter&) = delete;
  PicturePainter& operator=(const PicturePainter&) = delete;

  // Draws the frame of `snapshot` as `view` sees it into `memory` (a frame's, for its pages).
  void paint(std::shared_ptr<const Snapshot> snapshot, const ImageView& view, std::string memory,
             Done done);
  // Where its pictures are drawn ("" before the first).
  std::string describe() const;

 private:
  struct Job {
    std::shared_ptr<const Snapshot> snapshot;
    ImageView view;
    std::string memory;
    Done done;
  };
  void run();
  void draw(Job& job);
  PictureDrawer& drawer();

  PictureDevice device_;
  double idle_seconds_;
  std::unique_ptr<PictureDrawer> drawer_;  // the painter's thread's alone
  mutable std::mutex mutex_;
  std::condition_variable wake_;
  std::deque<Job> jobs_;
  std::string where_;
  bool stopping_ = false;
  std::thread thread_;  // last: started once the rest is made
};

}  // namespace boids::serve
