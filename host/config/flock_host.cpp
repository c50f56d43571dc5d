#include "host/config/flock_host.h"

#include "host/base/errors.h"
#include "host/base/message_text.h"
#include "host/io/state_file.h"

namespace boids {

std::uint64_t FlockHost::held_share(std::uint64_t count) const {
  return count;
}

std::unique_ptr<Simulation> FlockHost::make(const SimulationConfig& config,
                                            const FlockState& initial) {
  return make_simulation(config, initial);
}

std::unique_ptr<Simulation> FlockHost::drawn(const SimulationConfig& config,
                                             const FlockOptions& flock) {
  return make(config, initial_state(flock, config.params));
}

std::unique_ptr<Simulation> FlockHost::read(const SimulationConfig& config,
                                            const FlockOptions& flock) {
  const FlockState initial = initial_state(flock, config.params);
  check_memory(config, initial.size());
  return make(config, initial);
}

ResumedFlight FlockHost::read_resumed(const std::string& path) {
  Checkpoint whole = read_checkpoint(path);
  CheckpointHead head{whole.config, whole.step, whole.state.size(), {}, whole.state.predators};
  return {std::move(head), std::move(whole)};
}

std::unique_ptr<Simulation> FlockHost::resumed(ResumedFlight& flight, const std::string& path) {
  const Checkpoint& checkpoint = *flight.whole;
  std::unique_ptr<Simulation> sim;
  try {
    sim = make(checkpoint.config, checkpoint.state);
    sim->resume(checkpoint.state, checkpoint.order, checkpoint.step);
  } catch (const InputError& e) {
    throw InputError("checkpoint " + quoted_path(path) + ": " + e.what());
  }
  flight.whole.reset();
  return sim;
}

void FlockHost::write_save(Simulation& sim, OutputFiles& files, const std::string& path) {
  const FlockState state = sim.state();
  write_state_file(files, "--save", path, state);
  if (files.has("--save (predators)")) {
    FlockState predators;
    static_cast<Particles&>(predators) = state.predators;
    write_state_file(files, "--save (predators)", predator_state_path(path), predators);
  }
}

void FlockHost::write_checkpoint(Simulation& sim, OutputFiles& files, const std::string&) {
  boids::write_checkpoint(files, "--checkpoint", checkpoint_of(sim));
}

void FlockHost::append_frame(TrajectoryWriter& writer, Simulation& sim, std::uint64_t step,
                             double time, const FlockMetrics& metrics) {
  writer.append(step, time, sim.state(), metrics);
}

void save_checkpoint(Simulation& sim, const std::string& path) {
  OutputFiles file;
  file.add("--checkpoint", path);
  flock_host().write_checkpoint(sim, file, path);
  file.commit();
}

}  // namespace boids
