// User text echoed back in error messages. Input may hold anything (control characters, bytes
// that are not UTF-8, megabytes on one line), and a message must stay one readable line: such
// bytes are escaped and long text is cut.
#pragma once

#include <cstddef>
#include <string>

namespace boids {

// Fields and option values are shown in at most this many bytes, escapes included.
inline constexpr std::size_t kEchoLimit = 40;

// `text` with control characters as \t, \n, \r or \xNN, and bytes that are not part of valid
// UTF-8 as \xNN; printable text, UTF-8 included, unchanged.
std::string escaped(const std::string& text);

// 'text', escaped; when that takes more than kEchoLimit bytes it is cut there (before an
// escape or a character that would cross it) and the text's length given: 'abc...' (5000
// bytes).
std::string quoted(const std::string& text);

// 'path', escaped but never cut: a file name is only useful whole.
std::string quoted_path(const std::string& path);

// `value` in the fewest digits that read back as the same double (0.3, 2e-8, 1e300, 10),
// for every number a message or a report shows.
std::string number_text(double value);

// Why std::from_chars found the number `text` out of range for a double: "too large" when its
// magnitude overflows, else "too small (underflows to 0)". `text` is a syntactically valid
// decimal number.
std::string out_of_range_reason(const std::string& text);

}  // namespace boids
