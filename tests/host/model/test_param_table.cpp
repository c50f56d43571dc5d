// The table of parameters (host/model/param_table.h) and what every front end reads of it:
// each row well formed, each option registered, resolved and refused by it, each value written
// and read back by the one writer of a flight's parameters, each control within the values the
// flight accepts, and docs/models.md's table the table itself.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <fstream>
#include <set>
#include <sstream>
#include <string>

#include "host/backends/model_types.h"
#include "host/base/errors.h"
#include "host/config/flock_options.h"
#include "host/core/controls.h"
#include "host/core/flight_rules.h"
#include "host/io/flight_params.h"
#include "host/model/param_rows.h"
#include "host/model/param_table.h"
#include "host/model/variants.h"
#include "host/tools/flock_command_line.h"
#include "tests/support/cli_fixture.h"

namespace boids {
namespace {

// with_model finds a kernels' model by its place in the registry: both lists name the same
// models in the same order.
TEST(ModelRegistry, TheKernelsListItsModelsInItsOrder) {
  ASSERT_EQ(static_cast<std::size_t>(kernels::AllModels::kCount), model_registry().size());
  for (const ModelSpec& spec : model_registry()) {
    std::string kernels_name;
    with_model(spec.id, [&](auto model) { kernels_name = decltype(model)::kName; });
    EXPECT_EQ(kernels_name, spec.name);
  }
}

// The models' variants in the catalogue by their places, which key their validation flocks'
// seeds (11, 12, ...): the order they have flown in since each was added, the newest last.
TEST(ModelRegistry, TheVariantsKeepTheirPlaces) {
  const std::string names =
      "seed, fov, separation-radius, noise, walls, obstacles, goal-wind, rectangle, wander, "
      "path-closed, nearest-7-fov, predators-walls-obstacle, all, steering, "
      "steering-walls-fov-noise, steering-goal-arrival, steering-wander-walls, "
      "steering-path-open-walls, steering-predators, vicsek, vicsek-walls-goal, "
      "vicsek-nearest-3-walls, min-speed, steering-min-speed, couzin, couzin-walls-turn, "
      "couzin-no-orientation, open, open-obstacles-goal, steering-open-wander, vicsek-open, "
      "couzin-open";
  EXPECT_EQ(variant_names(), names);
}

// Each world term's entry (host/model/terms/), one for each term of the kernels' list in its
// order: its rows follow the row it names, in its order, and its variants are in the
// catalogue at their places, flying their models with their settings.
TEST(ParamTable, EachTermsRowsFollowTheRowItNamesAndItsVariantsTheirPlaces) {
  std::vector<std::string> names;
  kernels::for_each_term(kernels::AllTerms{}, FlockParams{},
                         [&](const char* name, bool) { names.push_back(name); });
  ASSERT_EQ(host_terms().size(), names.size());
  std::vector<std::string> keys;
  for (const ParamSpec& row : param_table()) keys.push_back(row.key);
  for (const HostTerm& term : host_terms()) {
    SCOPED_TRACE(term.after);
    const auto after = std::find(keys.begin(), keys.end(), std::string(term.after));
    ASSERT_NE(after, keys.end());
    for (std::size_t k = 0; k < term.rows.size(); ++k) {
      ASSERT_LT(after + 1 + static_cast<std::ptrdiff_t>(k), keys.end());
      EXPECT_EQ(*(after + 1 + static_cast<std::ptrdiff_t>(k)), term.rows[k].key);
    }
    for (const TermVariant& v : term.variants) {
      const Variant& listed = variant_catalogue().at(static_cast<std::size_t>(v.variant.place));
      EXPECT_EQ(std::string(listed.name), v.variant.name);
      EXPECT_EQ(listed.model, v.model);
      EXPECT_EQ(listed.apply, v.variant.apply);
    }
  }
  // The table's order, which --help, JSON and the docs keep.
  std::string order;
  for (const std::string& key : keys) order += (order.empty() ? "" : " ") + key;
  EXPECT_EQ(order,
            "model radius separation alignment cohesion max_speed max_speed min_speed dt "
            "repulsion_radius orientation_width attraction_width turn_rate dimensions world "
            "density boundary wall_distance separation_radius fov nearest noise wander goal "
            "goal_weight arrival_radius obstacles path path_radius path_weight predators "
            "predator_speed flee_radius wind update count seed init backend method precision");
}

TEST(ParamTable, EachRowIsNamedOnceAndItsDefaultsAreValuesItAccepts) {
  std::set<std::string> flags, keywords;
  for (const ParamSpec& row : param_table()) {
    SCOPED_TRACE(row.flag);
    EXPECT_TRUE(flags.insert(row.flag).second);
    EXPECT_TRUE(keywords.insert(row.keyword()).second);
    EXPECT_EQ(std::string(row.flag).rfind("--", 0), 0u);
    EXPECT_NE(std::string(row.doc), "");
    if (row.kind != ParamKind::kNumber && row.kind != ParamKind::kWhole) continue;
    for (const Model m : test_support::every_model()) {
      if (!row.applies(m, 2) || row.has_unset) continue;
      const double d = row.default_of(m);
      EXPECT_TRUE(row.low_open ? d > row.low : d >= row.low) << to_string(m);
      EXPECT_LE(d, row.high) << to_string(m);
    }
  }
}

TEST(ParamTable, EveryRowIsAnOptionAndAPythonKeyword) {
  FlockOptions options;
  tools::OptionParser parser("");
  tools::add_flock_options(parser, options);
  std::vector<std::string> names = parser.names();
  ASSERT_EQ(names.size(), param_table().size());
  for (std::size_t k = 0; k < names.size(); ++k) EXPECT_EQ(names[k], param_table()[k].flag);
}

// The defaults are the models' examples', and a flock of them flies the published step.
TEST(ParamTable, ModelDefaultsAreTheExamples) {
  const FlockParams boids = model_defaults(Model::kBoids, 120);
  EXPECT_EQ(boids.radius, 10);
  EXPECT_EQ(boids.world.width, 100);
  EXPECT_TRUE(boids.seed_model());
  const FlockParams steering = model_defaults(Model::kSteering, 220);
  EXPECT_EQ(steering.radius, 44);
  EXPECT_EQ(steering.cohesion, 0.9);
  EXPECT_EQ(steering.max_speed, 110);
  EXPECT_EQ(steering.world.width, 800);
  EXPECT_EQ(steering.world.height, 600);
  const FlockParams vicsek = model_defaults(Model::kVicsek, 400);
  EXPECT_EQ(vicsek.max_speed, 0.03);
  EXPECT_EQ(vicsek.world.width, 10);
  EXPECT_EQ(default_count(Model::kVicsek), 400u);
}

// Each variant of the catalogue, written as a checkpoint writes it and read back: the same
// parameters, described alike, in 2D and 3D.
TEST(ParamTable, EveryVariantIsWrittenAndReadBackWhole) {
  for (const int d : {2, 3}) {
    FlockParams base;
    base.dimensions = d;
    base.world.depth = 100;
    for (const Variant& v : variant_catalogue()) {
      SCOPED_TRACE(std::string(v.name) + " in " + std::to_string(d) + "D");
      const FlockParams p = variant_params(v, base);
      check_flight_params(p, Precision::kDouble);
      const nlohmann::ordered_json written = params_to_json(p, ParamForm::kFlight);
      const FlockParams back =
          params_from_json(nlohmann::json::parse(written.dump()),
                           [](const std::string& why) { throw InputError(why); });
      EXPECT_EQ(params_to_json(back, ParamForm::kFlight), written);
      EXPECT_EQ(params_to_json(back, ParamForm::kReport), params_to_json(p, ParamForm::kReport));
    }
  }
}

// A report says every value in effect, the derived ones as the flight flies them; a flight's
// description leaves out what was not given, and reads back as not given.
TEST(ParamTable, ReportsGiveValuesInEffectAndFlightsWhatWasGiven) {
  FlockParams p;
  p.world.boundary = Boundary::kWalls;
  const nlohmann::ordered_json report = params_to_json(p, ParamForm::kReport);
  EXPECT_EQ(report["separation_radius"], 5.0);
  EXPECT_EQ(report["wall_distance"], 10.0);
  EXPECT_FALSE(report.contains("goal_weight"));  // no goal
  const nlohmann::ordered_json flight = params_to_json(p, ParamForm::kFlight);
  EXPECT_FALSE(flight.contains("separation_radius"));
  EXPECT_FALSE(flight.contains("wander"));
  // A value given equal to its derived default is that default: the same flight.
  nlohmann::json given = nlohmann::json::parse(flight.dump());
  given["separation_radius"] = 5.0;
  const FlockParams back =
      params_from_json(given, [](const std::string& why) { throw InputError(why); });
  EXPECT_EQ(back.separation_radius, 0);
  given["radius"] = "ten";
  EXPECT_THROW(params_from_json(given, [](const std::string& why) { throw InputError(why); }),
               InputError);
}

// Every control's range lies within what the flight accepts, at both ends, for every variant
// of the catalogue under each model: a page or the viewer cannot offer a value it then refuses.
TEST(ParamTable, EveryControlsRangeIsAccepted) {
  for (const int d : {2, 3}) {
    FlockParams base;
    base.dimensions = d;
    for (const Variant& v : variant_catalogue()) {
      const FlockParams p = variant_params(v, base);
      for (const Control& c : controls_of(p)) {
        SCOPED_TRACE(std::string(v.name) + ": " + c.name + " in " + std::to_string(d) + "D");
        EXPECT_LE(c.low, c.high);
        for (const double value : {c.low, c.high, (c.low + c.high) / 2}) {
          const double set = c.whole ? std::floor(value) : value;
          EXPECT_NO_THROW(with_control(p, Precision::kFloat, c.name, set));
        }
      }
    }
  }
}

// Turning off what others need turns them off too: a goal's weight does not lock the goal on.
TEST(ParamTable, WhatANeedGoesOffWith) {
  FlockParams p;
  p.model = Model::kSteering;
  p.has_goal = true;
  p.goal_weight = 3;
  p.arrival_radius = 20;
  p.has_goal = false;
  EXPECT_THROW(check_flight_params(p, Precision::kFloat), InputError);
  reset_unneeded(p);
  EXPECT_NO_THROW(check_flight_params(p, Precision::kFloat));
  EXPECT_EQ(p.goal_weight, 1);
  EXPECT_EQ(p.arrival_radius, 0);
}

// With predators whose speed follows the boids', the fastest v_max offered is one whose
// predators still do not cross the world in a step.
TEST(ParamTable, TheFastestSpeedLeavesRoomForThePredators) {
  FlockParams p;
  p.predators = 3;
  for (const Control& c : controls_of(p)) {
    if (c.name != "max-speed") continue;
    EXPECT_NO_THROW(with_control(p, Precision::kFloat, c.name, c.high));
    EXPECT_LT(c.high, 100 / 1.5);
  }
}

using test_support::CliFixture;
class ParamDocs : public CliFixture {
 protected:
  // docs/models.md holds what `boids params OPTION` prints, between its markers NAME.
  void expect_docs_hold(const std::string& option, const std::string& name) const;
};

void ParamDocs::expect_docs_hold(const std::string& option, const std::string& name) const {
  const auto r = run({"params", option});
  ASSERT_EQ(r.code, 0) << r.err;
  std::ifstream in(std::string(BOIDS_SOURCE_DIR) + "/docs/models.md");
  std::stringstream text;
  text << in.rdbuf();
  const std::string page = text.str(), begin = "<!-- " + name + ": begin -->\n",
                    end = "<!-- " + name + ": end -->";
  const auto from = page.find(begin), to = page.find(end);
  ASSERT_NE(from, std::string::npos);
  ASSERT_NE(to, std::string::npos);
  EXPECT_EQ(page.substr(from + begin.size(), to - from - begin.size()), r.out)
      << "docs/models.md: replace its table with `boids params " << option << "`";
}

TEST_F(ParamDocs, TheModelsPageHoldsTheTable) {
  expect_docs_hold("--markdown", "params");
}

// Its table of models is the registry's.
TEST_F(ParamDocs, TheModelsPageHoldsTheRegistry) {
  expect_docs_hold("--models", "models");
}

}  // namespace
}  // namespace boids
