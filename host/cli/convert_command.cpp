// `boids convert IN OUT`: between the files boids reads and writes, each known by its name's
// extension (a checkpoint by its first bytes):
//   a state file (.csv, .npy)          -> a state file of the other kind
//   a checkpoint                       -> its state, as a state file
//   a trajectory (.h5, .h5md)          -> GSD (.gsd; OVITO, HOOMD-blue), its XDMF description
//                                         (.xdmf; ParaView, VisIt), or a frame as a state file
// OUT is written whole or not at all; bad input is refused with exit 2, nothing written.
#include <sys/stat.h>

#include <cerrno>
#include <cstring>
#include <fstream>
#include <iostream>
#include <limits>
#include <optional>

#include "host/base/errors.h"
#include "host/base/interruption.h"
#include "host/base/message_text.h"
#include "host/base/version.h"
#include "host/cli/commands.h"
#include "host/io/checkpoint.h"
#include "host/io/output_file.h"
#include "host/io/state_file.h"
#include "host/io/trajectory_reader.h"
#include "host/io/xdmf_file.h"
#include "host/tools/options.h"
#include "host/tools/python_script.h"

namespace boids::cli {
namespace {

enum class Kind { kState, kTrajectory, kGsd, kXdmf, kCheckpoint };

constexpr const char* kConversions =
    "state files (.csv, .npy) to each other; a checkpoint to a state file; a trajectory (.h5, "
    ".h5md) to .gsd, .xdmf or a state file (one frame)";

struct ConvertOptions {
  std::vector<std::string> files;
  std::optional<std::uint64_t> frame;
  bool help = false;
};

bool is_checkpoint(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  char magic[8] = {};
  return in.read(magic, sizeof magic) && std::string(magic, sizeof magic) == "BOIDSCKP";
}

Kind kind_of(const std::string& path, bool input) {
  if (has_extension(path, ".csv") || has_extension(path, ".npy")) return Kind::kState;
  if (has_extension(path, ".h5") || has_extension(path, ".h5md")) return Kind::kTrajectory;
  if (!input && has_extension(path, ".gsd")) return Kind::kGsd;
  if (!input && has_extension(path, ".xdmf")) return Kind::kXdmf;
  if (input && is_checkpoint(path)) return Kind::kCheckpoint;
  throw InputError(quoted_path(path) + ": boids converts " + std::string(kConversions) +
                   (input ? "; this is none of them" : "; this name ends in none of them"));
}

// A world that holds any state file's boids: conversion keeps positions as they are.
World any_world() {
  const double most = std::numeric_limits<double>::max();
  return World{most, most, Boundary::kTorus, most};
}

void check_input(const std::string& path) {
  struct stat info;
  if (stat(path.c_str(), &info) != 0) {
    throw InputError("cannot read " + quoted_path(path) + ": " + std::strerror(errno));
  }
  if (!S_ISREG(info.st_mode)) throw InputError(quoted_path(path) + " is not a regular file");
}

// How the XDMF description names the trajectory: by its name alone beside it, else whole.
std::string data_file_name(const std::string& trajectory, const std::string& description) {
  const auto directory = [](const std::string& p) {
    const std::size_t slash = p.find_last_of('/');
    return slash == std::string::npos ? std::string(".") : p.substr(0, slash);
  };
  struct stat a, b;
  if (stat(directory(trajectory).c_str(), &a) == 0 &&
      stat(directory(description).c_str(), &b) == 0 && a.st_dev == b.st_dev &&
      a.st_ino == b.st_ino) {
    const std::size_t slash = trajectory.find_last_of('/');
    return slash == std::string::npos ? trajectory : trajectory.substr(slash + 1);
  }
  char* whole = realpath(trajectory.c_str(), nullptr);
  const std::string name = whole ? whole : trajectory;
  std::free(whole);
  return name;
}

// A state file `out` of `state`, its predators beside it (host/io/state_file.h's
// predator_state_path), committed with it; without predators, an earlier file of them there
// is removed with the commit, so that no later --init flies them with these boids.
void write_state(OutputFiles& outputs, const std::string& out, const FlockState& state) {
  const std::string beside = predator_state_path(out);
  if (state.predators.size() > 0) {
    outputs.add("OUT (predators)", beside);
    FlockState predators;
    static_cast<Particles&>(predators) = state.predators;
    outputs.write("OUT (predators)", format_state_file(beside, predators));
  } else {
    outputs.retire(beside);
  }
  outputs.write("OUT", format_state_file(out, state));
}

void convert_trajectory(const ConvertOptions& o, Kind to, OutputFiles& outputs) {
  const std::string& in = o.files[0];
  const std::string& out = o.files[1];
  const TrajectoryReader trajectory(in);
  if (trajectory.frames() == 0)
    throw InputError("trajectory " + quoted_path(in) + ": no whole frame");
  if (to == Kind::kState) {
    const std::uint64_t frame = o.frame.value_or(trajectory.frames() - 1);
    write_state(outputs, out, trajectory.frame(frame));
  } else if (to == Kind::kXdmf) {
    const XdmfTrajectory description{data_file_name(in, out), trajectory.count(),
                                     trajectory.columns(), trajectory.predators()};
    outputs.write("OUT", xdmf_document(description, trajectory.times()));
  } else {
    // Every frame read and checked here first, so that what the script writes is whole.
    for (std::uint64_t k = 0; k < trajectory.frames(); ++k) {
      trajectory.frame(k);
      throw_if_stopped("reading frame " + std::to_string(k) + " of " + quoted_path(in) + "; " +
                       quoted_path(out) + " left as it was");
    }
    const std::string script = tools::gsd_convert_script();
    tools::check_gsd_writer("OUT");
    tools::run_plot_script("OUT", script,
                           {in, outputs.file_to_write("OUT"), "boids " + version_text()});
    outputs.written_externally("OUT");
  }
}

}  // namespace

int convert_command(const std::vector<std::string>& args) {
  ConvertOptions o;
  tools::OptionParser parser(
      "Usage: boids convert IN OUT [--frame K]\n"
      "Converts between the files boids reads and writes, each known by its extension: state\n"
      "files (.csv, .npy) to each other; a checkpoint to a state file; a trajectory (.h5, .h5md)\n"
      "to GSD (.gsd, for OVITO and HOOMD-blue), to its XDMF description (.xdmf, for ParaView and\n"
      "VisIt) or to a state file of one frame. OUT is written whole or not at all.");
  parser.add_value("--frame", "K",
                   "the trajectory's frame a state file gets, from 0 (default: the last whole one)",
                   [&o](const std::string& v) { o.frame = tools::parse_whole("--frame", v, 0); });
  parser.add_flag("--help", "show this help", [&o] { o.help = true; });
  parser.parse(args, &o.files);
  if (o.help) {
    std::cout << parser.help();
    return 0;
  }
  if (o.files.size() != 2) {
    throw InputError("convert takes two files, IN and OUT (given " +
                     std::to_string(o.files.size()) + "; see boids convert --help)");
  }
  const std::string& in = o.files[0];
  const std::string& out = o.files[1];
  check_input(in);
  const Kind from = kind_of(in, true), to = kind_of(out, false);
  const bool state_out = to == Kind::kState;
  if ((from != Kind::kTrajectory && !state_out) ||
      (from == Kind::kState && has_extension(in, ".npy") == has_extension(out, ".npy"))) {
    throw InputError("cannot convert " + quoted_path(in) + " to " + quoted_path(out) +
                     ": boids converts " + kConversions);
  }
  if (o.frame && !(from == Kind::kTrajectory && state_out)) {
    throw InputError("--frame: only a trajectory converted to a state file has frames to choose");
  }
  struct stat a, b;
  if (stat(in.c_str(), &a) == 0 && stat(out.c_str(), &b) == 0 && a.st_dev == b.st_dev &&
      a.st_ino == b.st_ino) {
    throw InputError("IN and OUT are the same file (" + quoted_path(in) + " and " +
                     quoted_path(out) + ")");
  }
  if (to == Kind::kTrajectory) {  // its format would not follow its name
    throw InputError(quoted_path(out) +
                     ": a trajectory is written by boids run --trajectory, not converted into "
                     "(boids converts " +
                     std::string(kConversions) + ")");
  }
  OutputFiles outputs;
  outputs.add("OUT", out, to == Kind::kGsd ? ".gsd" : "");
  if (from == Kind::kState) {
    FlockState state = read_state_file(in, any_world());
    // A state file's predators lie beside it (boids run --save with --predators): they go too.
    struct stat beside;
    const std::string hunters = predator_state_path(in);
    if (stat(hunters.c_str(), &beside) == 0 && S_ISREG(beside.st_mode)) {
      state.predators = read_state_file(hunters, any_world());
    }
    write_state(outputs, out, state);
  } else if (from == Kind::kCheckpoint) {
    write_state(outputs, out, read_checkpoint(in).state);
  } else {
    convert_trajectory(o, to, outputs);
  }
  throw_if_stopped("converting " + quoted_path(in) + "; " + quoted_path(out) + " left as it was");
  outputs.commit();
  return 0;
}

}  // namespace boids::cli
