// A tool's choice of how OpenMP's idle threads wait (host/io/omp_waiting.h), made before the
// OpenMP runtime's initialiser reads the environment. Setting the variable from the executable's
// .preinit_array does not take on Debian 12 (GOMP_SPINCOUNT stays 300000): the C library sets up
// the process's environment afresh after it, from the one the kernel gave. So the preinit
// function reads that environment itself (its third argument) and, with neither variable in it,
// executes the program again, once, with OMP_WAIT_POLICY=passive added, which its runtime then
// reads (about a millisecond). Where that fails (no /proc), the program runs on as started.
// Linked whole into each tool (boids_omp_waiting, host/tools/CMakeLists.txt).
#include <alloca.h>
#include <unistd.h>

#include <cstring>

namespace {

bool names(const char* entry, const char* name) {
  const std::size_t n = std::strlen(name);
  return std::strncmp(entry, name, n) == 0 && entry[n] == '=';
}

void choose_before_the_runtime_starts(int, char** argv, char** envp) {
  std::size_t count = 0;
  for (; envp && envp[count]; ++count) {
    if (names(envp[count], "OMP_WAIT_POLICY") || names(envp[count], "GOMP_SPINCOUNT")) {
      return;  // the user's choice, or this process is the one executed again
    }
  }
  // On the stack: the C library's allocator is not the process's to use yet.
  auto** with = static_cast<char**>(alloca((count + 2) * sizeof(char*)));
  for (std::size_t k = 0; k < count; ++k) with[k] = envp[k];
  static char passive[] = "OMP_WAIT_POLICY=passive";
  with[count] = passive;
  with[count + 1] = nullptr;
  execve("/proc/self/exe", argv, with);  // returns only where it failed: run on as started
}

__attribute__((section(".preinit_array"),
               used)) void (*const boids_omp_waiting)(int, char**,
                                                      char**) = choose_before_the_runtime_starts;

}  // namespace
