#include "host/io/npy_file.h"

#include <cstring>
#include <limits>
#include <optional>

#include "host/base/errors.h"
#include "host/base/message_text.h"

namespace boids {
namespace {

constexpr char kMagic[] = "\x93NUMPY";
constexpr std::size_t kMagicBytes = 6;

class Refusal {
 public:
  Refusal(const std::string& kind, const std::string& name)
      : prefix_(kind + " " + quoted_path(name) + ": ") {}
  [[noreturn]] void fail(const std::string& message) const { throw InputError(prefix_ + message); }

 private:
  std::string prefix_;
};

// A header value: a string, a bool, a tuple of whole numbers, or something else (kept as
// text for the message).
struct Value {
  enum Kind { kString, kBool, kTuple, kOther } kind = kOther;
  std::string text;
  bool flag = false;
  std::vector<std::uint64_t> numbers;
};

// The subset of Python literals that .npy headers use: {'key': value, ...}.
class HeaderParser {
 public:
  HeaderParser(const std::string& text, const Refusal& refusal) : s_(text), refusal_(refusal) {}

  template <typename OnEntry>
  void parse_dict(OnEntry&& on_entry) {
    expect('{');
    for (;;) {
      skip_space();
      if (peek() == '}') break;
      const Value key = parse_value();
      if (key.kind != Value::kString) fail("a key that is not a string");
      expect(':');
      on_entry(key.text, parse_value());
      skip_space();
      if (peek() == ',') {
        ++i_;
        continue;
      }
      if (peek() != '}') fail("neither ',' nor '}' after the value of '" + key.text + "'");
    }
    ++i_;
    skip_space();
    if (i_ != s_.size()) fail("text after the closing '}'");
  }

 private:
  char peek() const { return i_ < s_.size() ? s_[i_] : '\0'; }
  void skip_space() {
    while (i_ < s_.size() && (s_[i_] == ' ' || s_[i_] == '\t' || s_[i_] == '\n' || s_[i_] == '\r'))
      ++i_;
  }
  [[noreturn]] void fail(const std::string& what) const {
    refusal_.fail("the .npy header is not a dict of descr, fortran_order and shape (" + what +
                  "): " + quoted(s_));
  }
  void expect(char c) {
    skip_space();
    if (peek() != c) fail(std::string("expected '") + c + "'");
    ++i_;
  }

  Value parse_value() {
    skip_space();
    Value v;
    const char c = peek();
    if (c == '\'' || c == '"') {
      const std::size_t end = s_.find(c, i_ + 1);
      if (end == std::string::npos) fail("an unterminated string");
      v.kind = Value::kString;
      v.text = s_.substr(i_ + 1, end - i_ - 1);
      i_ = end + 1;
    } else if (s_.compare(i_, 4, "True") == 0 || s_.compare(i_, 5, "False") == 0) {
      v.kind = Value::kBool;
      v.flag = c == 'T';
      i_ += v.flag ? 4 : 5;
    } else if (c == '(') {
      parse_tuple(v);
    } else {
      // Anything else (a list, a number, a name) runs to the next ',' or '}' at this level.
      const std::size_t start = i_;
      int depth = 0;
      for (; i_ < s_.size(); ++i_) {
        const char d = s_[i_];
        if (depth == 0 && (d == ',' || d == '}')) break;
        if (d == '(' || d == '[' || d == '{') ++depth;
        if (d == ')' || d == ']' || d == '}') --depth;
      }
      v.text = s_.substr(start, i_ - start);
    }
    return v;
  }

  // (a, b, ...) of whole numbers, a trailing comma allowed; an old file's 10L too.
  void parse_tuple(Value& v) {
    v.kind = Value::kTuple;
    ++i_;
    for (;;) {
      skip_space();
      if (peek() == ')') break;
      if (peek() < '0' || peek() > '9') fail("a shape that is not a tuple of whole numbers");
      std::uint64_t n = 0;
      for (; peek() >= '0' && peek() <= '9'; ++i_) {
        const auto digit = static_cast<std::uint64_t>(peek() - '0');
        if (n > (std::numeric_limits<std::uint64_t>::max() - digit) / 10) {
          fail("a dimension too large for 64 bits");
        }
        n = n * 10 + digit;
      }
      if (peek() == 'L') ++i_;
      v.numbers.push_back(n);
      skip_space();
      if (peek() == ',') {
        ++i_;
      } else if (peek() != ')') {
        fail("expected ',' or ')' in the shape");
      }
    }
    ++i_;
  }

