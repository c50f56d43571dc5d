// How the parameter table's rows are written: a row built a property at a time, the sliders'
// ranges that many rows share, and a world term's entry (its rows, where they go in the table,
// and the variants that fly it). The table (param_table.cpp) and each term's entry
// (host/model/terms/) are written with them.
#pragma once

#include <cmath>
#include <utility>
#include <vector>

#include "host/model/param_table.h"

namespace boids {
namespace param_rows {

// What rows are written with: their kinds and sections, and the builder.
using K = ParamKind;
using S = ParamSection;

// A row, built a property at a time (C++17 has no designated initialisers).
class Row {
 public:
  Row(const char* key, const char* flag, const char* value_name, ParamKind kind,
      ParamSection section, const char* doc) {
    s_.key = key;
    s_.flag = flag;
    s_.value_name = value_name;
    s_.kind = kind;
    s_.section = section;
    s_.doc = doc;
  }
  // Why the models that do not take it refuse it (ModelSpec::takes says which take it).
  Row&& refused(const char* refusal) && {
    s_.refusal = refusal;
    return std::move(*this);
  }
  // A variant of Reynolds' rules or a term of the world: every model of those rules takes it.
  Row&& rules_variant() && {
    s_.rules_variant = true;
    return std::move(*this);
  }
  Row&& needs(ParamNeed need) && {
    s_.needs = need;
    return std::move(*this);
  }
  Row&& number(double FlockParams::*field, double common) && {
    s_.number = field;
    s_.common_default = common;
    return std::move(*this);
  }
  Row&& whole(int FlockParams::*field, int low, int high) && {
    s_.whole = field;
    s_.low = low;
    s_.high = high;
    return std::move(*this);
  }
  Row&& default_value(double common) && {
    s_.common_default = common;
    return std::move(*this);
  }
  Row&& model_default(double (*of)(const ModelSpec&)) && {
    s_.model_default = of;
    return std::move(*this);
  }
  // A default that follows from other parameters; `unset` stands for it.
  Row&& derived(double (*of)(const FlockParams&), const char* text, double unset = 0) && {
    s_.derived = of;
    return std::move(*this).off(unset, text);
  }
  // A value that turns it off, or stands for its derived default.
  Row&& off(double unset, const char* text) && {
    s_.has_unset = true;
    s_.default_text = text;
    s_.unset = unset;
    s_.common_default = unset;
    return std::move(*this);
  }
  Row&& range(double low, double high, bool low_open = false) && {
    s_.low = low;
    s_.high = high;
    s_.low_open = low_open;
    return std::move(*this);
  }
  Row&& default_text(const char* text) && {
    s_.default_text = text;
    return std::move(*this);
  }
  Row&& range_text(const char* text) && {
    s_.range_text = text;
    return std::move(*this);
  }
  Row&& positive() && { return std::move(*this).range(0, HUGE_VAL, true); }
  Row&& non_negative() && { return std::move(*this).range(0, HUGE_VAL); }
  Row&& below(RelativeBound bound) && {
    s_.below = bound;
    return std::move(*this);
  }
  Row&& length() && {
    s_.scale = Scale::kLength;
    return std::move(*this);
  }
  Row&& weight() && {
    s_.scale = Scale::kWeight;
    return std::move(*this).non_negative();
  }
  Row&& choices(std::vector<std::string> names) && {
    s_.choices = std::move(names);
    return std::move(*this);
  }
  Row&& control(double (*low)(const FlockParams&), double (*high)(const FlockParams&),
                bool logarithmic = false) && {
    s_.control = {low, high, logarithmic};
    return std::move(*this);
  }
  Row&& sweep() && {
    s_.sweepable = true;
    return std::move(*this);
  }
  operator ParamSpec() && { return std::move(s_); }

 private:
  ParamSpec s_;
};

// The sliders' ranges that rows share, for a flock of these parameters.
double zero(const FlockParams& p);
double five(const FlockParams& p);
double half_side(const FlockParams& p);        // of the smaller side
double side_thousandth(const FlockParams& p);  // of the smaller side
double the_radius(const FlockParams& p);
double radius_hundredth(const FlockParams& p);
double radius_tenth(const FlockParams& p);
// The largest v_max (the Vicsek model's V) under which one step, a boid's and a predator's
// whose speed follows v_max, stays shorter than the world's smaller side (kMoveMargin), the
// other parameters as they are; 0 when none is.
double largest_max_speed(const FlockParams& p);

}  // namespace param_rows

// A variant of a model's flight that flies a world term: the model, and the variant as a
// model's entry writes it (its place in the catalogue keys its seed).
struct TermVariant {
  Model model;
  ModelVariant variant;
};

// A world term's part of the table and of the catalogue of variants: its rows, which go after
// the row of key `after`, and its variants. Each term of kernels' AllTerms has one, written in
// its file of host/model/terms/ as the overload host_term(kernels::NameTerm), which the build
// finds there (param_table.cpp and variants.cpp take every term's).
struct HostTerm {
  const char* after;
  std::vector<ParamSpec> rows;
  std::vector<TermVariant> variants = {};
};

// Every world term's entry, in the order of kernels' AllTerms.
const std::vector<HostTerm>& host_terms();

}  // namespace boids
