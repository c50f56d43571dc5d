// Checkpoints: a flight's whole state in one self-describing file, from which a run continues
// exactly as if it had never stopped.
//
// Layout (little-endian):
//   "BOIDSCKP"                 8 bytes, the magic
//   version                    u32, kCheckpointVersion
//   header length H            u32
//   header                     H bytes of JSON: the format, the step, the count, and every
//                              option that shapes the flight (backend, method, precision, seed,
//                              the model's parameters, the obstacles themselves; a flight
//                              changed on its way, its "history"); with predators, their
//                              state ("predator_state": rows x, y[, z], vx, vy[, vz],
//                              numbers that read back as the same doubles)
//   x, y, vx, vy               4 x count f64, input order (float flocks' values exactly); in
//                              three dimensions x, y, z, vx, vy, vz, 6 x count f64 (the header
//                              then says "dimensions": 3 and gives the depth, and the goal,
//                              wind and obstacles their z)
//   order                      count u64: slot k of the backend held boid order[k]
//   checksum                   u64 over every byte before it
// A reader checks the magic, the version, the header, the file's size and the checksum before
// it hands anything over: a corrupt, truncated or foreign file is refused whole.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "host/core/simulation.h"
#include "host/io/npy_file.h"
#include "host/io/output_file.h"
#include "host/model/flock.h"

namespace boids {

inline constexpr std::uint32_t kCheckpointVersion = 1;

struct Checkpoint {
  SimulationConfig config;
  std::uint64_t step = 0;
  FlockState state;                  ///< input order
  std::vector<std::uint64_t> order;  ///< the backend's order
};

/// The running flight of `sim`, as a checkpoint holds it.
Checkpoint checkpoint_of(const Simulation& sim);

/// Writes `checkpoint` as the output `option` of `files` (streamed: no second copy of the
/// flock in memory).
void write_checkpoint(OutputFiles& files, const std::string& option, const Checkpoint& checkpoint);

/// What a checkpoint of a flight of `count` boids at `step` starts with: the magic, the version,
/// the header's length and the header; its columns follow (written by
/// host/io/flock_writer.h, from one process or from every rank's share).
std::string checkpoint_prefix(const SimulationConfig& config, std::uint64_t step,
                              std::uint64_t count, const Particles& predators = {});

/// The same in memory, for small flocks (tests).
std::string format_checkpoint(const Checkpoint& checkpoint);
void write_checkpoint(const Checkpoint& checkpoint, const OutputFiles::ByteSink& sink);

/// Reads and checks a checkpoint; InputError naming the file and what is wrong with it.
Checkpoint read_checkpoint(const std::string& path);

/// The same from the file's bytes (`name` for messages).
Checkpoint parse_checkpoint(const std::string& bytes, const std::string& name);

/// A checkpoint's flight and where its boids lie in the file: what the ranks of an MPI run need
/// to read their own boids by byte ranges (host/mpi/rank_start.cpp), none of them the whole.
struct CheckpointHead {
  SimulationConfig config;
  std::uint64_t step = 0, count = 0;
  NpyMatrix columns;  ///< the boids' rows, stored column after column (x, y, ..., vy[, vz])
  Particles predators;
};

/// Reads the checkpoint at `path` as read_checkpoint does, a piece at a time, and keeps none of
/// its boids: its header, its size, its checksum and its order are checked, its boids are not
/// (check_checkpoint_boids, by whoever reads them). InputError as read_checkpoint words it.
CheckpointHead check_checkpoint_file(const std::string& path);

/// The boids of `count` rows of a checkpoint's columns, as npy_rows reads them from
/// `head.columns` (x, y[, z], vx, vy[, vz] each), unchecked.
FlockState checkpoint_boids(const CheckpointHead& head, const double* rows, std::uint64_t count);

/// Checks boids first .. first + n - 1 of the checkpoint `path` of the flight `head` as
/// read_checkpoint checks them: InputError naming the boid by its index in the whole flock.
void check_checkpoint_boids(const CheckpointHead& head, const FlockState& boids,
                            std::uint64_t first, const std::string& path);

/// Where a new flight (--new-flight) changed a constant-speed model's speed at the checkpoint's
/// step, the checkpoint's boids still move at the old one: each that does not fit the flight's
/// speed is taken to it, keeping its heading, as a change from a page or set_params takes them
/// at their next step. Boids that fit are left bit for bit.
void take_changed_speed(const CheckpointHead& head, FlockState& boids);

/// The header's JSON for a flight: every option that shapes it.
std::string flight_description(const SimulationConfig& config);

}  // namespace boids
