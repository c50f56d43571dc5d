// What every boids tool does to its process before its work (main_reporting_errors calls it,
// and a program under mpirun calls it on every rank before MPI starts):
//
// - SIGPIPE and SIGXFSZ are ignored: a write to a closed pipe then fails with EPIPE, and one
//   past the file-size limit (`ulimit -f`) with EFBIG, and each goes the way a full disk goes
//   (exit 1, a message, every output as it was), where the signals would end the tool with no
//   word and its temporary files left behind. Programs the tool starts get them back.
// - SIGINT and SIGTERM ask the command to stop between its steps (host/base/interruption.h):
//   it removes its temporary files, keeps what was already whole and exits 130 or 143.
// - Under an address-space limit (`ulimit -v`), OpenMP's threads start at once, as many as
//   the limit has room for, so that a flock cannot leave no room for them.
#pragma once

namespace boids {

// Idempotent: the first call does the work.
void prepare_tool_process();

}  // namespace boids
