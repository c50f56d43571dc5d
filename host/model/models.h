// The model registry: every model the engine flies, one entry each, and the one place that
// names them all (with the kernels' list of their types, kernels/models.h, in the same order).
// An entry says what the rest of the engine asks of a model: its name and where it comes from,
// its published example, the options it takes and their defaults under it, how it moves in a
// step, and its reference step. Every front end iterates the registry: the table of
// parameters, the command line's choices, the page, the viewer's panel, Python's stub and
// docs/models.md's table; the kernels' dispatch expands the type list (host/backends/
// model_types.h). A new model is its kernel file, its reference file, its entry here, and
// its options' rows where it brings new ones, and its validation flocks (CONTRIBUTING.md).
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace boids {

struct FlockParams;
struct FlockState;
namespace reference {
struct StepContext;
}

/// The rules the boids follow, in the registry's order (model_registry()).
enum class Model { kBoids, kSteering, kVicsek, kCouzin };

/// An option's default under one model: its flag and value.
struct ModelDefault {
  const char* flag;
  double value;
};

/// How a pair of boids counts under a model, as its published step writes it: what the neighbour
/// check (host/validation) holds every backend's pair decisions to.
struct PairRule {
  bool radius_inclusive = false;     ///< a neighbour at exactly r counts (the steering listing)
  bool coincident_neighbour = true;  ///< a boid at distance 0 is a neighbour (not couzin's)
  double push_floor_sq = 0;          ///< a neighbour pushes only farther than this, squared
  /// The radius closer than which a neighbour pushes (separation; couzin's repulsion); nullptr:
  /// none pushes (Vicsek).
  double (*pushing_radius)(const FlockParams&) = nullptr;
};

/// A variant of a model's flight, one of its validation flocks (host/model/variants.h): its
/// place in the catalogue of every model's variants, which keys its flock's seed (so a new one
/// takes the next place), its name, what it sets for people, and how.
struct ModelVariant {
  int place;
  const char* name;
  const char* summary;
  void (*apply)(FlockParams& params);
};

/// What the engine knows of a model.
struct ModelSpec {
  Model id;
  const char* name;     ///< "couzin": --model, JSON, Python, the page
  const char* summary;  ///< one line for --help, the docs' table and the page
  const char* source;   ///< the publication or listing it comes from
  /// The published example: its count and world (2D), which --count alone keeps the density of.
  std::uint64_t example_count;
  double example_width, example_height;
  /// The flags of the model's and the variants' rows it takes (the world's, the start's and the
  /// backend's apply to every model); any other such row is refused.
  std::vector<const char*> takes = {};
  /// Whether it also takes every variant of Reynolds' rules and term of the world (the rows
  /// marked `rules_variant`, host/model/param_table.cpp): a new term needs no edit here.
  bool takes_rules_variants = false;
  /// Its defaults where they are not the row's own.
  std::vector<ModelDefault> defaults = {};
  /// Why a row it does not take is refused, when the row's own reason speaks of other models
  /// (the flags it takes follow it in the message); nullptr: the row's.
  const char* refusal = nullptr;
  /// Every boid flies at the constant speed --speed (a start's velocities are set to it).
  bool constant_speed = false;
  /// It steps by --dt (a step is dt units of time), where the others step by 1.
  bool timed = false;
  /// Wind drifts its boids after their heading is set (it adds to the step's length), where the
  /// others' wind acts before the speed's clamp.
  bool wind_drifts = false;
  /// Sets the values that follow from its own (couzin's perception radius from its zones);
  /// nullptr: none.
  void (*settle)(FlockParams&) = nullptr;
  /// The flags of the rows whose values settle sets: not given, yet part of its flight (its
  /// records write them, and its readers take them).
  std::vector<const char*> derives = {};
  /// How a pair counts for it.
  PairRule pairs = {};
  /// Its reference step: every boid over all pairs in double, in 2D or 3D (host/reference).
  void (*reference_step)(FlockState&, const FlockParams&, const reference::StepContext&) = nullptr;
  /// Its validation flocks, which `boids validate` and the variant tests fly on every backend
  /// against the reference: how a validation world's flock (`base`: its world, radius and speed
  /// set, every variant off) becomes one of this model's (nullptr: as it is), then each variant.
  void (*validation_flock)(FlockParams& p, const FlockParams& base) = nullptr;
  std::vector<ModelVariant> variants = {};

  /// Whether it takes the row of `flag`.
  bool takes_flag(const std::string& flag) const;
  /// Its default of the row of `flag`, if it has its own.
  std::optional<double> default_of(const std::string& flag) const;
};

/// Every model, in the order of Model.
const std::vector<ModelSpec>& model_registry();

/// The entry of `model`.
const ModelSpec& spec_of(Model model);

/// Every model's name, in order: the choices of --model.
std::vector<std::string> model_names();

/// Sets in `params` what follows from its model's own values (ModelSpec::settle): to be called
/// wherever a flight's values change, before they are checked.
void settle_model(FlockParams& params);

std::string to_string(Model model);
/// The model of `name`; nullopt for a name no model has.
std::optional<Model> parse_model(const std::string& name);

}  // namespace boids