  const std::string& s_;
  const Refusal& refusal_;
  std::size_t i_ = 0;
};

// What a dtype such as '<f4' or '>i8' is, in words.
std::string describe_dtype(const std::string& descr) {
  if (descr.size() < 2) return "an unknown type";
  const bool has_order = descr[0] == '<' || descr[0] == '>' || descr[0] == '|' || descr[0] == '=';
  const char kind = descr[has_order ? 1 : 0];
  const std::string size = descr.substr(has_order ? 2 : 1);
  const char* const names[][2] = {{"f", "float"},   {"i", "int"},    {"u", "uint"},
                                  {"c", "complex"}, {"b", "bool"},   {"U", "str"},
                                  {"S", "bytes"},   {"O", "object"}, {"M", "datetime"}};
  std::string word = "an unknown type";
  for (const auto& pair : names) {
    if (kind == pair[0][0]) word = pair[1];
  }
  const bool numeric = kind == 'f' || kind == 'i' || kind == 'u' || kind == 'c';
  if (numeric && !size.empty() && size.find_first_not_of("0123456789") == std::string::npos &&
      size.size() < 4) {
    word += std::to_string(std::stoi(size) * 8);
  }
  if (descr[0] == '>') word = "big-endian " + word;
  return word;
}

void check_dtype(const Value& descr, const Refusal& refusal) {
  const std::string wanted = "boids reads float64, little-endian ('<f8')";
  if (descr.kind != Value::kString) {
    refusal.fail("its dtype " + quoted(descr.text) + " is not a plain number type; " + wanted);
  }
  if (descr.text != "<f8") {
    refusal.fail("its dtype is " + quoted(descr.text) + " (" + describe_dtype(descr.text) + "); " +
                 wanted);
  }
}

// The header dict's three keys, each once.
NpyMatrix parse_header_dict(const std::string& text, const Refusal& refusal) {
  std::optional<Value> descr, fortran, shape;
  HeaderParser(text, refusal).parse_dict([&](const std::string& key, const Value& value) {
    std::optional<Value>* slot = key == "descr"           ? &descr
                                 : key == "fortran_order" ? &fortran
                                 : key == "shape"         ? &shape
                                                          : nullptr;
    if (!slot) refusal.fail("the .npy header has an unknown key " + quoted(key));
    if (slot->has_value()) refusal.fail("the .npy header gives " + quoted(key) + " twice");
    *slot = value;
  });
  if (!descr || !fortran || !shape) {
    refusal.fail("the .npy header lacks " + std::string(!descr     ? "'descr'"
                                                        : !fortran ? "'fortran_order'"
                                                                   : "'shape'"));
  }
  check_dtype(*descr, refusal);
  if (fortran->kind != Value::kBool) refusal.fail("its fortran_order is neither True nor False");
  if (shape->kind != Value::kTuple) refusal.fail("its shape is not a tuple");
  if (shape->numbers.size() != 2) {
    std::string dims;
    for (const std::uint64_t n : shape->numbers)
      dims += (dims.empty() ? "" : ", ") + std::to_string(n);
    if (shape->numbers.size() == 1) dims += ",";
    refusal.fail("its shape (" + dims + ") has " + std::to_string(shape->numbers.size()) +
                 " dimensions, not 2");
  }
  NpyMatrix m;
  m.rows = shape->numbers[0];
  m.columns = shape->numbers[1];
  m.fortran_order = fortran->flag;
  return m;
}

std::uint32_t read_le(const std::string& bytes, std::size_t at, std::size_t count) {
  std::uint32_t value = 0;
  for (std::size_t k = 0; k < count; ++k)
    value |= static_cast<std::uint32_t>(static_cast<unsigned char>(bytes[at + k])) << (8 * k);
  return value;
}

constexpr bool kLittleEndian = __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__;

std::uint64_t swap_if_big(std::uint64_t bits) {
  return kLittleEndian ? bits : __builtin_bswap64(bits);
}

}  // namespace

bool has_npy_magic(const std::string& bytes) {
  return bytes.compare(0, kMagicBytes, kMagic) == 0;
}

NpyMatrix parse_npy_header(const std::string& bytes, const std::string& kind,
                           const std::string& name) {
  const Refusal refusal(kind, name);
  if (!has_npy_magic(bytes)) {
    refusal.fail("not a NumPy .npy file (it does not start with \\x93NUMPY but with " +
                 quoted(bytes.substr(0, 8)) + ")");
  }
  if (bytes.size() < kMagicBytes + 4) refusal.fail("truncated in the .npy header");
  const int major = static_cast<unsigned char>(bytes[6]);
  const int minor = static_cast<unsigned char>(bytes[7]);
  if (minor != 0 || major < 1 || major > 3) {
    refusal.fail(".npy format version " + std::to_string(major) + "." + std::to_string(minor) +
                 " is not supported (1.0, 2.0 or 3.0)");
  }
  const std::size_t length_bytes = major == 1 ? 2 : 4;
  if (bytes.size() < kMagicBytes + 2 + length_bytes) refusal.fail("truncated in the .npy header");
  const std::size_t header_length = read_le(bytes, 8, length_bytes);
  const std::size_t start = kMagicBytes + 2 + length_bytes;
  if (header_length > kMaxNpyHeader) {
    refusal.fail("its .npy header of " + std::to_string(header_length) +
                 " bytes is longer than a matrix's needs (at most " +
                 std::to_string(kMaxNpyHeader) + ")");
  }
  if (bytes.size() < start + header_length) {
    refusal.fail("truncated in the .npy header (" + std::to_string(header_length) +
                 " bytes announced, " + std::to_string(bytes.size() - start) + " present)");
  }
  NpyMatrix m = parse_header_dict(bytes.substr(start, header_length), refusal);
  m.data_offset = start + header_length;
  return m;
}

void check_npy_size(const NpyMatrix& m, std::uint64_t size, const std::string& kind,
                    const std::string& name) {
  const Refusal refusal(kind, name);
  const std::uint64_t most = (std::numeric_limits<std::uint64_t>::max() - m.data_offset) / 8;
  if (m.columns != 0 && m.rows > most / m.columns) {
    refusal.fail("its shape (" + std::to_string(m.rows) + ", " + std::to_string(m.columns) +
                 ") is larger than any file");
  }
  const std::uint64_t expected = m.data_offset + m.rows * m.columns * 8;
  const std::string announced = "its shape (" + std::to_string(m.rows) + ", " +
                                std::to_string(m.columns) + ") needs " + std::to_string(expected) +
                                " bytes";
  if (size < expected)
    refusal.fail("truncated: " + announced + ", the file has " + std::to_string(size));
  if (size > expected) {
    refusal.fail(std::to_string(size - expected) + " bytes follow the numbers (" + announced +
                 ", the file has " + std::to_string(size) + ")");
  }
}

double npy_value(const std::string& bytes, const NpyMatrix& m, std::uint64_t row,
                 std::uint64_t column) {
  const std::uint64_t index = m.fortran_order ? column * m.rows + row : row * m.columns + column;
  std::uint64_t bits;
  std::memcpy(&bits, bytes.data() + m.data_offset + index * 8, 8);
  bits = swap_if_big(bits);
  double value;
  std::memcpy(&value, &bits, 8);
  return value;
}

std::string npy_header(std::uint64_t rows, std::size_t columns) {
  std::string header = "{'descr': '<f8', 'fortran_order': False, 'shape': (" +
                       std::to_string(rows) + ", " + std::to_string(columns) + "), }";
  // numpy pads the header with spaces and a newline so that the numbers start at a multiple
  // of 64 bytes.
  const std::size_t start = kMagicBytes + 4;
  header.resize((start + header.size() + 1 + 63) / 64 * 64 - start - 1, ' ');
  header += '\n';
  std::string out(kMagic, kMagicBytes);
  out += '\x01';
  out += '\x00';
  out += static_cast<char>(header.size() & 0xFF);
  out += static_cast<char>(header.size() >> 8);
  out += header;
  return out;
}

std::uint64_t little_endian_bits(double value) {
  std::uint64_t bits;
  std::memcpy(&bits, &value, 8);
  return swap_if_big(bits);
}

}  // namespace boids
