// How much memory a flock may take, and the check made before anything is allocated.
#pragma once

#include <cstdint>
#include <string>
#include <utility>

namespace boids {

// Host memory a new allocation can have: MemAvailable of /proc/meminfo (what the kernel could
// hand out without swapping), else the free physical pages; and no more than the process's
// address-space limit (`ulimit -v`, RLIMIT_AS) leaves beside what it has mapped already.
std::uint64_t available_host_memory();

// Who holds that memory, for messages: "this machine", or "the process under its
// address-space limit (ulimit -v)" where the limit leaves less than the machine has.
std::string host_memory_holder();

// The process's address-space limit in bytes; UINT64_MAX when it has none.
std::uint64_t address_space_limit();

// What a failed allocation (std::bad_alloc) is reported as: kOutOfMemory, and the
// address-space limit that refused it where the process has one.
std::string out_of_memory_message();

// Throws RuntimeError, before any allocation, when `needed` bytes exceed `available`:
// "<what> needs N MiB of <memory>; <where> has M MiB free".
void check_memory_fits(std::uint64_t needed, std::uint64_t available, const std::string& what,
                       const std::string& memory, const std::string& where);

// Gives a container's memory back: `list = {}` assigns it an empty list and keeps its
// capacity.
template <typename Container>
void release(Container& c) {
  Container().swap(c);
}

}  // namespace boids
