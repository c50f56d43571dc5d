// What a flock runs on and how: the backend, the method, the precision, the model's parameters
// and the seed.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "host/model/flock.h"

namespace boids {

enum class Backend { kReference, kCpu, kCuda };
enum class Method { kNaive, kHashed };
enum class Precision { kFloat, kDouble };

std::string to_string(Backend backend);
std::string to_string(Method method);
std::string to_string(Precision precision);
std::optional<Backend> parse_backend(const std::string& name);  // not "auto"
std::optional<Method> parse_method(const std::string& name);
std::optional<Precision> parse_precision(const std::string& name);

// A change made to a flight on its way (boids run --resume FILE --new-flight --noise 1): from
// `step` on, some of its parameters took other values. A flight with one is a new flight, no
// longer the one its seed first flew; its checkpoints carry every change (docs/running.md).
struct FlightChange {
  std::uint64_t step = 0;
  std::string record;  // a JSON object: {"step", "changed": {key: {"from", "to"}}, "by", ...}
};

// Everything that shapes a flight besides its start.
struct SimulationConfig {
  Backend backend = Backend::kCpu;
  Method method = Method::kHashed;
  Precision precision = Precision::kFloat;
  FlockParams params;
  std::uint64_t seed = 42;  // keys the noise: draws depend on (seed, step, boid)
  // Where the flock is part of a larger one (a rank's boids and ghosts under MPI): the whole
  // flock's count, for which the cell grid is made (0: this flock's own count).
  std::uint64_t whole_count = 0;
  // The changes made to the flight on its way, oldest first; none for the flight its seed flies.
  std::vector<FlightChange> history = {};
};

}  // namespace boids
