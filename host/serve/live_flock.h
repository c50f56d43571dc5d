// A flock flying on its own thread for `boids serve`, never waiting for a browser: the thread
// steps at the rate asked for (or as fast as the flock steps), applies the pages' changes
// between steps, and makes a snapshot (host/serve/frame.h) only when a page is waiting for one,
// so that a slow page costs the flock nothing and drops frames instead. Every half second it
// measures the flock for the pages' charts.
#pragma once

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <functional>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <thread>
#include <vector>

#include "host/core/config.h"
#include "host/core/simulation.h"
#include "host/core/viewer_access.h"
#include "host/serve/flock_news.h"
#include "host/serve/frame.h"
#include "host/serve/frame_source.h"
#include "host/serve/messages.h"

namespace boids::serve {

class LiveFlock final : public FrameSource {
 public:
  // How long a page's ask for a frame keeps the flock stepping.
  static constexpr std::chrono::milliseconds kWatchedFor{2000};

  // Called on the stepping thread.
  using Listener = SourceListener;

  // Flies `start` under `config` at `steps_per_second` (0: as fast as it steps).
  LiveFlock(const SimulationConfig& config, const FlockState& start, double steps_per_second);
  ~LiveFlock();  // stops the thread
  LiveFlock(const LiveFlock&) = delete;
  LiveFlock& operator=(const LiveFlock&) = delete;

  void start(Listener listener);
  // Stops the stepping thread (after its step): the listener is called no more.
  void stop();

  // The latest snapshot when it is newer than `after`; else null, and the stepping thread
  // makes a newer one after its next step (the cursor is a replay's). A page asking is a page
  // watching: the flock steps for a while after each ask (kWatchedFor), and waits otherwise.
  std::shared_ptr<const Snapshot> next(std::uint64_t after, std::uint64_t cursor) override;

  // Makes a page's change between steps (a change of a kind still waiting replaces it). Throws
  // InputError, before anything changes, for a value the flock refuses (a control out of its
  // range, ...).
  void apply(const ClientMessage& message) override;

  // {"type": "flock", "mode": "live", count, dimensions, world, model, backend, device,
  // paused, steps_per_second, controls: [...], goal}.
  std::string description() const override;

  // The error that stopped the stepping thread ("" while it flies).
  std::string failure() const override;

 private:
  void loop();
  void apply_pending();
  void publish_snapshot();
  void rebuild(const SimulationConfig& next);
  std::string describe_locked() const;

  mutable std::mutex mutex_;
  std::condition_variable wake_;
  SimulationConfig config_;  // under mutex_: what the pages see
  std::unique_ptr<Simulation> sim_;
  std::uint64_t count_;
  std::vector<ClientMessage> pending_;                          // under mutex_
  bool paused_ = false, step_once_ = false, stopping_ = false;  // under mutex_
  double steps_per_second_;                                     // under mutex_
  std::optional<PredatorPush> predator_;                        // under mutex_; the pointer, in 2D
  std::shared_ptr<const Snapshot> latest_;                      // under mutex_
  SnapshotMaker snapshots_;                                     // the stepping thread's
  MetricsClock metrics_clock_;
  bool snapshot_wanted_ = true;  // under mutex_
  // Until when a page is watching: a page asks for frames as it draws them, and the flock
  // steps only while one does (a page's tab in the background asks for none).
  std::chrono::steady_clock::time_point watched_until_{};  // under mutex_
  bool changed_ = true;                                    // since the latest snapshot
  std::string failure_;                                    // under mutex_
  Listener listener_;
  std::thread thread_;
};

}  // namespace boids::serve
