// A recorded H5MD trajectory as `boids serve --replay` shows it: each page asks for the frame
// it wants (its scrubber, its play and speed are the page's own), read through the reader of
// `boids convert` (host/io/trajectory_reader.h). Frames are read on a thread of the replay's
// own, never the server's: a large frame keeps no page and no request waiting, and a frame
// that cannot be read ends the requests for it alone.
#pragma once

#include <condition_variable>
#include <deque>
#include <map>
#include <mutex>
#include <string>
#include <thread>

#include "host/io/trajectory_reader.h"
#include "host/serve/frame_source.h"

namespace boids::serve {

class Replay final : public FrameSource {
 public:
  // Opens the trajectory; throws InputError naming the file as `boids convert` does.
  explicit Replay(const std::string& path);

  // {"type": "flock", "mode": "replay", count, dimensions, world, frames, steps: [...]}.
  std::string description() const override;

  // Starts the reading thread, which tells `listener` of each frame it has read. Before it
  // starts, frames are read when asked for.
  void start(SourceListener listener);
  // Stops it (after the frame it reads): the listener is called no more.
  void stop();
  ~Replay() override { stop(); }

  // Frame `cursor` (snapshot number cursor + 1) unless the page has it already; null while it
  // is being read. Throws, for every page that asks for it, why a frame could not be read.
  std::shared_ptr<const Snapshot> next(std::uint64_t after, std::uint64_t cursor) override;

  // A seek is the page's own; every other change is refused: a recording cannot be steered.
  void apply(const ClientMessage& message) override;

 private:
  std::string describe() const;
  std::shared_ptr<const Snapshot> read(std::uint64_t frame);
  void read_asked_frames();

  std::string path_;
  TrajectoryReader reader_;  // the reading thread's alone once it runs
  std::uint64_t frames_ = 0;
  double radius_ = 0;  // the run's, where the file says it
  std::string description_;
  mutable std::mutex mutex_;
  std::condition_variable asked_;
  std::map<std::uint64_t, std::shared_ptr<const Snapshot>> recent_;  // a few frames, by number
  std::map<std::uint64_t, std::string> unreadable_;                  // why, by frame
  std::deque<std::uint64_t> wanted_;  // frames asked for, oldest first, each once
  SourceListener listener_;
  std::thread reading_;
  bool stopping_ = false;
};

}  // namespace boids::serve
