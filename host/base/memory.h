// How much memory a flock may take, and the check made before anything is allocated.
#pragma once

#include <cstdint>
#include <string>

namespace boids {

// Host memory a new allocation can have: MemAvailable of /proc/meminfo (what the kernel could
// hand out without swapping), else the free physical pages.
std::uint64_t available_host_memory();

// Throws RuntimeError, before any allocation, when `needed` bytes exceed `available`:
// "<what> needs N MiB of <memory>; <where> has M MiB free".
void check_memory_fits(std::uint64_t needed, std::uint64_t available, const std::string& what,
                       const std::string& memory, const std::string& where);

}  // namespace boids
