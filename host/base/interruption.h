// Stopping a long command when its user asks (Ctrl-C, SIGINT; a scheduler's SIGTERM; the
// terminal closing, SIGHUP).
//
// The signal only raises a flag; the command looks at it between steps (of a run, of a
// sweep's flocks, between a validation's cases, in pieces of a random start) and throws
// Interrupted. The exception unwinds as any failure does: outputs not yet whole are never
// committed and their temporary files are removed, while what was already whole stays (a
// checkpoint written before, a trajectory's frames, a sweep's finished rows). The tool then
// exits 128 + the signal (130, 143, 129) with a one-line message. A second signal of the same kind
// ends the process at once, as if nothing were handled.
#pragma once

#include <stdexcept>
#include <string>

namespace boids {

// A command stopped by a signal: `what()` is "stopped by SIGINT" and the place it stopped.
class Interrupted : public std::runtime_error {
 public:
  Interrupted(int signal, const std::string& where);
  int signal() const { return signal_; }
  int exit_status() const { return 128 + signal_; }

 private:
  int signal_;
};

// Installs the handlers of SIGINT, SIGTERM and SIGHUP (a tool's process, once, before its work;
// a library user's program keeps its own).
void catch_stop_signals();

// Whether a stop was asked for, and by which signal (0 when none).
bool stop_requested();
int stop_signal();

// Throws Interrupted when a stop was asked for; `where` ("at step 300 of 1000") follows the
// signal's name in the message.
void throw_if_stopped(const std::string& where = "");

// "SIGINT", "SIGTERM", else "signal N".
std::string signal_name(int signal);

}  // namespace boids
