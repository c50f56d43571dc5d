// The pages' slow frames, made on a thread of their own so that the server's thread goes on
// answering every page while one is made: pictures (one of ten million boids takes a second on
// a CPU), and points coloured by a measure (neighbours, flocks: at a page's largest radius,
// work that grows with the flock). One painter serves every page, in the order asked, and
// holds at most one job a page (a page asks for one frame at a time): a page that leaves takes
// its job with it, and the measure being made for it stops. Its drawer is made with its first
// picture and keeps its memory until no page has asked for a while; then the memory goes back
// to the system.
#pragma once

#include <atomic>
#include <condition_variable>
#include <cstdint>
#include <deque>
#include <functional>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <thread>

#include "host/serve/flock_image.h"
#include "host/serve/frame.h"

namespace boids::serve {

// Where pictures are drawn (boids serve --pictures): `auto`, by the renderer (host/render)
// where an OpenGL context opens on a GPU, else on the CPU; `renderer`, by the renderer
// wherever a context opens (Mesa's llvmpipe on a machine without a GPU), failing the pages
// whose pictures it cannot draw; `cpu`, on the CPU.
enum class PictureDevice { kAuto, kRenderer, kCpu };
inline constexpr const char* kPictureDevices[] = {"auto", "renderer", "cpu"};

class PicturePainter {
 public:
  // The frame made (host/serve/frame.h), or why none could be, on the painter's thread. Never
  // called for a page forgotten.
  using Done = std::function<void(std::string frame, std::string error)>;

  explicit PicturePainter(PictureDevice device, double idle_seconds = 10);
  ~PicturePainter();  // drops the frames not yet made
  PicturePainter(const PicturePainter&) = delete;
  PicturePainter& operator=(const PicturePainter&) = delete;

  // Draws the frame of `snapshot` as `view` sees it into `memory` (a frame's), for `page` (its
  // key: a job already waiting for it is replaced).
  void paint(const void* page, std::shared_ptr<const Snapshot> snapshot, const ImageView& view,
             std::string memory, Done done);
  // Encodes the frame of `snapshot`'s points (encode_frame_into) coloured by a measure.
  void encode(const void* page, std::shared_ptr<const Snapshot> snapshot, std::uint64_t max_boids,
              Colouring colouring, std::string memory, Done done);
  // Drops `page`'s job, and stops its measure if one is being made.
  void forget(const void* page);
  // Where its pictures are drawn ("" before the first).
  std::string describe() const;
  // Jobs waiting (for the tests).
  std::size_t waiting() const;

 private:
  struct Job {
    const void* page = nullptr;
    std::shared_ptr<const Snapshot> snapshot;
    std::optional<ImageView> view;  // a picture's; else points
    std::uint64_t max_boids = 1;
    Colouring colouring = Colouring::kHeading;
    std::string memory;
    Done done;
  };
  void add(Job job);
  void run();
  void make(Job& job);
  void draw(Job& job);
  PictureDrawer& drawer();
  void give_memory_back();

  PictureDevice device_;
  double idle_seconds_;
  std::unique_ptr<PictureDrawer> drawer_;  // the painter's thread's alone
  mutable std::mutex mutex_;
  std::condition_variable wake_;
  std::deque<Job> jobs_;
  const void* making_for_ = nullptr;  // the page whose job is being made
  std::atomic<bool> cancel_{false};   // its measure stops
  std::string where_;
  bool stopping_ = false;
  std::thread thread_;  // last: started once the rest is made
};

}  // namespace boids::serve
