#include "host/io/omp_waiting.h"

#include <cstdlib>

namespace boids {

void choose_omp_waiting() {
  if (std::getenv("OMP_WAIT_POLICY") == nullptr && std::getenv("GOMP_SPINCOUNT") == nullptr) {
    setenv("OMP_WAIT_POLICY", "passive", 0);
  }
}

}  // namespace boids
