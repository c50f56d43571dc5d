#include "host/serve/replay.h"

#include <nlohmann/json.hpp>

#include "host/base/errors.h"
#include "host/base/message_text.h"
#include "host/serve/flock_news.h"

namespace boids::serve {
namespace {

// Frames kept for pages watching near one another.
constexpr std::size_t kRecentFrames = 8;

}  // namespace

Replay::Replay(const std::string& path) : path_(path), reader_(path) {
  // Checked as `boids convert` checks it: a replay of nothing is refused at the start.
  if (reader_.frames() == 0) {
    throw InputError("trajectory " + quoted_path(path) + ": no whole frame to replay");
  }
}

std::string Replay::description() const {
  const World world = reader_.world();
  nlohmann::json w = {
      {"width", world.width}, {"height", world.height}, {"boundary", to_string(world.boundary)}};
  if (reader_.dimensions() == 3) w["depth"] = world.depth;
  const nlohmann::json j = {{"type", "flock"},
                            {"mode", "replay"},
                            {"file", path_},
                            {"count", reader_.count()},
                            {"dimensions", reader_.dimensions()},
                            {"world", w},
                            {"frames", reader_.frames()},
                            {"steps", reader_.steps()},
                            {"times", reader_.times()},
                            {"controls", nlohmann::json::array()}};
  return page_text(j);
}

std::shared_ptr<const Snapshot> Replay::next(std::uint64_t after, std::uint64_t cursor) {
  if (reader_.frames() == 0) return nullptr;
  const std::uint64_t frame = std::min(cursor, reader_.frames() - 1);
  const std::uint64_t number = frame + 1;
  if (number == after) return nullptr;
  const std::lock_guard<std::mutex> lock(mutex_);
  const auto found = recent_.find(number);
  if (found != recent_.end()) return found->second;
  World world = reader_.world();
  auto snapshot = std::make_shared<const Snapshot>(
      make_snapshot(reader_.frame(frame), world, static_cast<std::uint64_t>(reader_.steps()[frame]),
                    number, false));
  if (recent_.size() >= kRecentFrames) recent_.erase(recent_.begin());
  recent_.emplace(number, snapshot);
  return snapshot;
}

void Replay::apply(const ClientMessage& message) {
  if (message.type != ClientMessage::Type::kSeek) {
    throw InputError("a replay plays a recorded flight: it cannot be steered");
  }
}

}  // namespace boids::serve
