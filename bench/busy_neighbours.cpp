#include "bench/busy_neighbours.h"

#include <signal.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <string>

#include "host/base/errors.h"

namespace boids::bench {

BusyNeighbours::BusyNeighbours(int count) {
  const pid_t parent = getpid();
  for (int k = 0; k < count; ++k) {
    const pid_t child = fork();
    if (child < 0) {
      throw RuntimeError("--busy: cannot start a busy process: " +
                         std::string(std::strerror(errno)));
    }
    if (child == 0) {
      prctl(PR_SET_PDEATHSIG, SIGKILL);  // never outlive the bench
      if (getppid() != parent) _exit(0);
      volatile unsigned long spins = 0;
      for (;;) spins = spins + 1;
    }
    children_.push_back(child);
  }
}

BusyNeighbours::~BusyNeighbours() {
  for (const pid_t child : children_) kill(child, SIGKILL);
  for (const pid_t child : children_) waitpid(child, nullptr, 0);
}

}  // namespace boids::bench
