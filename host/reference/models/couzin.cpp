// Couzin, Krause, James, Ruxton & Franks 2002, "Collective memory and spatial sorting in animal
// groups" (J. Theor. Biol. 218, 1): each boid moves away from the neighbours in its zone of
// repulsion; with none there, it aligns with those in its zone of orientation and approaches
// those in its zone of attraction. It sees none in the blind angle behind it, its heading turns
// by at most turn_rate degrees per unit of time towards the direction it wants, after a Gaussian
// noise, and it moves at the constant speed s. Every boid from the same snapshot, in two or three
// dimensions by the same code. Compiled without floating-point contraction, like the rest of the
// reference.
#include <array>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <utility>

#include "host/reference/detail/models.h"
#include "host/reference/detail/space.h"

namespace boids::reference {
namespace {

constexpr double kTwoPi = 2 * kPi;
static_assert(kTwoPi == 6.283185307179586, "the Gaussian's angle and its wrap take this 2 pi");

// The key of the Box-Muller's second draw, from the run's noise key.
constexpr std::uint64_t kGaussSalt = 0x6761757373000000ULL;  // "gauss"

// x / |x|; false, leaving x alone, when it has no length. Unlike reference::normalise it shrinks
// no huge vector first: the model's specification takes the length plainly.
template <int D>
bool unit(Vector<D>& x) {
  const double length = std::sqrt(dot<D>(x, x));
  if (!(length > 0)) return false;
  for (double& c : x) c = c / length;
  return true;
}

// The square radii of the zones: repulsion within r_r, orientation within r_r + dro, attraction
// within the perception radius (r_r + dro + dra, as the model settles it).
struct Zones {
  double repulsion2, orientation2, attraction2;

  explicit Zones(const FlockParams& p) {
    repulsion2 = p.repulsion_radius * p.repulsion_radius;
    const double orientation = p.repulsion_radius + p.orientation_width;
    orientation2 = orientation * orientation;
    attraction2 = p.radius * p.radius;
  }
};

// What boid i gathers of its neighbours in each zone: how many, and the sum of the unit offsets
// to those it avoids and approaches and of the headings it aligns with (its own first).
template <int D>
struct Gathered {
  std::size_t repelled = 0, oriented = 0, attracted = 0;
  Vector<D> repulsion{}, orientation{}, attraction{};
};

template <int D>
Gathered<D> gather(const FlockParams& p, const Zones& zones, double cos_half, const FlockState& s,
                   std::size_t i, const Vector<D>& heading) {
  Gathered<D> g;
  // 0.0 + h: a -0 component of the heading becomes +0, as the specification writes it.
  for (int a = 0; a < D; ++a) g.orientation[a] = 0.0 + heading[a];
  for (std::size_t j = 0; j < s.size(); ++j) {
    if (j == i) continue;
    Vector<D> d;
    double d2;
    if (!look_at<D>(p, cos_half, s, i, j, d, d2) || d2 == 0 || !(d2 < zones.attraction2)) continue;
    const double length = std::sqrt(d2);
    Vector<D> u;
    for (int a = 0; a < D; ++a) u[a] = d[a] / length;
    const Vector<D> v = velocity_of<D>(s, j);
    const double speed = std::sqrt(dot<D>(v, v));
    if (d2 < zones.repulsion2) {
      g.repelled += 1;
      for (int a = 0; a < D; ++a) g.repulsion[a] += u[a];
    } else if (d2 < zones.orientation2) {
      g.oriented += 1;
      for (int a = 0; a < D; ++a) g.orientation[a] += speed > 0 ? v[a] / speed : 0;
    } else {
      g.attracted += 1;
      for (int a = 0; a < D; ++a) g.attraction[a] += u[a];
    }
  }
  return g;
}

// The unit direction boid i wants: away from the neighbours it must avoid, above all; else
// halfway between aligning and approaching, or the one it has neighbours for; else on as it
// heads (as it does too when what it wants has no length).
template <int D>
Vector<D> desired_direction(const Gathered<D>& g, const Vector<D>& heading) {
  Vector<D> w = heading;
  if (g.repelled > 0) {
    for (int a = 0; a < D; ++a) w[a] = -g.repulsion[a];
  } else if (g.oriented > 0 && g.attracted > 0) {
    Vector<D> o = g.orientation, q = g.attraction;
    unit<D>(o);  // each left alone (all zero) without a length
    unit<D>(q);
    for (int a = 0; a < D; ++a) w[a] = 0.5 * (o[a] + q[a]);
  } else if (g.oriented > 0) {
    w = g.orientation;
  } else if (g.attracted > 0) {
    w = g.attraction;
  }
  if (!unit<D>(w)) w = heading;
  return w;
}

// The angle of boid `id`'s noise at this step: Gaussian of deviation sigma by Box-Muller, from
// the run's draw and a second one keyed apart from it, wrapped into [-pi, pi] when beyond.
double gaussian_angle(double sigma, const StepContext& context, std::uint64_t id) {
  const double u1 = noise_draw(context.noise_key, context.step, id);
  const double u2 = noise_draw(salted_key(context.noise_key, kGaussSalt), context.step, id);
  const double r = std::sqrt(-2.0 * polynomial_log(1.0 - u1));  // 1 - u1 in (0, 1]
  double c = 1, s = 0;
  polynomial_cos_sin((u2 - 0.5) * kTwoPi, c, s);
  double g = sigma * (r * c);
  if (g > kPi || g < -kPi) g = g - kTwoPi * std::floor(g / kTwoPi + 0.5);
  return g;
}

// w turned by boid `id`'s noise at this step: by the Gaussian angle in the plane; in 3D by it
// away from w, towards the azimuth the 3D noise draws (the cone turn's own). Nothing without
// noise.
template <int D>
void turn_by_gaussian_noise(const FlockParams& p, const StepContext& context, std::uint64_t id,
                            Vector<D>& w) {
  if (!noise_acts(p)) return;
  double c = 1, s = 0;
  polynomial_cos_sin(gaussian_angle(p.noise, context, id), c, s);
  if constexpr (D == 3) {
    double cos_p = 1, sin_p = 0;
    noise_azimuth(context, id, cos_p, sin_p);
    turn_in_cone(c, s, cos_p, sin_p, w[0], w[1], w[2]);
  } else {
    const double x = c * w[0] - s * w[1];
    w[1] = s * w[0] + c * w[1];
    w[0] = x;
  }
}

// The most a heading turns in one step: turn_rate * dt degrees, no limit from pi on.
struct TurnLimit {
  bool limited;
  double cos_t = 1, sin_t = 0;

