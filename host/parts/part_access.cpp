#include "host/parts/part_access.h"

#include "host/base/errors.h"
#include "host/core/simulation.h"

namespace boids {

PartAccess& part_access(Simulation& flock) {
  if (auto* access = dynamic_cast<PartAccess*>(&flock)) return *access;
  throw InputError("the " + to_string(flock.config().backend) +
                   " backend flies whole flocks only (a part of one, as under MPI, needs the "
                   "cpu or cuda backend)");
}

}  // namespace boids
