// What a page may send to `boids serve`, and the parser that admits nothing else. A message is
// one JSON object of at most kMaxMessageBytes in a WebSocket text frame, with a "type" and that
// type's fields, each of its kind and range; anything else (another type, a missing, unknown or
// mistyped field, a number out of range, a binary frame) is refused, and the server then closes
// that connection (host/serve/server.h).
//
//   {"type": "next", "max_boids": N[, "colour": "heading" | "speed" | "neighbors" | "flock"]
//    [, "picture": {"width": W, "height": H, "center": [X, Y, Z], "zoom": Z, "yaw": A,
//                   "pitch": B, "distance": D}]}
//                                            the next frame, once the page is ready for it:
//                                            its points, or the whole flock as a picture of
//                                            the page's view (host/serve/flock_image.h)
//   {"type": "set", "name": C, "value": V}  a control (host/core/controls.h)
//   {"type": "pause", "on": B}   {"type": "step"}   {"type": "reset"}
//   {"type": "model", "model": M}   a new flock of model M, a name of the registry
//                                   (host/model/models.h)
//   {"type": "rate", "steps_per_second": R}  0 for as fast as the flock steps
//   {"type": "goal", "on": B, "x": X, "y": Y[, "z": Z]}
//   {"type": "predator", "on": B, "x": X, "y": Y, "radius": R}   the pointer as a predator
//   {"type": "seek", "frame": K}             a replay's frame
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "host/model/flock.h"
#include "host/serve/flock_image.h"
#include "host/serve/frame.h"

namespace boids::serve {

inline constexpr std::size_t kMaxMessageBytes = 4096;
inline constexpr double kMaxStepsPerSecond = 1e6;
// The slowest rate that can be timed (a step every 1,000 s); 0 is as fast as the flock steps.
inline constexpr double kMinStepsPerSecond = 1e-3;

// `rate`, checked: 0, or in [kMinStepsPerSecond, kMaxStepsPerSecond]; InputError naming
// `what` ("--rate") otherwise.
double checked_rate(const std::string& what, double rate);

struct ClientMessage {
  enum class Type { kNext, kSet, kPause, kStep, kReset, kModel, kRate, kGoal, kPredator, kSeek };
  Type type = Type::kNext;
  std::uint64_t count = 0;  // next: max_boids (>= 1); seek: the frame
  std::string name;         // set
  double value = 0;         // set: the value; rate: steps a second; predator: the radius
  bool on = false;          // pause, goal, predator
  Vec3 at;                  // goal, predator
  Model model = Model::kBoids;
  Colouring colouring = Colouring::kHeading;  // next
  std::optional<ImageView> picture;           // next: a picture instead of points
};

// Throws InputError saying what is wrong (one line) unless `text` is a message of the protocol.
ClientMessage parse_client_message(std::string_view text);

// A refusal in the page's words: each option of the table named as the page's control is
// (`--goal` as `goal`, `--max-speed` as `max-speed`); other words as they are.
std::string in_page_words(const std::string& message);

}  // namespace boids::serve