  explicit TurnLimit(const FlockParams& p) {
    const double angle = p.turn_rate * p.dt * kPi / 180;
    limited = angle < kPi;
    if (limited) polynomial_cos_sin(angle, cos_t, sin_t);
  }
};

// A unit vector perpendicular to the unit heading h, to turn away from it by when the wanted
// direction is straight behind: h turned by a right angle in the plane; in 3D, the first of
// the cone turn's perpendicular basis.
template <int D>
Vector<D> perpendicular_to(const Vector<D>& h) {
  if constexpr (D == 3) {
    double e1[3], e2[3];
    perpendicular_basis(h[0], h[1], h[2], e1, e2);
    return {e1[0], e1[1], e1[2]};
  } else {
    return {-h[1], h[0]};
  }
}

// The new heading: the wanted direction w when within the turn's limit of the heading h, else h
// turned by the limit towards w (in the plane of the two).
template <int D>
Vector<D> limited_turn(const TurnLimit& limit, const Vector<D>& h, const Vector<D>& w) {
  const double c = dot<D>(h, w);
  if (!limit.limited || c >= limit.cos_t) return w;
  Vector<D> across;
  for (int a = 0; a < D; ++a) across[a] = w[a] - c * h[a];
  if (!unit<D>(across)) across = perpendicular_to<D>(h);
  Vector<D> n;
  for (int a = 0; a < D; ++a) n[a] = limit.cos_t * h[a] + limit.sin_t * across[a];
  unit<D>(n);  // the part across h may be what cancellation left of w = -h, not perpendicular
  return n;
}

// Boid i of `s` moves at velocity v for dt and lands in `next` as the other models land.
template <int D>
void move(const FlockParams& p, const FlockState& s, std::size_t i, const Vector<D>& v,
          FlockState& next) {
  Vector<D> dx;
  for (int a = 0; a < D; ++a) dx[a] = v[a] * p.dt;
  land_at<D>(p, s, i, dx, v, next);
}

template <int D>
void couzin_step(FlockState& s, const FlockParams& p, const StepContext& context) {
  const Zones zones(p);
  const TurnLimit limit(p);
  const double cos_half = cos_half_view(p);
  FlockState next = s;
  for (std::size_t i = 0; i < s.size(); ++i) {
    Vector<D> heading = velocity_of<D>(s, i);
    if (!unit<D>(heading)) heading = Vector<D>{1};  // at rest: +x
    const Gathered<D> gathered = gather<D>(p, zones, cos_half, s, i, heading);
    Vector<D> wanted = desired_direction<D>(gathered, heading);
    turn_by_gaussian_noise<D>(p, context, i, wanted);
    const Vector<D> n = limited_turn<D>(limit, heading, wanted);
    Vector<D> v;
    for (int a = 0; a < D; ++a) v[a] = p.max_speed * n[a];
    move<D>(p, s, i, v, next);
  }
  s = std::move(next);
}

}  // namespace

void couzin_model_step(FlockState& state, const FlockParams& params, const StepContext& context) {
  if (params.dimensions == 3) {
    couzin_step<3>(state, params, context);
  } else {
    couzin_step<2>(state, params, context);
  }
}

}  // namespace boids::reference
