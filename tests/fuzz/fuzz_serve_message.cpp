// The parser of what a page sends `boids serve` (host/serve/messages.h): any bytes are a
// message of the protocol, with every field in its range, or a clean one-line InputError.
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string_view>

#include "host/base/errors.h"
#include "host/serve/messages.h"
#include "tests/fuzz/fuzz_support.h"

namespace {

void require(bool holds, const char* what) {
  if (holds) return;
  std::fprintf(stderr, "accepted a message with %s\n", what);
  std::abort();
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace boids;
  using Type = serve::ClientMessage::Type;
  try {
    const serve::ClientMessage m =
        serve::parse_client_message(std::string_view(reinterpret_cast<const char*>(data), size));
    require(size <= serve::kMaxMessageBytes, "more bytes than a message may hold");
    if (m.type == Type::kNext) require(m.count >= 1, "max_boids below 1");
    if (m.type == Type::kRate)
      require(m.value >= 0 && m.value <= serve::kMaxStepsPerSecond, "a rate out of range");
    require(std::isfinite(m.value) && std::isfinite(m.at.x) && std::isfinite(m.at.y) &&
                std::isfinite(m.at.z),
            "a number that is not finite");
  } catch (const InputError& e) {
    boids::fuzz::check_message(e.what(), 300);
  }
  return 0;
}
