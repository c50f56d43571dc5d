#include "host/io/tool_process.h"

#include <csignal>
#include <mutex>

namespace boids {

void prepare_tool_process() {
  static std::once_flag once;
  std::call_once(once, [] {
    std::signal(SIGPIPE, SIG_IGN);
    std::signal(SIGXFSZ, SIG_IGN);
  });
}

}  // namespace boids
