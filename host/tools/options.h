// Strict command-line parsing: every option is known, every value is checked, and every
// failure is an InputError that names the option and what was wrong with its value.
#pragma once

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

namespace boids::tools {

// Whole numbers within [least, most], the one rule of every front end (the command line, Python's
// keywords, which send their numbers as this text, and the page's controls): a whole value,
// written in digits (no sign, no spaces), with a fraction of zeros (120.0), or with an exponent
// (1e6, 2.5e3) up to 2^53; -0 and 3.5 are refused.
std::uint64_t parse_whole(const std::string& option, const std::string& text, std::uint64_t least,
                          std::uint64_t most = UINT64_MAX);

// Finite real numbers, the whole text a number; any, `> 0` or `>= 0` as asked.
double parse_real(const std::string& option, const std::string& text);
double parse_positive(const std::string& option, const std::string& text);
double parse_non_negative(const std::string& option, const std::string& text);

// The comma-separated fields of `text`, empty ones included ("a,,b" has three, "" one): the
// one way every list option (--world, --goal, bench's --counts, a sweep's values) is cut, each
// refusing what it must of the fields with its own message.
std::vector<std::string> comma_fields(const std::string& text);

// A file name: not empty. Whether it can be read or written is checked where it is used.
std::string parse_file_name(const std::string& option, const std::string& text);

class OptionParser {
 public:
  explicit OptionParser(std::string usage) : usage_(std::move(usage)) {}

  void add_value(const std::string& name, const std::string& value_name, const std::string& help,
                 std::function<void(const std::string&)> set);
  void add_flag(const std::string& name, const std::string& help, std::function<void()> set);
  // A heading in --help above the options added after it ("The world").
  void add_heading(const std::string& text);
  // Lines --help ends with (a few examples).
  void add_epilogue(const std::string& text) { epilogue_ += text; }
  // A value option that may be given more than once; `set` takes each value in order.
  void add_repeated_value(const std::string& name, const std::string& value_name,
                          const std::string& help, std::function<void(const std::string&)> set);

  // Parses `--name value`, `--name=value` and `--flag`. Throws InputError for an unknown
  // option, a missing value, an option given twice (unless repeatable), a positional argument
  // (unless `operands` takes them, in order; after `--` every argument is one), or a bad value.
  // Returns the names of the options given, in order.
  std::vector<std::string> parse(const std::vector<std::string>& args,
                                 std::vector<std::string>* operands = nullptr) const;

  // Every option's name, in the order they were added.
  std::vector<std::string> names() const;

  std::string help() const;

 private:
  struct Option {
    std::string name, value_name, help;
    std::function<void(const std::string&)> set_value;
    std::function<void()> set_flag;
    bool repeatable = false;
    bool heading = false;  // a heading's text is its name
  };
  const Option* find(const std::string& name) const;

  std::string usage_, epilogue_;
  std::vector<Option> options_;
};

}  // namespace boids::tools
