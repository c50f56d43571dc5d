#include "host/serve/replay.h"

#include <algorithm>
#include <cmath>
#include <nlohmann/json.hpp>
#include <utility>

#include "host/base/errors.h"
#include "host/base/message_text.h"
#include "host/core/value_limits.h"
#include "host/serve/flock_news.h"

namespace boids::serve {
namespace {

// Frames kept for pages watching near one another.
constexpr std::size_t kRecentFrames = 8;

// Puts `value` in `kept` under `key`, the lowest key making room once kRecentFrames are held.
template <typename Map, typename Value>
void keep(Map& kept, std::uint64_t key, Value value) {
  if (kept.size() >= kRecentFrames) kept.erase(kept.begin());
  kept.emplace(key, std::move(value));
}

}  // namespace

Replay::Replay(const std::string& path) : path_(path), reader_(path), frames_(reader_.frames()) {
  // Checked as `boids convert` checks it: a replay of nothing is refused at the start.
  if (frames_ == 0) {
    throw InputError("trajectory " + quoted_path(path) + ": no whole frame to replay");
  }
  // The run's radius, which colouring by neighbours or flocks needs, is checked as --radius
  // is: a file that names no radius has no such colouring.
  radius_ = reader_.parameter("radius").value_or(0.0);
  const double largest = value_limits(Precision::kDouble).largest;
  if (reader_.parameter("radius") && !(radius_ > 0 && radius_ <= largest)) {
    throw InputError("trajectory " + quoted_path(path) + ": its radius (/parameters) is " +
                     number_text(radius_) + ", expected a length in (0, " + number_text(largest) +
                     "]");
  }
  description_ = describe();  // once: the reader is the reading thread's from its start
}

std::string Replay::description() const {
  return description_;
}

std::string Replay::describe() const {
  const World world = reader_.world();
  nlohmann::json w = {
      {"width", world.width}, {"height", world.height}, {"boundary", to_string(world.boundary)}};
  if (reader_.dimensions() == 3) w["depth"] = world.depth;
  nlohmann::json j = {{"type", "flock"},
                      {"mode", "replay"},
                      {"file", path_},
                      {"count", reader_.count()},
                      {"dimensions", reader_.dimensions()},
                      {"world", w},
                      {"frames", reader_.frames()},
                      {"steps", reader_.steps()},
                      {"times", reader_.times()},
                      {"controls", nlohmann::json::array()}};
  // What the page charts (the run's record of each frame) and what colouring by neighbours
  // or flocks needs (the radius), where the file holds them.
  nlohmann::json observables = nlohmann::json::object();
  for (const auto& [name, values] : reader_.observables()) observables[name] = values;
  j["observables"] = observables;
  if (radius_ > 0) j["radius"] = radius_;
  return page_text(j);
}

std::shared_ptr<const Snapshot> Replay::read(std::uint64_t frame) {
  const World world = reader_.world();
  return std::make_shared<const Snapshot>(
      make_snapshot(reader_.frame(frame), world, static_cast<std::uint64_t>(reader_.steps()[frame]),
                    frame + 1, false, radius_));
}

std::shared_ptr<const Snapshot> Replay::next(std::uint64_t after, std::uint64_t cursor) {
  const std::uint64_t frame = std::min(cursor, frames_ - 1);
  const std::uint64_t number = frame + 1;
  if (number == after) return nullptr;
  std::unique_lock<std::mutex> lock(mutex_);
  const auto found = recent_.find(number);
  if (found != recent_.end()) return found->second;
  const auto failed = unreadable_.find(frame);
  if (failed != unreadable_.end()) throw RuntimeError(failed->second);
  if (!reading_.joinable()) {  // not started: read here
    auto snapshot = read(frame);
    keep(recent_, number, snapshot);
    return snapshot;
  }
  // Asked for once, however many pages ask; a page that moved on drops its older frames
  // from the front once the queue holds as many as are kept.
  if (std::find(wanted_.begin(), wanted_.end(), frame) == wanted_.end()) {
    if (wanted_.size() >= kRecentFrames) wanted_.pop_front();
    wanted_.push_back(frame);
    asked_.notify_one();
  }
  return nullptr;
}

void Replay::start(SourceListener listener) {
  listener_ = std::move(listener);
  reading_ = std::thread([this] { read_asked_frames(); });
}

void Replay::stop() {
  {
    const std::lock_guard<std::mutex> lock(mutex_);
    stopping_ = true;
  }
  asked_.notify_all();
  if (reading_.joinable()) reading_.join();
}

void Replay::read_asked_frames() {
  std::unique_lock<std::mutex> lock(mutex_);
  for (;;) {
    asked_.wait(lock, [&] { return stopping_ || !wanted_.empty(); });
    if (stopping_) return;
    const std::uint64_t frame = wanted_.front();
    wanted_.pop_front();
    lock.unlock();
    std::shared_ptr<const Snapshot> snapshot;
    std::string failure;
    try {
      snapshot = read(frame);
    } catch (const std::exception& e) {
      failure = e.what();
    } catch (...) {
      failure = "frame " + std::to_string(frame) + " could not be read";
    }
    lock.lock();
    if (snapshot) {
      keep(recent_, frame + 1, std::move(snapshot));
    } else {
      keep(unreadable_, frame, failure);
    }
    lock.unlock();
    if (listener_.snapshot_ready) listener_.snapshot_ready();
    lock.lock();
  }
}

void Replay::apply(const ClientMessage& message) {
  if (message.type != ClientMessage::Type::kSeek) {
    throw InputError("a replay plays a recorded flight: it cannot be steered");
  }
}

}  // namespace boids::serve
