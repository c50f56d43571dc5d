// A 64-bit checksum over a byte stream, eight bytes at a time: each word is mixed in by an
// invertible step, so that any change to one word changes the sum. The same on every machine
// and build: checkpoints carry it, and a sweep's CSV file keys its rows' flights with it.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>

namespace boids {

class Checksum {
 public:
  void add(const void* data, std::size_t size) {
    const auto* bytes = static_cast<const unsigned char*>(data);
    for (std::size_t i = 0; i < size; ++i) {
      word_ |= std::uint64_t{bytes[i]} << (8 * filled_);
      if (++filled_ == 8) mix();
    }
  }
  void add(const std::string& text) { add(text.data(), text.size()); }

  std::uint64_t value() const {
    Checksum last = *this;
    last.word_ ^= std::uint64_t{last.filled_} << 56;
    last.mix();
    return last.hash_ ^ (last.hash_ >> 31);
  }

 private:
  void mix() {
    hash_ = (hash_ ^ word_) * 0x9E3779B97F4A7C15ULL;
    hash_ = (hash_ << 31) | (hash_ >> 33);
    word_ = 0;
    filled_ = 0;
  }
  std::uint64_t hash_ = 0x243F6A8885A308D3ULL, word_ = 0;
  unsigned filled_ = 0;
};

}  // namespace boids
