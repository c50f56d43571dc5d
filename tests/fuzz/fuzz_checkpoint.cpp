// The checkpoint reader: any bytes are read whole or refused with a clean InputError, never
// half-read; a checkpoint it accepts holds a valid flight and comes back bit for bit.
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string>

#include "host/base/errors.h"
#include "host/io/checkpoint.h"
#include "tests/fuzz/fuzz_support.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace boids;
  const std::string bytes(reinterpret_cast<const char*>(data), size);
  Checkpoint c;
  try {
    c = parse_checkpoint(bytes, "fuzz.bin");
  } catch (const InputError& e) {
    fuzz::check_message(e.what(), 300);
    return 0;
  }
  if (c.state.size() == 0 || c.order.size() != c.state.size()) {
    std::fprintf(stderr, "accepted a checkpoint of %zu boids with %zu in its order\n",
                 c.state.size(), c.order.size());
    std::abort();
  }
  const Checkpoint again = parse_checkpoint(format_checkpoint(c), "again.bin");
  fuzz::check_same(c.state, again.state, "checkpoint");
  if (again.order != c.order || again.step != c.step ||
      flight_description(again.config) != flight_description(c.config)) {
    std::fprintf(stderr, "a checkpoint read back differs\n");
    std::abort();
  }
  return 0;
}
