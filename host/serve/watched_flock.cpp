#include "host/serve/watched_flock.h"

#include "host/base/errors.h"

namespace boids::serve {
namespace {

using Clock = std::chrono::steady_clock;

// A flock is watched while a page has asked for a frame this recently: its charts are measured
// and its owner steps in short stretches; a flock nobody watches costs its script nothing.
constexpr auto kWatchedFor = std::chrono::seconds(2);

}  // namespace

WatchedFlock::WatchedFlock(const Simulation& sim, TryHold try_hold)
    : try_hold_(std::move(try_hold)), description_(describe(sim)) {
  latest_ = snapshots_.make(sim, false);  // once the maker is made
}

void WatchedFlock::start(SourceListener listener) {
  listener_ = std::move(listener);
}

std::string WatchedFlock::describe(const Simulation& sim) {
  nlohmann::json j = flock_description(sim.config(), sim.count(), sim.device(), "script");
  j["paused"] = false;
  j["controls"] = nlohmann::json::array();
  return page_text(j);
}

bool WatchedFlock::watched() const {
  const std::lock_guard<std::mutex> lock(mutex_);
  return Clock::now() - last_asked_ < kWatchedFor;
}

std::shared_ptr<const Snapshot> WatchedFlock::publish(const Simulation& sim) {
  std::shared_ptr<const Snapshot> snapshot = snapshots_.make(sim, false);
  const std::lock_guard<std::mutex> lock(mutex_);
  latest_ = snapshot;
  wanted_ = false;
  stale_ = false;
  return snapshot;
}

void WatchedFlock::changed(Simulation& sim) {
  {
    const std::lock_guard<std::mutex> lock(mutex_);
    stale_ = true;
  }
  std::string description = describe(sim);
  bool described = false;
  {
    const std::lock_guard<std::mutex> lock(mutex_);
    described = description != description_;
    if (described) description_ = description;
  }
  if (described && listener_.broadcast) listener_.broadcast(description);
  still(sim);
}

void WatchedFlock::still(Simulation& sim) {
  bool publishing = false;
  {
    const std::lock_guard<std::mutex> lock(mutex_);
    publishing = wanted_ && stale_;
  }
  if (publishing) {
    publish(sim);
    if (listener_.snapshot_ready) listener_.snapshot_ready();
  }
  if (watched() && metrics_clock_.due() && listener_.broadcast) {
    listener_.broadcast(metrics_clock_.measure(sim));
  }
}

std::shared_ptr<const Snapshot> WatchedFlock::next(std::uint64_t after, std::uint64_t) {
  {
    const std::lock_guard<std::mutex> lock(mutex_);
    last_asked_ = Clock::now();
    if (latest_->number > after) return latest_;
    wanted_ = true;
    if (!stale_) return nullptr;  // the owner's next change makes it
  }
  // The flock moved on since the latest snapshot: taken now if the owner is idle, else by the
  // owner once it holds the flock still.
  std::shared_ptr<const Snapshot> now;
  try_hold_([&](const Simulation& sim) { now = publish(sim); });
  return now;
}

void WatchedFlock::apply(const ClientMessage&) {
  throw InputError("a Python script steps this flock: change it there (flock.set_params)");
}

std::string WatchedFlock::description() const {
  const std::lock_guard<std::mutex> lock(mutex_);
  return description_;
}

}  // namespace boids::serve
