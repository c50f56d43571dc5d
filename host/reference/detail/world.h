// The reference's own account of the world's primitives, written apart from the kernels'
// (kernels/world.h, kernels/noise.h) to the same specification, so that a mistake cannot hide
// in both: wrapping on the torus, reflecting off walls, and the noise (its counter-based draws
// and the polynomial cosine and sine). space.h builds the world over the dimension on them.
#pragma once

#include <cstddef>
#include <cstdint>

#include "host/model/flock.h"

namespace boids::reference {

// Whether the goal, the wind and the noise act in a flight, which the models read beside the
// world's terms: with those, the reference's one account of what acts (terms.cpp), written apart
// from the kernels' (kernels/world_terms.h).
bool goal_acts(const FlockParams& p);
bool wind_acts(const FlockParams& p);
bool noise_acts(const FlockParams& p);

// The steering model's maximum force, per v_max: what its rules' steering is truncated to, and
// what the world's terms and a predator's pursuit steer with at most.
inline constexpr double K_MAX_FORCE = 2.4;

// What a step needs besides the state and the parameters.
struct StepContext {
  std::uint64_t noise_key;  // from the run's seed
  std::uint64_t step;       // steps taken before this one
};

std::uint64_t noise_key(std::uint64_t seed);

// Uniform in [0, 1) with 53 random bits, for boid `id` at `step`, from `key`: the noise's draw.
double noise_draw(std::uint64_t key, std::uint64_t step, std::uint64_t id);

// Another key from `key`, for a second draw of the same boid and step.
std::uint64_t salted_key(std::uint64_t key, std::uint64_t salt);

// The rotation of boid `id`'s noise at `step`, for eta = `noise`: cos and sin of an angle
// uniform in [-eta/2, eta/2].
void noise_rotation(const FlockParams& p, const StepContext& context, std::uint64_t id, double& c,
                    double& s);

// cos and sin of |angle| <= pi by the engine's polynomial.
void polynomial_cos_sin(double angle, double& c, double& s);

// ln y for 0 < y <= 1 by the engine's polynomial: y = m 2^e with m in [sqrt(1/2), sqrt(2)), and
// ln m = 2 atanh(t), t = (m - 1) / (m + 1), by atanh's series to t^25 (Horner's rule in t^2).
double polynomial_log(double y);

// Where the reference departs from the published step's arithmetic, only where it leaves a boid
// outside its world or zeroes its velocity:
//
// A coordinate that the published step's wrap leaves at the world's side (x + side rounds to side
// when x < 0 by less than half an ulp of it) is 0, as the torus identifies them.
double identify_side_with_zero(double x, double side);

// An offset along one axis of the torus of side `side`, wrapped as the published step wraps it.
double wrap(double d, double side);

// A coordinate moved along one axis of the torus, wrapped back as the published step wraps it (the
// side itself being 0).
double wrap_position(double x, double side);

// Before the length of the n <= 3 components of v is taken: where a component exceeds 2^510,
// so that the sum of their squares could overflow, v is multiplied by 2^-600 (exactly, which
// keeps its direction), and true is returned; else nothing changes. A speed or force of such a
// vector is then over any limit, and it is clamped along the scaled vector.
bool shrink_if_huge(double* v, int n);

// Between walls, along one axis of side `side`: a boid that crossed a wall comes back as far as
// it went beyond it, and its velocity v turns; one still outside (a step longer than the side)
// stops at the wall.
void reflect_off_walls(double& x, double& v, double side);

// v / |v| for the n <= 3 components of v; false, leaving v alone, when it has no length. A
// vector whose square would overflow is shrunk first (as shrink_if_huge), keeping its
// direction. The squares add in axis order.
bool normalise(double* v, int n);

// cos(fov / 2), as the engine computes it.
double cos_half_view(const FlockParams& p);

// Reynolds' wander for boid `id` moving at v (n = 2 or 3 components) at this step: the part of
// its drift s across its heading, s - (s.u) u with u = v / |v| (all of s at rest). Each
// component of s eases, by smoothstep f^2 (3 - 2 f), between uniform draws in [-1, 1] made at
// every 32nd step (the knots k = step / 32 and k + 1, f = (step mod 32) / 32), drawn for
// (boid, knot) with the key of that axis: the run's noise key salted by "wander", then by the
// axis (1, 2, 3).
void wander_direction(const StepContext& context, std::uint64_t id, const double* v, int n,
                      double* w);

// Reynolds' path following for a boid at x moving at v (n = 2 or 3 components): false when it
// follows the path (ten steps on, at its velocity with the speed at most v_max, it will be
// within the path's radius and farther along than it is); else true, and `out` the unit
// direction (the shortest way) to the point of the path its speed times ten steps (times dt)
// farther along than the point nearest to where it will be (path_following.cpp).
bool path_direction(const FlockParams& p, const double* x, const double* v, int n, double* out);

}  // namespace boids::reference
