// One home for each of the flock's options: its name (the JSON key and, from its flag, the
// Python keyword), its command-line flag, its kind of value and range, its default for each
// model, the models and dimensions it applies to, the control a page or the viewer offers for
// it, and what it means. Every front end reads this table: the command line's options and
// --help (host/tools/flock_command_line.h), resolving and refusing them
// (host/config/flock_options.h, host/core/flight_rules.h), the one writer and reader of a
// flight's parameters (host/io/flight_params.h), Python's keywords and type stubs, the controls
// of the browser page and of the viewer, and the table of docs/models.md (held to this one by
// a test). A new parameter is a field of FlockParams, a row here and its use in the step.
#pragma once

#include <string>
#include <vector>

#include "host/model/flock.h"

namespace boids {

// What a row's value is, which says how it is read from text and JSON, checked and shown.
enum class ParamKind {
  kNumber,      // a real number of FlockParams (`number`), in [low, high] and the precision's
                // range for its `scale`
  kWhole,       // a whole number of FlockParams (`whole`), in [low, high]
  kChoice,      // one of `choices` (the model, the boundary, the update)
  kDimensions,  // 2 or 3
  kWorld,       // L (a square or cube), W,H or W,H,D
  kPoint,       // X,Y or X,Y,Z inside the world: the goal (set or not)
  kVector,      // X,Y or X,Y,Z: the wind
  kRows,        // rows from a CSV file or given in memory: the obstacles, the path
  // The run's options, which are no parameters of the flight (they follow kRows):
  kRunNumber,  // a number of the run, not of FlockParams: --count, --seed, --density
  kRunChoice,  // a choice of the run: --backend, --method, --precision
  kRunFile,    // a file of the run: --init
};

// Which precision limits a number obeys (host/core/value_limits.h): a length (sides, radii,
// speeds, times, coordinates), a weight, or its own bounds alone (angles, counts).
enum class Scale { kNone, kLength, kWeight };

// Where --help lists an option.
enum class ParamSection { kModel, kWorld, kVariants, kStart, kBackend };

// Bit set of the dimensions (1 << D) a row applies to.
inline constexpr unsigned kBothDimensions = (1u << 2) | (1u << 3);

// A bound that depends on the other parameters, with its name for messages: "radius".
struct RelativeBound {
  double (*of)(const FlockParams&) = nullptr;
  const char* name = nullptr;
};

// Another option a row needs on: "--goal X,Y" for the goal's weight.
struct ParamNeed {
  bool (*on)(const FlockParams&) = nullptr;
  const char* as_given = nullptr;  // how the message names it: "--goal X,Y"
};

// The slider a page and the viewer offer for a row, for a flock of these parameters.
struct ParamControl {
  double (*low)(const FlockParams&) = nullptr;
  double (*high)(const FlockParams&) = nullptr;
  bool logarithmic = false;
};

struct ParamSpec {
  const char* key;         // the JSON key: "max_speed"
  const char* flag;        // "--max-speed"; its Python keyword is "max_speed"
  const char* value_name;  // "R", in --help
  ParamKind kind;
  ParamSection section;
  const char* doc;  // one line for --help, Python and docs/models.md

  // Where it applies: a row of the model's or the variants' sections (but a choice) applies to
  // the models that take it (ModelSpec::takes and takes_rules_variants, host/model/models.h),
  // any other to all;
  // `refusal` says why it does not under the others, unless the model says it itself.
  unsigned dimensions = kBothDimensions;
  const char* refusal = nullptr;
  ParamNeed needs;  // unset: needs nothing
  // A variant of Reynolds' rules or a term of the world, which every model of those rules
  // takes (ModelSpec::takes_rules_variants) without naming it.
  bool rules_variant = false;

