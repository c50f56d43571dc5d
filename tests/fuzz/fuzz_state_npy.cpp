// The .npy state-file parser: any bytes are parsed or refused with a clean InputError; the
// first-block check that readers make before reading a file whole agrees with the full parse;
// and a state it accepts comes back bit for bit.
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string>

#include "host/base/errors.h"
#include "host/io/npy_file.h"
#include "host/io/state_file.h"
#include "tests/fuzz/fuzz_support.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace boids;
  const std::string bytes(reinterpret_cast<const char*>(data), size);
  const World world{100, 50, Boundary::kTorus};
  FlockState state;
  try {
    state = parse_npy_state(bytes, "fuzz.npy", world);
  } catch (const InputError& e) {
    fuzz::check_message(e.what(), 300);
    return 0;
  }
  try {
    const NpyMatrix m = parse_npy_header(bytes, "first block", "fuzz.npy");
    check_npy_size(m, bytes.size(), "first block", "fuzz.npy");
  } catch (const InputError& e) {
    std::fprintf(stderr, "accepted whole, refused from its header: %s\n", e.what());
    std::abort();
  }
  fuzz::check_same(state, parse_npy_state(format_npy_state(state), "again.npy", world), ".npy");
  return 0;
}
