#include "host/base/memory.h"

#include <unistd.h>

#include <fstream>
#include <sstream>

#include "host/base/errors.h"

namespace boids {

std::uint64_t available_host_memory() {
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

void check_memory_fits(std::uint64_t needed, std::uint64_t available, const std::string& what,
                       const std::string& memory, const std::string& where) {
  if (needed <= available) return;
  throw RuntimeError(what + " needs " + std::to_string((needed + (1u << 20) - 1) >> 20) +
                     " MiB of " + memory + "; " + where + " has " +
                     std::to_string(available >> 20) + " MiB free");
}

}  // namespace boids
