// Validation of a backend against the reference: every method and precision is run on a few
// small flocks and its state compared, boid by boid in input order, with the reference's.
//
// Tolerances, per (method, precision):
//   naive  double  bit for bit after 10 steps (same terms, same order as the reference)
//   hashed double  <= 1e-9 after 10 steps     (same terms, another order of summation)
//   float          <= 1e-4 after 1 step       (from the same double state, cast to float)
// Errors are the largest componentwise difference; positions are compared on the torus. The
// same tolerances hold in three dimensions.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "host/core/simulation.h"
#include "host/model/flock.h"

namespace boids {

/// A starting flock of the validation: its name, its parameters and its state.
struct ValidationFlock {
  std::string name;
  FlockParams params;
  FlockState state;
};

/// The validation's flocks in `dimensions` (2 or 3): "random" (500 boids at r = 5, in 2D a
/// 100 x 100 torus, 1.25 boids per r^2; in 3D a cube at the published example's mean neighbour
/// count), "flocked" (the reference run 300 steps from a random start, so that neighbourhoods
/// are dense), and two worlds with fewer than 3 cells per axis ("2-cells-r40" and "1-cell-r60";
/// in 3D "2-cells-r16" and "1-cell-r25").
std::vector<ValidationFlock> validation_flocks(int dimensions = 2);

/// A flock of 500 boids in the same world for each variant of the catalogue
/// (host/model/variants.h), named as the variant, each from its own seed (11, 12, ...).
std::vector<ValidationFlock> variant_flocks(int dimensions = 2);

/// What a method and precision must achieve, and after how many steps.
struct ValidationTolerance {
  std::uint64_t steps = 0;
  double max_error = 0;  ///< on positions and velocities
  bool bitwise = false;  ///< every value equal bit for bit (max_error is then 0)
};
ValidationTolerance validation_tolerance(Method method, Precision precision);

/// One comparison of a backend's state with the expected (reference) state.
struct ValidationCase {
  Backend backend = Backend::kCpu;
  Method method = Method::kNaive;
  Precision precision = Precision::kDouble;
  std::string state;   ///< the flock's name
  std::string device;  ///< where it ran, as Simulation::device() says
  std::uint64_t count = 0;
  std::uint64_t steps = 0;
  ValidationTolerance tolerance;
  double max_position_error = 0;  ///< wrapped on the torus
  double max_velocity_error = 0;
  std::uint64_t differing_values = 0;     ///< values not equal bit for bit
  std::uint64_t neighbor_mismatches = 0;  ///< boids whose neighbour count differs (see below)
  std::uint64_t rounding_boids = 0;     ///< boids with a pair decided differently, within the band
  std::uint64_t unexplained_boids = 0;  ///< boids with a pair decided differently, outside it
  std::string failure;                  ///< why it failed; empty when it passed
  bool pass = false;
};

/// The neighbour check, on the state S that the backend saw before its first step: each boid's
/// pairs are decided in double on S (as the reference does) and in the backend's precision on
/// S cast to that precision (with the kernels' own rule code). See validation.cpp for the rule.
struct NeighborCheck {
  std::uint64_t neighbor_mismatches = 0;  ///< boids whose neighbour count differs
  std::uint64_t rounding_boids = 0;       ///< boids whose differing pairs all lie in the band
  std::uint64_t unexplained_boids = 0;    ///< boids with a differing pair outside the band
  std::vector<bool> rounding;             ///< per boid: its result may differ by rounding
};
NeighborCheck check_neighbors(const FlockState& state, const FlockParams& params,
                              Precision precision);

/// Runs `backend` with `method` and `precision` from flock.state for `steps` steps and compares
/// its state() with `expected` (normally the reference's state after the same steps) under
/// `tolerance`. Throws what make_simulation throws (e.g. RuntimeError: no CUDA device).
ValidationCase compare_with_expected(Backend backend, Method method, Precision precision,
                                     const ValidationFlock& flock, const FlockState& expected,
                                     const ValidationTolerance& tolerance);

/// The reference's state after `steps` steps from `state`, its noise keyed by `seed`.
FlockState reference_state(const FlockState& state, const FlockParams& params, std::uint64_t steps,
                           std::uint64_t seed = 42);

/// Every method x precision of `backend` on every validation flock and variant, against the
/// reference.
struct ValidationReport {
  Backend backend = Backend::kCpu;
  int dimensions = 2;
  std::string device;  ///< as the backend's Simulation::device() says
  std::vector<ValidationCase> cases;
  bool pass() const;
};
ValidationReport validate_backend(Backend backend, int dimensions = 2);

}  // namespace boids
