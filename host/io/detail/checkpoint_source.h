// The insides of a checkpoint's reading (host/io/checkpoint.cpp), shared with its flight's
// description (host/io/checkpoint_flight.cpp): where its bytes come from, and its header's
// values, each checked and named when missing or mistyped.
#pragma once

#include <cstdint>
#include <cstring>
#include <fstream>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "host/base/checksum.h"
#include "host/base/errors.h"
#include "host/base/message_text.h"
#include "host/core/config.h"
#include "host/model/flock.h"

namespace boids::checkpoint_detail {

using json = nlohmann::json;

[[noreturn]] inline void refuse_checkpoint(const std::string& name, const std::string& why) {
  throw InputError("checkpoint " + quoted_path(name) + ": " + why);
}

// Where a checkpoint's bytes come from: a file read in pieces, or a string (the fuzzer's).
class Source {
 public:
  Source(const std::string& name, std::uint64_t size) : name_(name), size_(size) {}
  virtual ~Source() = default;
  // Reads exactly `size` bytes into `out` and adds them to the checksum.
  void read(void* out, std::size_t size) {
    if (size > size_ - offset_) refuse("the file is truncated");
    fill(out, size);
    offset_ += size;
    sum_.add(out, size);
  }
  std::uint64_t remaining() const { return size_ - offset_; }
  std::uint64_t offset() const { return offset_; }
  std::uint64_t checksum() const { return sum_.value(); }
  [[noreturn]] void refuse(const std::string& why) const { refuse_checkpoint(name_, why); }
  const std::string& name() const { return name_; }

 protected:
  virtual void fill(void* out, std::size_t size) = 0;

 private:
  std::string name_;
  std::uint64_t size_, offset_ = 0;
  Checksum sum_;
};

class StringSource final : public Source {
 public:
  StringSource(const std::string& bytes, const std::string& name)
      : Source(name, bytes.size()), bytes_(bytes) {}

 private:
  void fill(void* out, std::size_t size) override {
    std::memcpy(out, bytes_.data() + at_, size);
    at_ += size;
  }
  const std::string& bytes_;
  std::size_t at_ = 0;
};

class FileSource final : public Source {
 public:
  FileSource(std::ifstream& in, const std::string& name, std::uint64_t size)
      : Source(name, size), in_(in) {}

 private:
  void fill(void* out, std::size_t size) override {
    if (!in_.read(static_cast<char*>(out), static_cast<std::streamsize>(size))) {
      throw RuntimeError("cannot read checkpoint " + quoted_path(name()) +
                         " (did it change while it was read?)");
    }
  }
  std::ifstream& in_;
};

template <typename T>
T read_value(Source& source) {
  T value;
  source.read(&value, sizeof value);
  return value;
}

// The header's values, each checked: a missing or mistyped field is named.
class Header {
 public:
  Header(const json& j, Source& source) : j_(j), source_(source) {}

  bool has(const char* key) const { return j_.contains(key); }
  const json& field(const char* key) const {
    if (!j_.contains(key)) source_.refuse("the header has no '" + std::string(key) + "'");
    return j_.at(key);
  }
  double number(const char* key) const {
    const json& v = field(key);
    if (!v.is_number()) source_.refuse("'" + std::string(key) + "' is not a number");
    const double x = v.get<double>();
    if (!std::isfinite(x)) source_.refuse("'" + std::string(key) + "' is not finite");
    return x;
  }
  std::uint64_t whole(const char* key) const {
    const json& v = field(key);
    if (!v.is_number_unsigned()) source_.refuse("'" + std::string(key) + "' is not a count");
    return v.get<std::uint64_t>();
  }
  std::string text(const char* key) const {
    const json& v = field(key);
    if (!v.is_string()) source_.refuse("'" + std::string(key) + "' is not text");
    return v.get<std::string>();
  }
  // Two numbers (x, y), or three (x, y, z) in three dimensions.
  Vec3 pair(const json& v, const char* key, int dimensions = 2) const {
    const auto n = static_cast<std::size_t>(dimensions);
    bool numbers = v.is_array() && v.size() == n;
    for (std::size_t k = 0; numbers && k < n; ++k) numbers = v[k].is_number();
    if (!numbers) {
      source_.refuse("'" + std::string(key) + "' is not " + (n == 3 ? "three" : "two") +
                     " numbers");
    }
    return {v[0].get<double>(), v[1].get<double>(), n == 3 ? v[2].get<double>() : 0.0};
  }
  // One of an enumeration's values, by the name to_string gives it.
  template <typename E>
  E choice(const char* key, std::initializer_list<E> values) const {
    const std::string name = text(key);
    for (E value : values)
      if (to_string(value) == name) return value;
    source_.refuse("'" + std::string(key) + "' is " + quoted(name) + ", not a known value");
  }

 private:
  const json& j_;
  Source& source_;
};

// The flight's parameters from its header's description (checkpoint_flight.cpp).
FlockParams params_of(const Header& h, const json& j, Source& source);

// A flight's predators (FlockParams::predators of them, none without), as the header's
// "predator_state" lists them: rows x, y[, z], vx, vy[, vz], unchecked; and the list.
Particles predators_of(const Header& h, const FlockParams& p, Source& source);
json predator_state_json(const Particles& predators);
// The flight's changes on its way ("history", host/core/config.h): none where the header has
// none; refused unless each is an object with its step (in order, at most the checkpoint's
// `step`) and what changed.
std::vector<FlightChange> history_of(const json& j, std::uint64_t step, Source& source);

}  // namespace boids::checkpoint_detail
