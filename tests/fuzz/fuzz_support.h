// What every harness checks beyond "no crash": a refusal is an InputError whose message is one
// line of printable text (what a user's terminal shows), however hostile the input.
#pragma once

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>

#include "host/model/flock.h"

namespace boids::fuzz {

inline void check_message(const std::string& message, std::size_t max_length) {
  for (const char c : message) {
    const auto byte = static_cast<unsigned char>(c);
    if (byte < 0x20 || byte == 0x7F) {
      std::fprintf(stderr, "control byte 0x%02X in the message: %s\n", byte, message.c_str());
      std::abort();
    }
  }
  if (message.size() > max_length) {
    std::fprintf(stderr, "a message of %zu bytes: %s\n", message.size(), message.c_str());
    std::abort();
  }
}

inline std::uint64_t bits(double v) {
  std::uint64_t b;
  std::memcpy(&b, &v, sizeof b);
  return b;
}

// Aborts unless `a` and `b` hold the same boids, bit for bit.
inline void check_same(const FlockState& a, const FlockState& b, const char* what) {
  bool same = a.size() == b.size();
  for (std::size_t i = 0; same && i < a.size(); ++i) {
    same = bits(a.x[i]) == bits(b.x[i]) && bits(a.y[i]) == bits(b.y[i]) &&
           bits(a.vx[i]) == bits(b.vx[i]) && bits(a.vy[i]) == bits(b.vy[i]);
  }
  if (!same) {
    std::fprintf(stderr, "%s does not give back the state it read\n", what);
    std::abort();
  }
}

}  // namespace boids::fuzz
