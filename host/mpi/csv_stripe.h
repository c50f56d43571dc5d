// A CSV state file (`--init x.csv`) read where its boids will lie: each rank reads the lines
// that begin in its byte range of the file (MPI-IO), never the whole. Rank k's range is
// [kS/P, (k+1)S/P) of the file's S bytes; its lines begin after the first line break at or
// after the range's first byte less one (rank 0's at the file's start: the header) and run
// through the first line break at or after its last byte, so that every line is one rank's.
// The ranks count their lines and learn how many come before theirs, so that each names a
// bad line by its number in the whole file, and parse and check their rows as one process
// parses and checks the whole (host/io/state_file.h).
#pragma once

#include <cstdint>
#include <optional>
#include <string>

#include "host/model/flock.h"

namespace boids::mpi {

// A rank's rows of the file, its stripe of the flock's input indices: rows [first, first +
// rows.size()) of the `whole` file's; the file's first boid and its name, on every rank.
struct CsvStripe {
  FlockState rows, first_boid;
  std::uint64_t first = 0, whole = 0;
  std::string name;
};

// Every rank's stripe of the CSV state file `path` for `world` (both read on rank 0 alone), or
// none on every rank, with rank 0's `refusal` the first problem in the file's order (a NUL
// byte anywhere before any row's problem, as one process reads it). Collective.
std::optional<CsvStripe> read_csv_stripe(const std::string& path, const World& world,
                                         std::string& refusal);

}  // namespace boids::mpi
