#include "host/io/tool_process.h"

#include <omp.h>
#include <sys/resource.h>

#include <algorithm>
#include <csignal>
#include <mutex>

#include "host/base/interruption.h"
#include "host/base/memory.h"
#include "host/io/omp_waiting.h"

namespace boids {
namespace {

// The address space a thread takes: its stack (RLIMIT_STACK, as glibc sizes it; 8 MiB where it
// is unlimited) and a guard page's worth of slack.
std::uint64_t thread_address_space() {
  rlimit stack{};
  const std::uint64_t mib = 1 << 20;
  if (getrlimit(RLIMIT_STACK, &stack) != 0 || stack.rlim_cur == RLIM_INFINITY) return 9 * mib;
  return static_cast<std::uint64_t>(stack.rlim_cur) + mib;
}

// Under an address-space limit, OpenMP's threads are made now, before a flock takes the
// address space (libgomp ends the process with "Thread creation failed" when it cannot make
// them later), and no more of them than a quarter of what the limit leaves can hold.
void start_threads_within_the_address_space_limit() {
  if (address_space_limit() == UINT64_MAX) return;
  const std::uint64_t fit = available_host_memory() / 4 / thread_address_space();
  const int threads = static_cast<int>(
      std::clamp<std::uint64_t>(fit, 1, static_cast<std::uint64_t>(omp_get_max_threads())));
  omp_set_num_threads(threads);
#pragma omp parallel
  {}
}

}  // namespace

void prepare_tool_process() {
  static std::once_flag once;
  std::call_once(once, [] {
    choose_omp_waiting();
    std::signal(SIGPIPE, SIG_IGN);
    std::signal(SIGXFSZ, SIG_IGN);
    catch_stop_signals();
    start_threads_within_the_address_space_limit();
  });
}

}  // namespace boids
