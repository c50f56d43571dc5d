#include "host/tools/flock_command_line.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <tuple>
#include <utility>
#include <vector>

#include "host/base/errors.h"
#include "host/base/message_text.h"

namespace boids::tools {
namespace {

template <typename T>
T parse_choice(const std::string& option, const std::string& text, std::optional<T> parsed,
               const std::string& choices) {
  if (!parsed) throw InputError(option + ": expected one of " + choices + ", got " + quoted(text));
  return *parsed;
}

// The numbers of the comma-separated `text`: `least` to `most` of them, each read by
// read(option, field); `form` says what was expected.
template <typename Read>
std::vector<double> numbers_of(const std::string& option, const std::string& text,
                               std::size_t least, std::size_t most, const std::string& form,
                               Read read) {
  const std::vector<std::string> fields = comma_fields(text);
  if (fields.size() < least || fields.size() > most) {
    throw InputError(option + ": expected " + form + ", got " + quoted(text));
  }
  std::vector<double> numbers;
  for (const std::string& field : fields) numbers.push_back(read(option, field));
  return numbers;
}

// "X,Y" or "X,Y,Z": finite numbers, and how many were given.
std::pair<Vec3, int> parse_vector(const std::string& option, const std::string& text) {
  const std::vector<double> v =
      numbers_of(option, text, 2, 3, "two numbers X,Y (three in three dimensions)", parse_real);
  return {Vec3{v[0], v[1], v.size() == 3 ? v[2] : 0.0}, static_cast<int>(v.size())};
}

// "L" (a square, or a cube), "W,H" or "W,H,D": positive sides, and how many were given.
std::pair<World, int> parse_world(const std::string& text, Boundary boundary) {
  const std::vector<double> sides =
      numbers_of("--world", text, 1, 3, "L, W,H or W,H,D", parse_positive);
  World world{sides[0], sides.size() > 1 ? sides[1] : sides[0], boundary};
  world.depth = sides.size() == 3 ? sides[2] : sides[0];
  return {world, static_cast<int>(sides.size())};
}

}  // namespace

namespace {

// A number of a row, read and held to the row's own bounds (the bounds that depend on other
// parameters and the precision's are the flight's rules', checked once it is resolved).
double parse_number(const ParamSpec& row, const std::string& text) {
  const std::string flag = row.flag;
  if (row.high == HUGE_VAL && row.low == 0) {
    return row.low_open ? parse_positive(flag, text) : parse_non_negative(flag, text);
  }
  const double v = parse_real(flag, text);
  const bool above = row.low_open ? v > row.low : v >= row.low;
  if (!above || !(v <= row.high)) {
    throw InputError(flag + ": expected " + describe_values(row) + ", got " + quoted(text));
  }
  return v;
}

// Sets what option `row` gives in `o`: its value, read by its kind.
void take_value(const ParamSpec& row, const std::string& v, FlockOptions& o) {
  const std::string flag = row.flag, key = row.key;
  std::string choices;
  for (const std::string& c : row.choices) choices += (choices.empty() ? "" : ", ") + c;
  switch (row.kind) {
    case ParamKind::kNumber:
      o.values.*row.number = parse_number(row, v);
      break;
    case ParamKind::kWhole:
      o.values.*row.whole = static_cast<int>(parse_whole(
          flag, v, static_cast<std::uint64_t>(row.low), static_cast<std::uint64_t>(row.high)));
      break;
    case ParamKind::kChoice:
      if (key == "model") o.values.model = parse_choice(flag, v, parse_model(v), choices);
      if (key == "boundary") {
        o.values.world.boundary = parse_choice(flag, v, parse_boundary(v), choices);
      }
      if (key == "update") o.values.update = parse_choice(flag, v, parse_update(v), choices);
      break;
    case ParamKind::kDimensions:
      if (v != "2" && v != "3") throw InputError(flag + ": expected 2 or 3, got " + quoted(v));
      o.values.dimensions = v == "3" ? 3 : 2;
      break;
    case ParamKind::kWorld:
      std::tie(o.values.world, o.world_sides) = parse_world(v, o.values.world.boundary);
      break;
    case ParamKind::kPoint:
      std::tie(o.values.goal, o.goal_values) = parse_vector(flag, v);
      break;
    case ParamKind::kVector:
      std::tie(o.values.wind, o.wind_values) = parse_vector(flag, v);
      break;
    case ParamKind::kRows:
      (key == "path" ? o.path_file : o.obstacle_file) = parse_file_name(flag, v);
      break;
    case ParamKind::kRunNumber:
      if (key == "count") o.count = parse_whole(flag, v, 1, kMaxBoids);
      if (key == "seed") o.seed = parse_whole(flag, v, 0);
      if (key == "density") o.density = parse_positive(flag, v);
      break;
    case ParamKind::kRunChoice:
      if (key == "backend") {
        if (v != "auto") parse_choice(flag, v, parse_backend(v), choices);
        o.backend = v;
      }
      if (key == "method") o.method = parse_choice(flag, v, parse_method(v), choices);
      if (key == "precision") o.precision = parse_choice(flag, v, parse_precision(v), choices);
      break;
    case ParamKind::kRunFile:
      o.init_file = parse_file_name(flag, v);
      break;
  }
  o.named.insert(flag);
}

// Each model's example world, as --world takes it: "100; steering 800,600, vicsek 10".
std::string example_worlds() {
  const auto side = [](double v) {
    char text[32];
    std::snprintf(text, sizeof text, "%g", v);
    return std::string(text);
  };
  std::string text;
  for (const ModelSpec& m : model_registry()) {
    const std::string world = m.example_width == m.example_height
                                  ? side(m.example_width)
                                  : side(m.example_width) + "," + side(m.example_height);
    text += text.empty() ? world
                         : (text.find(';') == std::string::npos ? "; " : ", ") +
                               std::string(m.name) + " " + world;
  }
  return text;
}

// --help's line for a row: what it means, its values, the models and its default; lengths say
// their range once, at --world.
std::string help_of(const ParamSpec& row) {
  std::string help = describe(row);
  if (row.kind == ParamKind::kWorld) {
    help +=
        "; lengths, numbers with their nonzero magnitudes in [1e-60, 1e60] ([1e-9, 1e9] "
        "under --precision float), as every length, speed, wind, goal and obstacle "
        "(default " +
        example_worlds() + ")";
  }
  return help;
}

}  // namespace

void add_flock_options(OptionParser& parser, FlockOptions& o) {
  const char* headings[] = {"The model", "The world", "Variants, each off by default", "The start",
                            "Where it flies"};
  int section = -1;
  for (const ParamSpec& row : param_table()) {
    if (static_cast<int>(row.section) != section) {
      section = static_cast<int>(row.section);
      parser.add_heading(headings[section]);
    }
    parser.add_value(row.flag, row.value_name, help_of(row),
                     [&row, &o](const std::string& v) { take_value(row, v, o); });
  }
}

void refuse_flock_options(const std::vector<std::string>& given, const std::string& option,
                          const std::string& why) {
  FlockOptions unused;
  OptionParser flock_options("");
  add_flock_options(flock_options, unused);
  const std::vector<std::string> names = flock_options.names();
  for (const std::string& name : given) {
    if (std::find(names.begin(), names.end(), name) != names.end()) {
      throw InputError(name + " cannot be given with " + option + ": " + why);
    }
  }
}

}  // namespace boids::tools
