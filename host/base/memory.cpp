#include "host/base/memory.h"

#include <sys/resource.h>
#include <unistd.h>

#include <algorithm>
#include <fstream>
#include <sstream>

#include "host/base/errors.h"

namespace boids {
namespace {

std::uint64_t machine_memory_available() {
  std::ifstream meminfo("/proc/meminfo");
  std::string line;
  while (std::getline(meminfo, line)) {
    std::istringstream fields(line);
    std::string name;
    std::uint64_t kib = 0;
    if (fields >> name >> kib && name == "MemAvailable:") return kib * 1024;
  }
  const long pages = sysconf(_SC_AVPHYS_PAGES), page = sysconf(_SC_PAGESIZE);
  return pages > 0 && page > 0
             ? static_cast<std::uint64_t>(pages) * static_cast<std::uint64_t>(page)
             : UINT64_MAX;
}

// The address space the process has mapped (VmSize): what counts against RLIMIT_AS.
std::uint64_t address_space_used() {
  std::ifstream statm("/proc/self/statm");
  std::uint64_t pages = 0;
  const long page = sysconf(_SC_PAGESIZE);
  if (!(statm >> pages) || page <= 0) return 0;
  return pages * static_cast<std::uint64_t>(page);
}

// What the address-space limit leaves; UINT64_MAX without a limit.
std::uint64_t address_space_left() {
  const std::uint64_t limit = address_space_limit();
  if (limit == UINT64_MAX) return UINT64_MAX;
  const std::uint64_t used = address_space_used();
  return limit > used ? limit - used : 0;
}

std::string mib(std::uint64_t bytes) {
  return std::to_string(bytes >> 20) + " MiB";
}

}  // namespace

std::uint64_t address_space_limit() {
  rlimit limit{};
  if (getrlimit(RLIMIT_AS, &limit) != 0 || limit.rlim_cur == RLIM_INFINITY) return UINT64_MAX;
  return static_cast<std::uint64_t>(limit.rlim_cur);
}

std::uint64_t available_host_memory() {
  return std::min(machine_memory_available(), address_space_left());
}

std::string host_memory_holder() {
  return address_space_left() < machine_memory_available()
             ? "the process under its address-space limit (ulimit -v)"
             : "this machine";
}

std::string out_of_memory_message() {
  const std::uint64_t limit = address_space_limit();
  if (limit == UINT64_MAX) return kOutOfMemory;
  return "not enough memory for a flock this large: the process's address-space limit "
         "(ulimit -v, " +
         mib(limit) + ") refused an allocation";
}

void check_memory_fits(std::uint64_t needed, std::uint64_t available, const std::string& what,
                       const std::string& memory, const std::string& where) {
  if (needed <= available) return;
  throw RuntimeError(what + " needs " + std::to_string((needed + (1u << 20) - 1) >> 20) +
                     " MiB of " + memory + "; " + where + " has " + mib(available) + " free");
}

}  // namespace boids
