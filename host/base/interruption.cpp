#include "host/base/interruption.h"

#include <atomic>
#include <csignal>

namespace boids {
namespace {

// Lock-free, so that a handler may store to it; a handler may run on any thread.
std::atomic<int> requested{0};
static_assert(std::atomic<int>::is_always_lock_free);

extern "C" void note_stop(int signal) {
  requested.store(signal, std::memory_order_relaxed);
}

}  // namespace

Interrupted::Interrupted(int signal, const std::string& where)
    : std::runtime_error("stopped by " + signal_name(signal) + (where.empty() ? "" : " ") + where),
      signal_(signal) {}

void catch_stop_signals() {
  struct sigaction action = {};
  action.sa_handler = note_stop;
  sigemptyset(&action.sa_mask);
  // Interrupted system calls resume (a write in progress completes); the handler gives the
  // signal back its default, so a second Ctrl-C ends a command that does not stop soon enough.
  action.sa_flags = SA_RESTART | SA_RESETHAND;
  for (const int signal : {SIGINT, SIGTERM, SIGHUP}) {
    // A signal ignored when the process began stays ignored (a shell's background job).
    struct sigaction before = {};
    if (sigaction(signal, nullptr, &before) == 0 && before.sa_handler == SIG_IGN) continue;
    sigaction(signal, &action, nullptr);
  }
}

bool stop_requested() {
  return requested.load(std::memory_order_relaxed) != 0;
}

int stop_signal() {
  return requested.load(std::memory_order_relaxed);
}

void throw_if_stopped(const std::string& where) {
  if (const int signal = stop_signal()) throw Interrupted(signal, where);
}

std::string signal_name(int signal) {
  switch (signal) {
    case SIGINT:
      return "SIGINT";
    case SIGTERM:
      return "SIGTERM";
    case SIGHUP:
      return "SIGHUP";
    default:
      return "signal " + std::to_string(signal);
  }
}

}  // namespace boids
