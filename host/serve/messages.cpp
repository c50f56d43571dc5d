#include "host/serve/messages.h"

#include <algorithm>
#include <cmath>
#include <initializer_list>
#include <nlohmann/json.hpp>
#include <regex>

#include "host/base/errors.h"
#include "host/base/message_text.h"
#include "host/model/param_table.h"

namespace boids::serve {
namespace {

using json = nlohmann::json;
using Type = ClientMessage::Type;

struct Kind {
  const char* name;
  Type type;
  std::initializer_list<const char*> fields;  // besides "type"; all required but z
};

const Kind kKinds[] = {
    {"next", Type::kNext, {"max_boids"}},
    {"set", Type::kSet, {"name", "value"}},
    {"pause", Type::kPause, {"on"}},
    {"step", Type::kStep, {}},
    {"reset", Type::kReset, {}},
    {"model", Type::kModel, {"model"}},
    {"rate", Type::kRate, {"steps_per_second"}},
    {"goal", Type::kGoal, {"on", "x", "y"}},
    {"predator", Type::kPredator, {"on", "x", "y", "radius"}},
    {"seek", Type::kSeek, {"frame"}},
};

// The largest count a message may carry: a flock's boids, a trajectory's frames.
constexpr double kMaxCount = 9007199254740992.0;  // 2^53: exact in a JavaScript number

const json& field(const json& message, const char* name) {
  const auto found = message.find(name);
  if (found == message.end()) throw InputError(std::string("no \"") + name + "\" field");
  return *found;
}

double number(const json& message, const char* name, double low, double high) {
  const json& value = field(message, name);
  if (!value.is_number()) throw InputError(std::string("\"") + name + "\" is not a number");
  const double v = value.get<double>();
  if (!(v >= low && v <= high)) {
    throw InputError(std::string("\"") + name + "\" is " + number_text(v) + ", not in [" +
                     number_text(low) + ", " + number_text(high) + "]");
  }
  return v;
}

std::uint64_t count(const json& message, const char* name, double low) {
  const double v = number(message, name, low, kMaxCount);
  if (v != std::floor(v)) throw InputError(std::string("\"") + name + "\" is not a whole number");
  return static_cast<std::uint64_t>(v);
}

bool flag(const json& message, const char* name) {
  const json& value = field(message, name);
  if (!value.is_boolean()) throw InputError(std::string("\"") + name + "\" is not true or false");
  return value.get<bool>();
}

std::string text(const json& message, const char* name) {
  const json& value = field(message, name);
  if (!value.is_string()) throw InputError(std::string("\"") + name + "\" is not a string");
  return value.get<std::string>();
}

// A coordinate: finite, within the largest world any precision takes.
double coordinate(const json& message, const char* name) {
  return number(message, name, -1e60, 1e60);
}

const Kind& kind_of(const json& message) {
  const std::string type = text(message, "type");
  for (const Kind& kind : kKinds) {
    if (type == kind.name) {
      for (const auto& [key, value] : message.items()) {
        bool known = key == "type" ||
                     (key == "z" && (kind.type == Type::kGoal || kind.type == Type::kPredator)) ||
                     ((key == "colour" || key == "picture") && kind.type == Type::kNext);
        for (const char* f : kind.fields) known = known || key == f;
        if (!known) throw InputError("a \"" + type + "\" message has no field " + quoted(key));
      }
      return kind;
    }
  }
  throw InputError("unknown message type " + quoted(type));
}

// A page's view for a picture: its size in pixels and its camera (host/serve/flock_image.h).
ImageView picture_view(const json& message) {
  const json& v = field(message, "picture");
  if (!v.is_object()) throw InputError("\"picture\" is not an object");
  for (const auto& [key, value] : v.items()) {
    static const char* const kKeys[] = {"width", "height", "center",   "zoom",
                                        "yaw",   "pitch",  "distance", "span"};
    if (std::find(std::begin(kKeys), std::end(kKeys), key) == std::end(kKeys)) {
      throw InputError("a \"picture\" has no field " + quoted(key));
    }
  }
  ImageView view;
  const auto side = [&](const char* name) {  // checked as a number before it is an int
    const double value = number(v, name, 16, kMaxPictureSide);
    if (value != std::floor(value)) {
      throw InputError(std::string("\"") + name + "\" is not a whole number");
    }
    return static_cast<int>(value);
  };
  view.width = side("width");
  view.height = side("height");
  if (static_cast<double>(view.width) * view.height > kMaxPicturePixels) {
    throw InputError("a picture of " + std::to_string(view.width) + " x " +
                     std::to_string(view.height) + " pixels (at most " +
                     std::to_string(kMaxPicturePixels) + ")");
  }
  const auto three = [&](const char* name, double least, double(&to)[3]) {
    const json& values = field(v, name);
    bool numbers = values.is_array() && values.size() == 3;
    for (std::size_t a = 0; numbers && a < 3; ++a) numbers = values[a].is_number();
    if (!numbers) throw InputError(std::string("\"") + name + "\" is not three numbers");
    for (std::size_t a = 0; a < 3; ++a) {
      const double c = values[a].get<double>();
      if (!(c >= least && std::abs(c) <= 1e60)) {
        throw InputError(std::string("\"") + name + "\" is out of range");
      }
      to[a] = c;
    }
  };
  three("center", -1e60, view.center);
  // The sides the page's camera fits (its world's, or in open space its flock's): a picture
  // drawn as the page draws its points.
  if (v.contains("span")) {
    three("span", 0, view.span);
    if (!(view.span[0] > 0 && view.span[1] > 0)) {
      throw InputError("\"span\" needs a width and a height above 0");
    }
  }
  view.zoom = number(v, "zoom", 1e-9, 1e9);
  view.yaw = number(v, "yaw", -1e6, 1e6);
  view.pitch = number(v, "pitch", -1.6, 1.6);
  view.distance = number(v, "distance", 1e-3, 1e3);
  return view;
}

}  // namespace

double checked_rate(const std::string& what, double rate) {
  if (rate != 0 && !(rate >= kMinStepsPerSecond && rate <= kMaxStepsPerSecond)) {
    throw InputError(what + ": " + number_text(rate) + " steps a second cannot be timed (0 for " +
                     "as fast as the flock steps, else " + number_text(kMinStepsPerSecond) +
                     " to " + number_text(kMaxStepsPerSecond) + ")");
  }
  return rate;
}

ClientMessage parse_client_message(std::string_view bytes) {
  if (bytes.size() > kMaxMessageBytes) {
    throw InputError("a message of " + std::to_string(bytes.size()) + " bytes (at most " +
                     std::to_string(kMaxMessageBytes) + ")");
  }
  const json message = json::parse(bytes.begin(), bytes.end(), nullptr, false);
  if (message.is_discarded()) {
    // JSON whose number no double holds (1e400) is JSON: say what is wrong with it.
    try {
      const json again = json::parse(bytes.begin(), bytes.end());
      static_cast<void>(again);
    } catch (const json::out_of_range&) {
      throw InputError("a message with a number out of range (a double holds up to 1.8e308)");
    } catch (const json::exception&) {
    }
    throw InputError("a message that is not JSON");
  }
  if (!message.is_object()) throw InputError("a message that is not a JSON object");
  const Kind& kind = kind_of(message);
  ClientMessage m;
  m.type = kind.type;
  switch (kind.type) {
    case Type::kNext:
      m.count = count(message, "max_boids", 1);
      if (message.contains("colour")) {
        const std::optional<Colouring> c = render::parse_colouring(text(message, "colour"));
        if (!c) throw InputError("unknown colouring " + quoted(text(message, "colour")));
        if (static_cast<std::size_t>(*c) >= kFrameColourings) {
          throw InputError("colouring " + quoted(text(message, "colour")) +
                           " is a picture's: ask for a picture");
        }
        m.colouring = *c;
      }
      if (message.contains("picture")) m.picture = picture_view(message);
      break;
    case Type::kSet:
      m.name = text(message, "name");
      m.value = number(message, "value", -1e60, 1e60);
      break;
    case Type::kPause:
      m.on = flag(message, "on");
      break;
    case Type::kStep:
    case Type::kReset:
      break;
    case Type::kModel: {
      const std::optional<Model> model = parse_model(text(message, "model"));
      if (!model) throw InputError("unknown model " + quoted(text(message, "model")));
      m.model = *model;
      break;
    }
    case Type::kRate:
      m.value = checked_rate("\"steps_per_second\"",
                             number(message, "steps_per_second", 0, kMaxStepsPerSecond));
      break;
    case Type::kGoal:
    case Type::kPredator:
      m.on = flag(message, "on");
      m.at = {coordinate(message, "x"), coordinate(message, "y"),
              message.contains("z") ? coordinate(message, "z") : 0.0};
      if (kind.type == Type::kPredator) m.value = number(message, "radius", 0, 1e60);
      break;
    case Type::kSeek:
      m.count = count(message, "frame", 0);
      break;
  }
  return m;
}

std::string in_page_words(const std::string& message) {
  static const std::regex flag("--([a-z][a-z0-9-]*)");
  std::string out;
  auto from = message.cbegin();
  for (std::sregex_iterator m(message.begin(), message.end(), flag), end; m != end; ++m) {
    out.append(from, (*m)[0].first);
    const bool control = find_param_by_flag("--" + (*m)[1].str()) != nullptr;
    out += control ? (*m)[1].str() : (*m)[0].str();
    from = (*m)[0].second;
  }
  out.append(from, message.cend());
  return out;
}

}  // namespace boids::serve
