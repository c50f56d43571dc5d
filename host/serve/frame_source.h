// What `boids serve` shows its pages: a live flock (host/serve/live_flock.h) or a recorded
// trajectory (host/serve/replay.h). The server asks the source for each page's next snapshot
// and hands it the pages' changes; the source never waits for a page.
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <string>

#include "host/serve/frame.h"
#include "host/serve/messages.h"

namespace boids::serve {

// What a source tells its pages, through the server: a new snapshot, or a text message (JSON)
// for every page (the flock's description after a change, its metrics).
struct SourceListener {
  std::function<void()> snapshot_ready;
  std::function<void(const std::string&)> broadcast;
};

class FrameSource {
 public:
  virtual ~FrameSource() = default;

  // The source as the page describes it (a JSON object of type "flock").
  virtual std::string description() const = 0;

  // The snapshot a page should see next, having seen snapshot number `after`; `cursor` is the
  // page's place in a replay (the frame it asked for). Null when there is none newer yet: the
  // source then makes one, and tells the server when it is ready.
  virtual std::shared_ptr<const Snapshot> next(std::uint64_t after, std::uint64_t cursor) = 0;

  // Makes a page's change (a control, pause, reset, ...). Throws InputError, changing nothing,
  // when the source refuses it.
  virtual void apply(const ClientMessage& message) = 0;

  // Why the source cannot go on ("" while it can).
  virtual std::string failure() const { return ""; }
};

}  // namespace boids::serve
