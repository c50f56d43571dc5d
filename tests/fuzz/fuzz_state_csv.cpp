// The CSV state-file parser: any bytes are parsed or refused with a clean InputError, and a
// state it accepts comes back bit for bit through both formats.
#include <cstddef>
#include <cstdint>
#include <string>

#include "host/base/errors.h"
#include "host/io/state_file.h"
#include "tests/fuzz/fuzz_support.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace boids;
  const std::string text(reinterpret_cast<const char*>(data), size);
  const World world{100, 50, Boundary::kTorus};
  try {
    const FlockState state = parse_state(text, "fuzz.csv", world);
    fuzz::check_same(state, parse_state(format_state(state), "again.csv", world), "CSV");
    fuzz::check_same(state, parse_npy_state(format_npy_state(state), "again.npy", world), ".npy");
  } catch (const InputError& e) {
    fuzz::check_message(e.what(), 300);
  }
  return 0;
}
