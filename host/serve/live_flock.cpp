#include "host/serve/live_flock.h"

#include <algorithm>

#include <nlohmann/json.hpp>

#include "host/base/errors.h"
#include "host/config/flock_options.h"
#include "host/core/controls.h"
#include "host/core/flight_rules.h"
#include "host/model/initial_state.h"
#include "host/model/param_table.h"
#include "host/serve/flock_news.h"

namespace boids::serve {
namespace {

using Clock = std::chrono::steady_clock;
using Type = ClientMessage::Type;

// The parameters with a page's change made; throws InputError where the flight's rules refuse
// it. Changes that make a new flock (reset, model) and those of the stepping alone leave them.
FlockParams changed_params(const FlockParams& params, Precision precision, std::uint64_t count,
                           const ClientMessage& m) {
  FlockParams next = params;
  switch (m.type) {
    case Type::kSet:
      return with_control(params, precision, m.name, m.value);
    case Type::kGoal:
      next.has_goal = m.on;
      if (m.on) next.goal = {m.at.x, m.at.y, params.dimensions == 3 ? m.at.z : 0.0};
      reset_unneeded(next);  // the goal's weight and arrival go with it
      check_flight_params(next, precision);
      return next;
    case Type::kModel: {
      // A new model is a new flock: the model's defaults at its example's density (as the
      // native viewer's switch); a box keeps its sides, and the world its boundary.
      next = model_defaults(m.model, count);
      if (params.dimensions == 3) {
        next.dimensions = 3;
        next.world = params.world;
      }
      next.world.boundary = params.world.boundary;
      check_flight_params(next, precision);
      return next;
    }
    default:
      return next;
  }
}

}  // namespace

LiveFlock::LiveFlock(const SimulationConfig& config, const FlockState& start,
                     double steps_per_second)
    : config_(config),
      sim_(make_simulation(config, start)),
      count_(start.size()),
      steps_per_second_(steps_per_second) {}

LiveFlock::~LiveFlock() {
  stop();
}

void LiveFlock::stop() {
  {
    const std::lock_guard<std::mutex> lock(mutex_);
    stopping_ = true;
  }
  wake_.notify_all();
  if (thread_.joinable()) thread_.join();
}

void LiveFlock::start(Listener listener) {
  listener_ = std::move(listener);
  thread_ = std::thread([this] {
    try {
      loop();
    } catch (const std::exception& e) {
      const std::lock_guard<std::mutex> lock(mutex_);
      failure_ = e.what();
    }
  });
}

std::shared_ptr<const Snapshot> LiveFlock::next(std::uint64_t after, std::uint64_t) {
  const std::lock_guard<std::mutex> lock(mutex_);
  const bool was_idle = Clock::now() >= watched_until_;
  watched_until_ = Clock::now() + kWatchedFor;
  if (was_idle) wake_.notify_all();
  if (latest_ && latest_->number > after) return latest_;
  snapshot_wanted_ = true;
  wake_.notify_all();
  return nullptr;
}

void LiveFlock::apply(const ClientMessage& message) {
  const std::lock_guard<std::mutex> lock(mutex_);
  if (message.type == Type::kPredator && config_.params.dimensions == 3) {
    throw InputError("the pointer is a predator in two dimensions only");
  }
  if (message.type == Type::kSeek) throw InputError("a live flock has no frames to seek");
  try {  // refused now, in the page's words, or applied later
    changed_params(config_.params, config_.precision, count_, message);
  } catch (const InputError& e) {
    throw InputError(in_page_words(e.what()));
  }
  // Coalesced: a change still waiting is replaced by a later one of its kind (a control's by
  // its name), so that what waits is bounded by the kinds of change and a flood of resets
  // costs the flock one.
  const auto superseded = [&](const ClientMessage& waiting) {
    return waiting.type == message.type &&
           (message.type != Type::kSet || waiting.name == message.name);
  };
  pending_.erase(std::remove_if(pending_.begin(), pending_.end(), superseded), pending_.end());
  pending_.push_back(message);
  wake_.notify_all();
}

std::string LiveFlock::description() const {
  const std::lock_guard<std::mutex> lock(mutex_);
  return describe_locked();
}

std::string LiveFlock::describe_locked() const {
  const FlockParams& p = config_.params;
  nlohmann::json controls = nlohmann::json::array();
  for (const Control& c : controls_of(p)) {
    controls.push_back({{"name", c.name},
                        {"low", c.low},
                        {"high", c.high},
                        {"log", c.logarithmic},
                        {"whole", c.whole},
                        {"value", c.value}});
  }
  nlohmann::json j = flock_description(config_, count_, sim_ ? sim_->device() : "", "live");
  j["paused"] = paused_;
  j["steps_per_second"] = steps_per_second_;
  j["controls"] = controls;
  j["goal"] = p.has_goal ? nlohmann::json{{"x", p.goal.x}, {"y", p.goal.y}, {"z", p.goal.z}}
                         : nlohmann::json(nullptr);
  return page_text(j);
}

std::string LiveFlock::failure() const {
  const std::lock_guard<std::mutex> lock(mutex_);
  return failure_;
}

void LiveFlock::loop() {
  auto next_step = Clock::now();
  for (;;) {
    bool stepping = false;
    {
      std::unique_lock<std::mutex> lock(mutex_);
      for (;;) {
        if (stopping_) return;
        // Stepping is due while a page watches (a step asked for is due regardless).
        const bool watched = Clock::now() < watched_until_;
        const bool due = (!paused_ && watched) || step_once_;
        const bool work = !pending_.empty() || (snapshot_wanted_ && changed_);
        if (due && (steps_per_second_ <= 0 || Clock::now() >= next_step)) {
          stepping = true;
          break;
        }
        if (work) break;
        if (due) {
          wake_.wait_until(lock, next_step);
        } else {
          wake_.wait_for(lock, std::chrono::milliseconds(200));
        }
      }
    }
    apply_pending();
    if (stepping) {
      std::optional<PredatorPush> predator;
      {
        const std::lock_guard<std::mutex> lock(mutex_);
        predator = predator_;
        step_once_ = false;
        if (steps_per_second_ > 0) {
          next_step =
              std::max(next_step + std::chrono::duration_cast<Clock::duration>(
                                       std::chrono::duration<double>(1.0 / steps_per_second_)),
                       Clock::now() - std::chrono::milliseconds(100));
        }
      }
      if (predator) viewer_access(*sim_).apply_predator(*predator);
      sim_->step(1);
      changed_ = true;
    }
    bool want = false;
    {
      const std::lock_guard<std::mutex> lock(mutex_);
      want = snapshot_wanted_ && changed_;
    }
    if (want) publish_snapshot();
    if (stepping && metrics_clock_.due() && listener_.broadcast) {
      listener_.broadcast(metrics_clock_.measure(*sim_));
    }
  }
}

void LiveFlock::apply_pending() {
  std::vector<ClientMessage> messages;
  {
    const std::lock_guard<std::mutex> lock(mutex_);
    messages.swap(pending_);
  }
  if (messages.empty()) return;
  for (const ClientMessage& m : messages) {
    SimulationConfig next;
    {
      const std::lock_guard<std::mutex> lock(mutex_);
      next = config_;
      switch (m.type) {
        case Type::kPause:
          paused_ = m.on;
          break;
        case Type::kStep:
          paused_ = true;
          step_once_ = true;
          break;
        case Type::kRate:
          steps_per_second_ = m.value;
          break;
        case Type::kPredator:
          predator_.reset();
          if (m.on) predator_ = PredatorPush{m.at.x, m.at.y, m.value, 1.0};
          break;
        default:
          break;
      }
    }
    try {
      if (m.type == Type::kReset || m.type == Type::kModel) {
        if (m.type == Type::kModel)
          next.params = changed_params(next.params, next.precision, count_, m);
        next.seed += 1;
        rebuild(next);
      } else if (m.type == Type::kSet || m.type == Type::kGoal) {
        next.params = changed_params(next.params, next.precision, count_, m);
        sim_->set_params(next.params);
        const std::lock_guard<std::mutex> lock(mutex_);
        config_ = next;
      }
    } catch (const InputError&) {
      // Checked when it came; a change made since refuses it now: the flock goes on as it was.
    }
  }
  changed_ = true;
  std::string text;
  {
    const std::lock_guard<std::mutex> lock(mutex_);
    text = describe_locked();
  }
  if (listener_.broadcast) listener_.broadcast(text);
}

// A new flock of `next`, from a random start of its seed; the old one is freed first, so that
// the two never hold the memory at once.
void LiveFlock::rebuild(const SimulationConfig& next) {
  const FlockState start = make_initial_state(count_, next.seed, next.params);
  sim_.reset();
  sim_ = make_simulation(next, start);
  const std::lock_guard<std::mutex> lock(mutex_);
  config_ = next;
}

void LiveFlock::publish_snapshot() {
  bool paused = false;
  {
    const std::lock_guard<std::mutex> lock(mutex_);
    paused = paused_;
  }
  std::shared_ptr<const Snapshot> snapshot = snapshots_.make(*sim_, paused);
  {
    const std::lock_guard<std::mutex> lock(mutex_);
    latest_ = std::move(snapshot);
    snapshot_wanted_ = false;
    changed_ = false;
  }
  if (listener_.snapshot_ready) listener_.snapshot_ready();
}

}  // namespace boids::serve
