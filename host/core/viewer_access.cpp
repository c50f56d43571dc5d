#include "host/core/viewer_access.h"

#include "host/base/errors.h"
#include "host/core/simulation.h"

namespace boids {

ViewerAccess& viewer_access(Simulation& flock) {
  if (auto* access = dynamic_cast<ViewerAccess*>(&flock)) return *access;
  throw InputError("the viewer draws a flock of one process, not one spread over MPI ranks");
}

}  // namespace boids
