// What a flock runs on and how: the backend, the method, the precision, the model's parameters
// and the seed.
#pragma once

#include <cstdint>
#include <optional>
#include <string>

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
};

}  // namespace boids
