// Output files are written whole or not at all: the text goes to a temporary file beside the
// destination, which replaces the destination only once it is complete.
#pragma once

#include <string>

namespace boids {

// Replaces `path` with `contents` atomically; throws RuntimeError naming the file on failure,
// leaving any existing file untouched.
void write_file_atomically(const std::string& path, const std::string& contents);

// Fails early, before any work is done, when `path` cannot be written (missing directory, a
// directory by that name, no permission). Creates nothing.
void check_writable(const std::string& path, const std::string& what);

}  // namespace boids
