#include "host/base/message_text.h"

#include <charconv>
#include <cstdint>

namespace boids {
namespace {

// The length of the valid UTF-8 sequence at text[i], or 0 if there is none. C1 control
// characters (U+0080 to U+009F) count as invalid, so they are escaped too.
std::size_t utf8_length(const std::string& text, std::size_t i) {
  const auto byte = [&](std::size_t k) { return static_cast<unsigned char>(text[k]); };
  const unsigned char lead = byte(i);
  std::size_t length = 0;
  unsigned char low = 0x80, high = 0xBF;  // the range of the second byte
  if (lead >= 0xC2 && lead <= 0xDF) {
    length = 2;
    if (lead == 0xC2) low = 0xA0;  // C1 controls
  } else if (lead >= 0xE0 && lead <= 0xEF) {
    length = 3;
    if (lead == 0xE0) low = 0xA0;   // overlong
    if (lead == 0xED) high = 0x9F;  // surrogates
  } else if (lead >= 0xF0 && lead <= 0xF4) {
    length = 4;
    if (lead == 0xF0) low = 0x90;   // overlong
    if (lead == 0xF4) high = 0x8F;  // beyond U+10FFFF
  } else {
    return 0;
  }
  if (i + length > text.size()) return 0;
  if (byte(i + 1) < low || byte(i + 1) > high) return 0;
  for (std::size_t k = 2; k < length; ++k) {
    if (byte(i + k) < 0x80 || byte(i + k) > 0xBF) return 0;
  }
  return length;
}

void append_hex(std::string& out, unsigned char c) {
  const char* digits = "0123456789ABCDEF";
  out += "\\x";
  out += digits[c >> 4];
  out += digits[c & 15];
}

// Appends text[i], escaped, to `out`: a printable ASCII character, a whole valid UTF-8
// sequence, or an escape. Returns where the next one starts.
std::size_t escape_one(const std::string& text, std::size_t i, std::string& out) {
  const auto c = static_cast<unsigned char>(text[i]);
  if (c >= 0x20 && c < 0x7F) {
    out += text[i];
    return i + 1;
  }
  if (c == '\t' || c == '\n' || c == '\r') {
    out += c == '\t' ? "\\t" : c == '\n' ? "\\n" : "\\r";
    return i + 1;
  }
  if (const std::size_t length = c >= 0x80 ? utf8_length(text, i) : 0; length > 0) {
    out.append(text, i, length);
    return i + length;
  }
  append_hex(out, c);
  return i + 1;
}

}  // namespace

std::string escaped(const std::string& text) {
  std::string out;
  out.reserve(text.size());
  for (std::size_t i = 0; i < text.size();) i = escape_one(text, i, out);
  return out;
}

std::string quoted(const std::string& text) {
  // The limit is on what is shown: 40 stray bytes would take 160 characters escaped.
  std::string out;
  std::size_t i = 0;
  while (i < text.size()) {
    std::string piece;
    const std::size_t next = escape_one(text, i, piece);
    if (out.size() + piece.size() > kEchoLimit) break;
    out += piece;
    i = next;
  }
  if (i == text.size()) return "'" + out + "'";
  return "'" + out + "...' (" + std::to_string(text.size()) + " bytes)";
}

std::string quoted_path(const std::string& path) {
  return "'" + escaped(path) + "'";
}

std::string number_text(double value) {
  char text[32];
  const auto end = std::to_chars(text, text + sizeof text, value).ptr;
  std::string out(text, end);  // shortest round trip: 2e-08, 1e+300
  const auto e = out.find('e');
  if (e != std::string::npos) {  // as people write exponents: 2e-8, 1e300
    std::size_t digit = e + 1;
    if (out[digit] == '+') {
      out.erase(digit, 1);
    } else if (out[digit] == '-') {
      ++digit;
    }
    while (digit + 1 < out.size() && out[digit] == '0') out.erase(digit, 1);
  }
  return out;
}

std::string out_of_range_reason(const std::string& text) {
  // The decimal magnitude of the first significant digit: overflow when it is positive.
  std::size_t i = 0;
  if (i < text.size() && (text[i] == '-' || text[i] == '+')) ++i;
  std::int64_t magnitude = 0;
  bool significant = false, after_point = false;
  for (; i < text.size() && text[i] != 'e' && text[i] != 'E'; ++i) {
    if (text[i] == '.') {
      after_point = true;
    } else if (!significant && text[i] == '0') {
      if (after_point) --magnitude;
    } else if (!significant) {
      significant = true;
      if (after_point) --magnitude;
    } else if (!after_point) {
      ++magnitude;
    }
  }
  std::int64_t exponent = 0;
  bool negative = false;
  if (i < text.size()) {
    ++i;
    if (i < text.size() && (text[i] == '-' || text[i] == '+')) negative = text[i++] == '-';
    for (; i < text.size(); ++i) {
      // Saturates: any exponent past a billion decides alone.
      if (exponent < 1000000000) exponent = exponent * 10 + (text[i] - '0');
    }
  }
  magnitude += negative ? -exponent : exponent;
  return magnitude > 0 ? "too large" : "too small (underflows to 0)";
}

}  // namespace boids
