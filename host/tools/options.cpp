#include "host/tools/options.h"

#include <charconv>
#include <cmath>
#include <cstdlib>
#include <set>

#include "host/base/errors.h"
#include "host/base/message_text.h"

namespace boids::tools {
namespace {

// Whether `text` is digits[.digits](e|E)[+]digits, a number as large ones are written (1e6,
// 2.5E3), read by hand: std::regex recurses once a character and overflows the stack on a long
// argument.
bool written_with_exponent(const std::string& text) {
  std::size_t at = 0;
  const auto digits = [&] {
    const std::size_t from = at;
    while (at < text.size() && text[at] >= '0' && text[at] <= '9') ++at;
    return at > from;
  };
  if (!digits()) return false;
  if (at < text.size() && text[at] == '.') {
    ++at;
    if (!digits()) return false;
  }
  if (at == text.size() || (text[at] != 'e' && text[at] != 'E')) return false;
  ++at;
  if (at < text.size() && text[at] == '+') ++at;
  return digits() && at == text.size();
}

[[noreturn]] void bad_value(const std::string& option, const std::string& text,
                            const std::string& expected) {
  throw InputError(option + ": expected " + expected + ", got " + quoted(text));
}

double parse_finite(const std::string& option, const std::string& text,
                    const std::string& expected) {
  double value = 0;
  const char* last = text.data() + text.size();
  const auto result = std::from_chars(text.data(), last, value);
  if (text.empty() || result.ec == std::errc::invalid_argument || result.ptr != last) {
    bad_value(option, text, expected);
  }
  if (result.ec == std::errc::result_out_of_range) {
    throw InputError(option + ": " + quoted(text) + " is " + out_of_range_reason(text) +
                     "; expected " + expected);
  }
  if (!std::isfinite(value)) bad_value(option, text, expected + " (finite)");
  return value;
}

}  // namespace

std::uint64_t parse_whole(const std::string& option, const std::string& text, std::uint64_t least,
                          std::uint64_t most) {
  const std::string expected =
      "a whole number from " + std::to_string(least) + " to " + std::to_string(most);
  std::uint64_t value = 0;
  if (written_with_exponent(text)) {
    // As large numbers are written too (1e6, 2.5e3), where the number is whole; beyond 2^53 a
    // double no longer holds every whole number, and its digits must be given.
    const double number = std::strtod(text.c_str(), nullptr);
    if (!(number == std::floor(number))) bad_value(option, text, expected);
    if (!(number <= 9007199254740992.0)) {
      bad_value(option, text, expected + " (write a number this large in digits)");
    }
    value = static_cast<std::uint64_t>(number);
  } else {
    // Digits, with a fraction of zeros where one is written (120.0: Python's float of a whole
    // number, as its keywords send it).
    std::string digits = text;
    const std::size_t point = text.find('.');
    if (point != std::string::npos && point > 0 && point + 1 < text.size() &&
        text.find_first_not_of('0', point + 1) == std::string::npos) {
      digits = text.substr(0, point);
    }
    if (digits.empty() || digits.find_first_not_of("0123456789") != std::string::npos) {
      bad_value(option, text, expected);
    }
    const auto result = std::from_chars(digits.data(), digits.data() + digits.size(), value);
    if (result.ec == std::errc::result_out_of_range)
      bad_value(option, text, expected + " (too large)");
  }
  if (value < least || value > most) bad_value(option, text, expected);
  return value;
}

double parse_real(const std::string& option, const std::string& text) {
  return parse_finite(option, text, "a number");
}

double parse_positive(const std::string& option, const std::string& text) {
  const double value = parse_finite(option, text, "a number > 0");
  if (!(value > 0)) bad_value(option, text, "a number > 0");
  return value;
}

double parse_non_negative(const std::string& option, const std::string& text) {
  const double value = parse_finite(option, text, "a number >= 0");
  if (!(value >= 0)) bad_value(option, text, "a number >= 0");
  return value;
}

void OptionParser::add_value(const std::string& name, const std::string& value_name,
                             const std::string& help, std::function<void(const std::string&)> set) {
  options_.push_back({name, value_name, help, std::move(set), nullptr});
}

void OptionParser::add_repeated_value(const std::string& name, const std::string& value_name,
                                      const std::string& help,
                                      std::function<void(const std::string&)> set) {
  options_.push_back({name, value_name, help, std::move(set), nullptr, true});
}

void OptionParser::add_flag(const std::string& name, const std::string& help,
                            std::function<void()> set) {
  options_.push_back({name, "", help, nullptr, std::move(set)});
}

void OptionParser::add_heading(const std::string& text) {
  Option heading;
  heading.name = text;
  heading.heading = true;
  options_.push_back(std::move(heading));
}

const OptionParser::Option* OptionParser::find(const std::string& name) const {
  for (const Option& option : options_) {
    if (!option.heading && option.name == name) return &option;
  }
  return nullptr;
}

std::vector<std::string> OptionParser::parse(const std::vector<std::string>& args,
                                             std::vector<std::string>* operands) const {
  std::set<std::string> seen;
  std::vector<std::string> given;
  for (std::size_t i = 0; i < args.size(); ++i) {
    const std::string& arg = args[i];
    if (operands && arg == "--") {
      operands->insert(operands->end(), args.begin() + static_cast<std::ptrdiff_t>(i) + 1,
                       args.end());
      break;
    }
    if (operands && (arg.rfind("--", 0) != 0)) {
      operands->push_back(arg);
      continue;
    }
    if (arg.rfind("--", 0) != 0 || arg == "--") {
      throw InputError("unexpected argument " + quoted(arg) +
                       " (options start with --; see --help)");
    }
    const auto equals = arg.find('=');
    const std::string name = arg.substr(0, equals);
    const Option* option = find(name);
    if (!option) throw InputError("unknown option " + quoted(name) + " (see --help)");
    if (!seen.insert(name).second && !option->repeatable) {
      throw InputError(name + " is given more than once");
    }
    given.push_back(name);
    if (option->set_flag) {
      if (equals != std::string::npos) throw InputError(name + " takes no value");
      option->set_flag();
      continue;
    }
    if (equals != std::string::npos) {
      option->set_value(arg.substr(equals + 1));
    } else if (i + 1 < args.size()) {
      option->set_value(args[++i]);
    } else {
      throw InputError(name + " needs a value (" + name + " " + option->value_name + ")");
    }
  }
  return given;
}

std::vector<std::string> OptionParser::names() const {
  std::vector<std::string> names;
  for (const Option& option : options_) {
    if (!option.heading) names.push_back(option.name);
  }
  return names;
}

std::string OptionParser::help() const {
  std::string text = usage_ + "\n";
  if (options_.empty() || !options_.front().heading) text += "\nOptions:\n";
  for (const Option& option : options_) {
    if (option.heading) {
      text += "\n" + option.name + ":\n";
      continue;
    }
    std::string left =
        "  " + option.name + (option.value_name.empty() ? "" : " " + option.value_name);
    if (left.size() < 28)
      left.resize(28, ' ');
    else
      left += "\n" + std::string(28, ' ');
    text += left + option.help + "\n";
  }
  if (!epilogue_.empty()) text += "\n" + epilogue_;
  return text;
}

std::vector<std::string> comma_fields(const std::string& text) {
  std::vector<std::string> fields;
  for (std::size_t start = 0;;) {
    const std::size_t comma = text.find(',', start);
    fields.push_back(
        text.substr(start, comma == std::string::npos ? std::string::npos : comma - start));
    if (comma == std::string::npos) return fields;
    start = comma + 1;
  }
}

std::string parse_file_name(const std::string& option, const std::string& text) {
  if (text.empty()) throw InputError(option + ": the file name is empty");
  return text;
}

}  // namespace boids::tools
