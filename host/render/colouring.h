// What a screen colours a flock by: one vocabulary for the viewer (its --colour and panel),
// `boids serve`'s frames and pictures, and the page (host/serve/page/frames.js holds the same
// names in the same order, which a frame's colouring byte indexes). Header-only: no OpenGL.
//   heading    the hue of each boid's heading (every screen)
//   speed      each boid's speed on a scale (the renderer: the flock's own [min speed,
//              max speed]; a page: 0 to the frame's fastest boid, read off its legend)
//   neighbors  each boid's neighbours within the radius, 0 to the most any has (a page)
//   flock      each boid's flock, a hue each (a page)
//   density    the whole flock as a picture of its density (the viewer; a page's pictures)
#pragma once

#include <cstdint>
#include <iterator>
#include <optional>
#include <string_view>

#include "host/model/flock.h"

namespace boids::render {

enum class Colouring : std::uint8_t {
  kHeading = 0,
  kSpeed = 1,
  kNeighbors = 2,
  kFlock = 3,
  kDensity = 4
};
inline constexpr const char* kColourings[] = {"heading", "speed", "neighbors", "flock", "density"};

inline const char* colouring_name(Colouring c) {
  return kColourings[static_cast<std::size_t>(c)];
}

// The colouring named `name` (kColourings), if it is one.
inline std::optional<Colouring> parse_colouring(std::string_view name) {
  for (std::size_t c = 0; c < std::size(kColourings); ++c) {
    if (name == kColourings[c]) return static_cast<Colouring>(c);
  }
  return std::nullopt;
}

// The speeds a flock's speed colour spans: its own [min speed, max speed] (the published clamp,
// [v_max / 2, v_max], by default; a constant-speed model's one speed), so that no speed a boid
// may fly at is off the scale.
struct SpeedSpan {
  double low = 0, high = 1;
};
inline SpeedSpan speed_span(const FlockParams& p) {
  const double high = p.max_speed;
  const double low = spec_of(p.model).constant_speed ? high : p.effective_min_speed();
  return {low, high};
}

}  // namespace boids::render
