// What several test suites share: where to find the `boids` executable, flocks written out
// boid by boid, and the backends, methods and precisions that suites run on.
#pragma once

#include <gtest/gtest.h>
#include <unistd.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <cstring>
#include <functional>
#include <initializer_list>
#include <memory>
#include <random>
#include <string>
#include <utility>
#include <vector>

#include "host/core/backends.h"
#include "host/core/simulation.h"
#include "host/model/flock.h"
#include "host/model/initial_state.h"
#include "host/model/variants.h"

namespace boids::test_support {

// The value of type T at byte `at` of `bytes` (a frame, a file), as the machine lays it out.
template <typename T>
T read_at(const std::string& bytes, std::size_t at) {
  T value;
  std::memcpy(&value, bytes.data() + at, sizeof value);
  return value;
}

// Where the tests find `boids`: beside the test binary when it is there (a build directory
// carried to another machine), else where CMake built it.
inline std::string boids_executable() {
  char self[4096];
  const ssize_t length = readlink("/proc/self/exe", self, sizeof self - 1);
  if (length > 0) {
    std::string beside(self, static_cast<std::size_t>(length));
    beside = beside.substr(0, beside.find_last_of('/') + 1) + "boids";
    if (access(beside.c_str(), X_OK) == 0) return beside;
  }
  return BOIDS_EXECUTABLE;
}

// One backend, method and precision: the parameter of a suite written once for all of them.
struct EngineCase {
  Backend backend;
  Method method;
  Precision precision;
};

inline void PrintTo(const EngineCase& c, std::ostream* out) {
  *out << to_string(c.backend) << " " << to_string(c.method) << " " << to_string(c.precision);
}

inline std::string engine_case_name(const testing::TestParamInfo<EngineCase>& info) {
  return to_string(info.param.backend) + "_" + to_string(info.param.method) + "_" +
         to_string(info.param.precision);
}

// Every backend (cpu and cuda), method and precision.
inline auto every_engine_case() {
  return testing::Values(EngineCase{Backend::kCpu, Method::kNaive, Precision::kDouble},
                         EngineCase{Backend::kCpu, Method::kNaive, Precision::kFloat},
                         EngineCase{Backend::kCpu, Method::kHashed, Precision::kDouble},
                         EngineCase{Backend::kCpu, Method::kHashed, Precision::kFloat},
                         EngineCase{Backend::kCuda, Method::kNaive, Precision::kDouble},
                         EngineCase{Backend::kCuda, Method::kNaive, Precision::kFloat},
                         EngineCase{Backend::kCuda, Method::kHashed, Precision::kDouble},
                         EngineCase{Backend::kCuda, Method::kHashed, Precision::kFloat});
}

// A suite over EngineCases. A cuda case skips, saying why, where no device is usable: it never
// passes without running.
class EngineCaseTest : public testing::TestWithParam<EngineCase> {
 protected:
  void SetUp() override {
    if (GetParam().backend == Backend::kCuda) {
      const CudaAvailability cuda = cuda_availability();
      if (!cuda.usable) GTEST_SKIP() << "cuda backend not usable: " << cuda.reason;
    }
  }

  // A simulation of the case's backend and precision, by the case's method or another.
  std::unique_ptr<Simulation> make(const FlockState& state, const FlockParams& params) const {
    return make(state, params, GetParam().method);
  }
  std::unique_ptr<Simulation> make(const FlockState& state, const FlockParams& params,
                                   Method method) const {
    return make_simulation({GetParam().backend, method, GetParam().precision, params}, state);
  }

