// A recorded H5MD trajectory as `boids serve --replay` shows it: each page asks for the frame
// it wants (its scrubber, its play and speed are the page's own), read through the reader of
// `boids convert` (host/io/trajectory_reader.h).
#pragma once

#include <map>
#include <mutex>
#include <string>

#include "host/io/trajectory_reader.h"
#include "host/serve/frame_source.h"

namespace boids::serve {

class Replay final : public FrameSource {
 public:
  // Opens the trajectory; throws InputError naming the file as `boids convert` does.
  explicit Replay(const std::string& path);

  // {"type": "flock", "mode": "replay", count, dimensions, world, frames, steps: [...]}.
  std::string description() const override;

  // Frame `cursor` (snapshot number cursor + 1) unless the page has it already.
  std::shared_ptr<const Snapshot> next(std::uint64_t after, std::uint64_t cursor) override;

  // A seek is the page's own; every other change is refused: a recording cannot be steered.
  void apply(const ClientMessage& message) override;

 private:
  std::string path_;
  TrajectoryReader reader_;
  mutable std::mutex mutex_;
  std::map<std::uint64_t, std::shared_ptr<const Snapshot>> recent_;  // a few frames, by number
};

}  // namespace boids::serve
