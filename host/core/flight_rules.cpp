#include "host/core/flight_rules.h"

#include <cmath>
#include <string>
#include <utility>

#include "host/base/errors.h"
#include "host/base/message_text.h"
#include "host/core/value_limits.h"
#include "host/model/param_table.h"
#include "kernels/world_terms.h"

namespace boids {
namespace {

void refuse_if(bool refused, const std::string& message) {
  if (refused) throw InputError(message);
}

bool finite_vector(const Vec3& v) {
  return std::isfinite(v.x) && std::isfinite(v.y) && std::isfinite(v.z);
}

// Each value as the command line's parser would have taken it: what a checkpoint's header can
// hold and no option can give. A default that follows from other parameters is held by its
// stand-in (0: the model's separation radius).
void check_well_formed(const FlockParams& p) {
  refuse_if(p.dimensions != 2 && p.dimensions != 3,
            "--dimensions: expected 2 or 3, got " + std::to_string(p.dimensions));
  const auto positive = [](const char* option, double value) {
    refuse_if(!(std::isfinite(value) && value > 0),
              std::string(option) + ": expected a number > 0, got " + number_text(value));
  };
  positive("--world", p.world.width);
  positive("--world", p.world.height);
  if (p.dimensions == 3) positive("--world", p.world.depth);
  for (const ParamSpec& row : param_table()) {
    if (!row.names_field(p.model)) continue;
    const std::string flag = row.flag;
    if (row.kind == ParamKind::kWhole) {
      const int v = p.*row.whole;
      if (v < row.low || v > row.high) {
        throw InputError(flag + ": expected " + describe_values(row) + ", got " +
                         std::to_string(v));
      }
    }
    if (row.kind != ParamKind::kNumber) continue;
    const double v = p.*row.number;
    if (row.has_unset && v == row.unset) continue;
    const bool above = row.low_open ? v > row.low : v >= row.low;
    if (!(std::isfinite(v) && above && v <= row.high)) {
      throw InputError(flag + ": expected " + describe_values(row) + ", got " + number_text(v));
    }
  }
  refuse_if(!finite_vector(p.wind), "--wind: expected finite numbers");
  refuse_if(!finite_vector(p.goal), "--goal: expected finite numbers");
}

// Whether a point lies in the world (its first `dimensions` coordinates): anywhere finite in
// open space.
bool in_world(double x, double y, double z, const FlockParams& p) {
  return p.world.holds(0, x) && p.world.holds(1, y) && (p.dimensions == 2 || p.world.holds(2, z));
}

// The in-place update: the steering lab's own loop, alone. (Options another model ignores, such
// as the weights under Vicsek, are left to the command line, which refuses them as given.)
void check_in_place(const FlockParams& p) {
  const FlockParams defaults;
  if (p.update != Update::kInPlace) return;
  refuse_if(p.dimensions == 3, "--update: not yet in three dimensions (docs/3d.md)");
  refuse_if(p.model != Model::kSteering,
            "--update in-place: only the steering lab's loop updates in place (--model steering)");
  std::string given;  // what the flight has that the lab's loop has not
  const auto add = [&given](const std::string& what) {
    given += (given.empty() ? "" : ", ") + what;
  };
  if (p.fov != defaults.fov) add("a field of view");
  if (p.nearest > 0) add("nearest neighbours");
  kernels::for_each_term(kernels::AllTerms{}, p, [&](const char* term, bool on) {
    if (on) add(term);
  });
  refuse_if(!given.empty(),
            "--update in-place is the steering lab's own loop, which has no field of view, "
            "nearest neighbours or terms of the world, noise or wind; this flight has " +
                given);
}

// The variants' options against each other and against the world: each row within the
// bound the others set (the separation radius at most the radius), under the models it
// applies to and with what it needs on (a goal's weight with a goal).
void check_variants(const FlockParams& p) {
  for (const ParamSpec& row : param_table()) {
    if (!row.names_field(p.model) || row.at_default(p)) continue;
    const std::string flag = row.flag;
    if (row.below.of && row.kind == ParamKind::kNumber) {
      const double v = p.*row.number, bound = row.below.of(p);
      if (v > bound) {
        throw InputError(flag + ": expected a number in " + (row.low_open ? "(" : "[") +
                         number_text(row.low) + ", " + row.below.name + " = " + number_text(bound) +
                         "], got " + number_text(v));
      }
    }
    if (row.needs.on && !row.needs.on(p)) throw InputError(flag + " needs " + row.needs.as_given);
    const std::string refusal = row.refusal_under(p.model);
    if (row.section == ParamSection::kVariants && !row.applies(p.model, p.dimensions) &&
        !refusal.empty()) {
      throw InputError(flag + ": " + refusal);
    }
  }
  refuse_if(p.has_goal && !in_world(p.goal.x, p.goal.y, p.goal.z, p),
            "--goal: the point lies outside the world");
  refuse_if(p.path.size() == 1 || p.path.size() > kMaxPathPoints,
            "--path: a path has 2 to " + std::to_string(kMaxPathPoints) + " points, got " +
                std::to_string(p.path.size()));
  for (std::size_t k = 0; k < p.path.size(); ++k) {
    const Vec3& point = p.path[k];
    const std::string name = "--path: point " + std::to_string(k + 1);
    refuse_if(!in_world(point.x, point.y, point.z, p), name + ": it lies outside the world");
    refuse_if(k > 0 && point.x == p.path[k - 1].x && point.y == p.path[k - 1].y &&
                  point.z == p.path[k - 1].z,
              name + ": the same point as the one before it");
  }
  refuse_if(p.obstacles.size() > kMaxObstacles, "--obstacles: more than " +
                                                    std::to_string(kMaxObstacles) + " obstacles (" +
                                                    std::to_string(p.obstacles.size()) + ")");
  for (std::size_t k = 0; k < p.obstacles.size(); ++k) {
    const Obstacle& o = p.obstacles[k];
    const std::string name = "--obstacles: obstacle " + std::to_string(k + 1);
    refuse_if(!in_world(o.x, o.y, o.z, p), name + ": its centre lies outside the world");
    refuse_if(!(std::isfinite(o.radius) && o.radius > 0),
              name + ": radius = " + number_text(o.radius) + " is not > 0");
  }
}

}  // namespace

// What follows from the model's own values holds (couzin's radius, its zones' sum): a
// checkpoint's header may say otherwise.
void check_settled(const FlockParams& p) {
  FlockParams settled = p;
  settle_model(settled);
  refuse_if(settled.radius != p.radius,
            "radius: under the " + to_string(p.model) + " model it follows from its zones (" +
                number_text(settled.radius) + "), got " + number_text(p.radius));
}

void check_flight_params(const FlockParams& p, Precision precision) {
  check_well_formed(p);
  check_settled(p);
  check_in_place(p);
  check_variants(p);
  check_params(p, precision);
}

void check_flight(const SimulationConfig& config) {
  check_flight_params(config.params, config.precision);
  const bool reference = config.backend == Backend::kReference;
  refuse_if(reference && config.method != Method::kNaive,
            "--method hashed: the reference backend has only the naive method");
  refuse_if(reference && config.precision != Precision::kDouble,
            "--precision float: the reference backend computes in double precision only");
  refuse_if(!reference && config.params.update == Update::kInPlace,
            "--update in-place: only the reference backend runs the lab's own loop; every other "
            "backend updates synchronously");
}

void check_steps(const std::string& what, std::uint64_t steps) {
  refuse_if(steps > kMaxSteps, what + ": " + std::to_string(steps) +
                                   " steps is more than a flight takes (at most " +
                                   std::to_string(kMaxSteps) + ", 10^18)");
}

StateTolerance start_tolerance(Precision precision) {
  // A few hundred roundings of each precision: float's speeds stray by about 1e-7.
  return {precision == Precision::kFloat ? 1e-5 : 1e-9, 0};
}

StateTolerance flight_tolerance(const SimulationConfig& config) {
  StateTolerance tolerance = start_tolerance(config.precision);
  // The kernels test an obstacle in the flight's precision, with the centre and the boid
  // rounded to it: a boid they find just outside may lie just inside by a double's test, by
  // about a rounding of the world's coordinates.
  const World& w = config.params.world;
  const double sides = w.width + w.height + (config.params.dimensions == 3 ? w.depth : 0);
  tolerance.edge = sides * (config.precision == Precision::kFloat ? 1e-5 : 1e-12);
  return tolerance;
}

}  // namespace boids
