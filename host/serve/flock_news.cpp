#include "host/serve/flock_news.h"

#include <atomic>

#include "host/io/flight_params.h"

namespace boids::serve {
namespace {

using Clock = std::chrono::steady_clock;

constexpr auto kMetricsEvery = std::chrono::milliseconds(500);
constexpr int kMetricsShare = 10;

}  // namespace

// A snapshot of the pool that no page holds (its use count is the pool's alone, and only the
// maker hands out new references), else a new one while the pool is small.
std::shared_ptr<Snapshot> SnapshotMaker::unused() {
  for (const std::shared_ptr<Snapshot>& s : pool_) {
    if (s.use_count() == 1) {
      // The last other holder (a page's frame, the painter's picture) read it before letting
      // go: what it read happens before what is written now.
      std::atomic_thread_fence(std::memory_order_acquire);
      return s;
    }
  }
  auto fresh = std::make_shared<Snapshot>();
  if (pool_.size() < 4) pool_.push_back(fresh);
  return fresh;
}

std::shared_ptr<const Snapshot> SnapshotMaker::make(const Simulation& sim, bool paused) {
  const std::shared_ptr<Snapshot> snapshot = unused();
  make_snapshot_into(*snapshot, sim, ++made_, paused);
  return snapshot;
}

std::string MetricsClock::measure(Simulation& sim) {
  const auto started = Clock::now();
  const FlockMetrics m = sim.metrics();
  const nlohmann::json j = {
      {"type", "metrics"},
      {"step", sim.steps_taken()},
      {"polarization", m.polarization},
      {"order", m.order},
      {"milling", m.milling},
      {"largest_share", static_cast<double>(m.largest_flock) / static_cast<double>(sim.count())},
      {"flocks", m.flocks}};
  next_ = Clock::now() +
          std::max<Clock::duration>(kMetricsEvery, kMetricsShare * (Clock::now() - started));
  return page_text(j);
}

nlohmann::json flock_description(const SimulationConfig& config, std::uint64_t count,
                                 const std::string& device, const std::string& mode) {
  const FlockParams& p = config.params;
  nlohmann::json world = {{"width", p.world.width},
                          {"height", p.world.height},
                          {"boundary", to_string(p.world.boundary)}};
  if (p.dimensions == 3) world["depth"] = p.world.depth;
  return {{"type", "flock"},
          {"mode", mode},
          {"count", count},
          {"dimensions", p.dimensions},
          {"world", world},
          {"model", to_string(p.model)},
          {"models", model_names()},
          {"radius", p.radius},
          {"backend", to_string(config.backend)},
          {"method", to_string(config.method)},
          {"precision", to_string(config.precision)},
          {"device", device},
          {"seed", config.seed},
          {"params", params_to_json(p, ParamForm::kReport)}};
}

std::string page_text(const nlohmann::json& message) {
  return message.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
}

}  // namespace boids::serve