  // The state of `start` after `steps` steps, by the case's method or another.
  FlockState after(const FlockState& start, const FlockParams& params, int steps) const {
    return after(start, params, steps, GetParam().method);
  }
  FlockState after(const FlockState& start, const FlockParams& params, int steps,
                   Method method) const {
    const auto sim = make(start, params, method);
    sim->step(static_cast<std::uint64_t>(steps));
    return sim->state();
  }
};

// A square torus of side `side`.
inline World square(double side) {
  return World{side, side, Boundary::kTorus};
}

// The boids model with its defaults in a cubic torus of side `side` (three dimensions).
inline FlockParams box(double side) {
  FlockParams p;
  p.dimensions = 3;
  p.world.width = p.world.height = p.world.depth = side;
  return p;
}

// The steering model (r 12, v_max 110) in `p`'s world closed by walls.
inline FlockParams steering_between_walls(FlockParams p) {
  p.world.boundary = Boundary::kWalls;
  p.model = Model::kSteering;
  p.radius = 12;
  p.max_speed = 110;
  return p;
}

// A flock from {x, y, vx, vy} per boid.
inline FlockState make_state(std::initializer_list<std::array<double, 4>> boids) {
  FlockState s;
  for (const auto& b : boids) {
    s.x.push_back(b[0]);
    s.y.push_back(b[1]);
    s.vx.push_back(b[2]);
    s.vy.push_back(b[3]);
  }
  return s;
}

inline bool same_bits(double a, double b) {
  return std::memcmp(&a, &b, sizeof(double)) == 0;
}

// Every value of two states equal bit for bit; the first difference, if any.
inline testing::AssertionResult bit_identical(const Particles& a, const Particles& b,
                                              const char* what = "boid") {
  if (a.size() != b.size()) {
    return testing::AssertionFailure() << "sizes " << a.size() << " and " << b.size();
  }
  const bool box = a.dimensions == 3 && b.dimensions == 3;
  for (std::size_t i = 0; i < a.size(); ++i) {
    if (!same_bits(a.x[i], b.x[i]) || !same_bits(a.y[i], b.y[i]) || !same_bits(a.vx[i], b.vx[i]) ||
        !same_bits(a.vy[i], b.vy[i]) ||
        (box && (!same_bits(a.z[i], b.z[i]) || !same_bits(a.vz[i], b.vz[i])))) {
      return testing::AssertionFailure()
             << what << " " << i << ": (" << a.x[i] << ", " << a.y[i] << ", " << a.vx[i] << ", "
             << a.vy[i] << ") vs (" << b.x[i] << ", " << b.y[i] << ", " << b.vx[i] << ", "
             << b.vy[i] << ")";
    }
  }
  return testing::AssertionSuccess();
}

// The boids and the predators alike, bit for bit (z and vz too in three dimensions).
inline testing::AssertionResult bit_identical(const FlockState& a, const FlockState& b) {
  const testing::AssertionResult boids =
      bit_identical(static_cast<const Particles&>(a), static_cast<const Particles&>(b));
  if (!boids) return boids;
  return bit_identical(a.predators, b.predators, "predator");
}

// A coordinate brought into [0, world).
inline double wrap_into(double v, double world) {
  v = std::fmod(v, world);
  if (v < 0) v += world;
  if (v >= world) v = 0;
  return v;
}

// `n` boids with velocities uniform in [-1, 1]^2: uniform on the torus when `clumps` is 0,
// else around `clumps` random centres with a normal spread of `spread`.
inline FlockState random_state(std::size_t n, double world, int clumps, double spread,
                               std::uint64_t seed) {
  std::mt19937_64 rng(seed);
  std::uniform_real_distribution<double> u(0, world);
  std::uniform_real_distribution<double> v(-1, 1);
  std::normal_distribution<double> g(0, spread);
  std::vector<std::pair<double, double>> centres;
  for (int c = 0; c < clumps; ++c) centres.push_back({u(rng), u(rng)});
  FlockState s;
  for (std::size_t i = 0; i < n; ++i) {
    double x, y;
    if (clumps == 0) {
      x = u(rng), y = u(rng);
    } else {
      const auto& c = centres[rng() % centres.size()];
      x = wrap_into(c.first + g(rng), world);
      y = wrap_into(c.second + g(rng), world);
    }
    s.x.push_back(x);
    s.y.push_back(y);
    s.vx.push_back(v(rng));
    s.vy.push_back(v(rng));
  }
  return s;
}

// `s` with the predators `p` asks for (none without), drawn as a flight's start draws them.
inline FlockState with_predators(FlockState s, const FlockParams& p, std::uint64_t seed = 1) {
  s.predators = make_initial_predators(seed, p);
  return s;
}

// Every model of the registry (host/model/models.h), in its order.
inline std::vector<Model> every_model() {
  std::vector<Model> models;
  for (const ModelSpec& m : model_registry()) models.push_back(m.id);
  return models;
}

// A model or variant of the flight, as a change to the published example's parameters (world 100).
struct FlightVariant {
  const char* name;
  std::function<void(FlockParams&)> set;
};

inline void PrintTo(const FlightVariant& v, std::ostream* out) {
  *out << v.name;
}

// Every variant of the catalogue (host/model/variants.h), set on the flock it is given: the
// published step, each variant that changes how a step goes, several at once, and the other two
// models. Names as gtest takes them ('_' for '-').
inline const std::vector<FlightVariant>& flight_variants() {
  static const std::vector<FlightVariant> all = [] {
    std::vector<FlightVariant> variants;
    for (const Variant& v : variant_catalogue()) {
      const Variant* variant = &v;
      variants.push_back({v.name, [variant](FlockParams& p) { p = variant_params(*variant, p); }});
    }
    return variants;
  }();
  return all;
}

// A variant's name as gtest takes it.
inline std::string test_name(const char* name) {
  std::string text = name;
  std::replace(text.begin(), text.end(), '-', '_');
  return text;
}

// The flock quantised where `sim` keeps it (Simulation::quantised_into) against its state
// quantised on the host (quantise_particles): alike, every byte and every speed, or the
// first boid where they differ.
inline testing::AssertionResult quantised_as_the_host(const Simulation& sim) {
  const FlockState state = sim.state();
  const std::size_t n = state.size();
  const int d = state.dimensions;
  struct Arrays {
    std::vector<std::uint16_t> position[3];
    std::vector<std::uint8_t> heading[2];
    std::vector<float> speed;
    QuantisedView view;
  };
  const auto arrays = [&](Arrays& a) {
    for (int k = 0; k < d; ++k) a.position[k].assign(n, 0xABCD);
    for (int k = 0; k < d - 1; ++k) a.heading[k].assign(n, 0xAB);
    a.speed.assign(n, -1.0f);
    for (int k = 0; k < 3; ++k) a.view.position[k] = k < d ? a.position[k].data() : nullptr;
    for (int k = 0; k < 2; ++k) a.view.heading[k] = k < d - 1 ? a.heading[k].data() : nullptr;
    a.view.speed = a.speed.data();
  };
  Arrays where, host;
  arrays(where);
  arrays(host);
  sim.quantised_into(where.view);
  quantise_particles(state, world_region(sim.config().params.world, state.dimensions), host.view);
  for (std::size_t i = 0; i < n; ++i) {
    bool same = where.speed[i] == host.speed[i];
    for (int k = 0; k < d; ++k) same = same && where.position[k][i] == host.position[k][i];
    for (int k = 0; k < d - 1; ++k) same = same && where.heading[k][i] == host.heading[k][i];
    if (!same) {
      return testing::AssertionFailure()
             << "boid " << i << " of " << n << ": x bin " << where.position[0][i] << " against "
             << host.position[0][i] << ", azimuth " << int{where.heading[0][i]} << " against "
             << int{host.heading[0][i]} << ", speed " << where.speed[i] << " against "
             << host.speed[i];
    }
  }
  return testing::AssertionSuccess();
}

}  // namespace boids::test_support
