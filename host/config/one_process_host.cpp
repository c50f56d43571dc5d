// The host of a build without MPI (host/config/flock_host.h): the flock in this process.
#include "host/config/flock_host.h"

namespace boids {

FlockHost& flock_host() {
  static FlockHost host;
  return host;
}

int run_on_host(int&, char**&, const std::function<int()>& command) {
  return command();
}

}  // namespace boids
