// A flock that its owner steps, watched by pages: boids.Flock.serve() in Python, where the
// script steps and changes the flock and a browser tab shows it. The pages change nothing
// (the script steers). The owner tells the source whenever it holds the flock still (after
// each stretch of steps, each change, each read); the source then makes the snapshot a page
// waits for, measures the flock for the charts when they are due, and describes it again when
// the description changed. A page that asks while the owner is idle gets its snapshot at once:
// the source holds the flock for it, if the owner is not using it (`try_hold`).
#pragma once

#include <chrono>
#include <cstdint>
#include <functional>
#include <memory>
#include <mutex>
#include <string>

#include "host/core/simulation.h"
#include "host/serve/flock_news.h"
#include "host/serve/frame_source.h"

namespace boids::serve {

class WatchedFlock final : public FrameSource {
 public:
  // Runs its argument on the flock, held as the owner holds it, unless the owner is using it
  // now; says whether it ran.
  using TryHold = std::function<bool(const std::function<void(const Simulation&)>&)>;

  // Makes the first snapshot of `sim`, which the owner holds still meanwhile.
  WatchedFlock(const Simulation& sim, TryHold try_hold);

  void start(SourceListener listener);  // before the server serves

  // The owner's side, with `sim` held still: it stepped or changed; or it is as it was.
  void changed(Simulation& sim);
  void still(Simulation& sim);
  // Whether a page has asked for a frame lately (kWatchedFor): the owner then steps in stretches
  // short enough for the page's frame rate.
  bool watched() const;

  // The pages' side, on the server's thread.
  std::shared_ptr<const Snapshot> next(std::uint64_t after, std::uint64_t cursor) override;
  void apply(const ClientMessage& message) override;  // refuses every change
  // {"type": "flock", "mode": "script", ...: flock_description's fields, "controls": []}
  std::string description() const override;

 private:
  static std::string describe(const Simulation& sim);
  // A snapshot of the flock now, with the flock held (by whichever thread holds it).
  std::shared_ptr<const Snapshot> publish(const Simulation& sim);

  TryHold try_hold_;
  mutable std::mutex mutex_;
  std::shared_ptr<const Snapshot> latest_;  // under mutex_
  std::string description_;                 // under mutex_
  bool wanted_ = false;                     // under mutex_: a page waits
  bool stale_ = false;                      // under mutex_: the flock changed since latest_
  std::chrono::steady_clock::time_point last_asked_;  // under mutex_
  // Used with the flock held: the owner's, or the server's while it holds it.
  SnapshotMaker snapshots_;
  MetricsClock metrics_clock_;  // the owner's
  SourceListener listener_;
};

}  // namespace boids::serve