  // The value: a field of FlockParams for kNumber and kWhole.
  double FlockParams::*number = nullptr;
  int FlockParams::*whole = nullptr;
  // Its default, which a model's entry may set otherwise (ModelSpec::defaults, or for a number
  // of the run `model_default` of the entry: the count, its example's), and where the default
  // follows from other parameters (the separation radius: r / 2), `unset` stands for it in
  // FlockParams and `derived` gives its value; `default_text` says it for people ("r / 2; steering
  // 0.45 r"). A number that may be off or follow others holds `unset` for it where `has_unset`: the
  // flight's rules accept it though no option gives it (--arrival-radius 0 is refused; a page
  // turns arrival off).
  double common_default = 0;
  double (*model_default)(const ModelSpec&) = nullptr;
  double (*derived)(const FlockParams&) = nullptr;
  double unset = 0;
  bool has_unset = false;
  const char* default_text = nullptr;

  // The values accepted: [low, high] (low excluded when low_open), high at most `below`
  // of the other parameters, and the precision's limits of `scale`.
  double low = 0;
  double high = 0;
  bool low_open = false;
  const char* range_text = nullptr;  // how messages say [low, high], where not as numbers
  RelativeBound below;
  Scale scale = Scale::kNone;
  std::vector<std::string> choices = {};

  ParamControl control;  // unset: a page or the viewer cannot change it while the flock flies
  // Sweeps may vary it (a number of the run or of FlockParams).
  bool sweepable = false;

  // The Python keyword: the flag without "--", '-' as '_'.
  std::string keyword() const;
  // Whether it applies to a flock of `model` in `dimensions`.
  bool applies(Model model, int dimensions) const;
  // Whether it is a row each model takes or not (ModelSpec::takes), rather than one of all.
  bool per_model() const;
  // Why it is refused under `model`, which does not take it; "" for no reason given.
  std::string refusal_under(Model model) const;
  // Whether it names its field under `model`: of two rows that share one (v_max, which the
  // Vicsek model calls --speed), the one that applies.
  bool names_field(Model model) const;
  // Whether a flight of `model` in `d` dimensions neither takes it nor refuses it for a reason
  // of its own (a variant the model does not fly): a flight's description leaves it out, and
  // its reader refuses it, as the command line refuses the option.
  bool foreign_to(Model model, int d) const;
  // Whether it applies and what it needs is on.
  bool in_effect(const FlockParams& p) const;
  // A number's value in effect: the field, or its derived default when unset.
  double value(const FlockParams& p) const;
  // The model's default of a number.
  double default_of(Model model) const;
  // Whether the row holds its default in `p` (a number unset or at the model's default, a
  // variant off).
  bool at_default(const FlockParams& p) const;
};

// Every row, in the order of --help, JSON and the docs.
const std::vector<ParamSpec>& param_table();

// The row of a JSON key, a flag ("--fov") or a Python keyword; nullptr for none.
const ParamSpec* find_param_by_key(const std::string& key);
const ParamSpec* find_param_by_flag(const std::string& flag);

// A flock of `model`'s defaults: every number at the model's default (the world the model's
// example's, for `count` boids at its density), every variant off.
FlockParams model_defaults(Model model, std::uint64_t count);

// `p` with every row whose need is off at its default: turning the goal off also turns off its
// weight and arrival, which need it.
void reset_unneeded(FlockParams& p);

// The default count of boids of `model`: its example's.
std::uint64_t default_count(Model model);

// The world of `model`'s example: its sides, for its default count.
World example_world(Model model);

// The row's flag under `model`: the name a message gives the value it checks.
const char* flag_of(const std::string& key, Model model);

// For people: the values a row accepts ("a number > 0", "a number in (0, 360]", "one of
// torus, walls"), the models it applies to ("" for all; "boids and steering models"), its
// default ("10; steering 44, vicsek 1", "radius / 2; steering 0.45 radius"; "" for none), and
// the whole of it as --help, Python and the docs say it.
std::string describe_values(const ParamSpec& row);
std::string describe_models(const ParamSpec& row);
std::string describe_default(const ParamSpec& row);
std::string describe(const ParamSpec& row);

}  // namespace boids
