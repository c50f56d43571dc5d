// A tool's choice of how OpenMP's idle threads wait (host/io/omp_waiting.h), made before the
// OpenMP runtime's initialiser reads the environment: in the executable's .preinit_array, which
// the dynamic loader runs before any library's initialisers and which an executable alone may
// have. Linked whole into each tool (boids_omp_waiting, host/tools/CMakeLists.txt).
#include "host/io/omp_waiting.h"

namespace {

void choose_before_the_runtime_starts(int, char**, char**) {
  boids::choose_omp_waiting();
}

__attribute__((section(".preinit_array"),
               used)) void (*const boids_omp_waiting)(int, char**,
                                                      char**) = choose_before_the_runtime_starts;

}  // namespace
