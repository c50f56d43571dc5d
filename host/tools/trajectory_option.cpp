#include "host/tools/trajectory_option.h"

#include <algorithm>

#include <sys/stat.h>

#include <limits>

#include "host/base/errors.h"
#include "host/base/message_text.h"
#include "host/io/output_file.h"
#include "host/io/xdmf_file.h"

namespace boids::tools {
void add_trajectory_options(OptionParser& parser, TrajectoryOptions& o) {
  parser.add_value(
      "--trajectory", "FILE.h5",
      "record positions, velocities and metrics in H5MD (HDF5; .h5 or .h5md), "
      "written as the run goes, with FILE.xdmf beside it for ParaView and VisIt",
      [&o](const std::string& v) {
        if (!has_extension(v, ".h5") && !has_extension(v, ".h5md")) {
          throw InputError("--trajectory: expected a file name ending in .h5 or .h5md, got " +
                           quoted(v));
        }
        o.file = v;
      });
  parser.add_value(
      "--trajectory-every", "K",
      "a trajectory frame every K steps, >= 1 (default: start and end only)",
      [&o](const std::string& v) { o.every = parse_whole("--trajectory-every", v, 1); });
  parser.add_value("--trajectory-layout", "2d|3d",
                   "the trajectory's columns: 3d (default), a flat flock at z = 0 in a box one "
                   "unit deep, which readers of 3D files alone open (MDAnalysis); or 2d, a flat "
                   "flock's own, a third smaller",
                   [&o](const std::string& v) {
                     if (v != "2d" && v != "3d") {
                       throw InputError("--trajectory-layout: expected 2d or 3d, got " + quoted(v));
                     }
                     o.layout_dimensions = v == "3d" ? 3 : 2;
                   });
}

void check_trajectory_options(const TrajectoryOptions& o, int dimensions, OutputFiles& outputs) {
  if (o.every > 0 && o.file.empty()) throw InputError("--trajectory-every needs --trajectory FILE");
  if (o.layout_dimensions > 0 && o.file.empty()) {
    throw InputError("--trajectory-layout needs --trajectory FILE");
  }
  if (o.layout_dimensions > 0 && o.layout_dimensions < dimensions) {
    throw InputError("--trajectory-layout 2d: a flock in three dimensions is written in 3d");
  }
  if (o.file.empty()) return;
  outputs.check("--trajectory", o.file);
  outputs.check("--trajectory", xdmf_path_for(o.file));  // its description, beside it
  struct stat info;
  if (stat(o.file.c_str(), &info) == 0 && !S_ISREG(info.st_mode)) {
    throw InputError("--trajectory: " + quoted_path(o.file) +
                     " is not a regular file (an HDF5 file is written in place, not streamed)");
  }
}

TrajectoryParameters trajectory_parameters(const nlohmann::ordered_json& run) {
  TrajectoryParameters parameters;
  for (const auto& [name, value] : run.items()) {
    if (value.is_number_unsigned() &&
        value.get<std::uint64_t>() > std::uint64_t{std::numeric_limits<std::int64_t>::max()}) {
      parameters.emplace_back(name, value.dump());  // a seed past int64: kept exact, as text
    } else if (value.is_number_integer()) {
      parameters.emplace_back(name, value.get<std::int64_t>());
    } else if (value.is_number()) {
      parameters.emplace_back(name, value.get<double>());
    } else if (value.is_string()) {
      parameters.emplace_back(name, value.get<std::string>());
    } else if (value.is_array() && std::all_of(value.begin(), value.end(),
                                               [](const auto& v) { return v.is_number(); })) {
      parameters.emplace_back(name, value.get<std::vector<double>>());
    } else if (value.is_boolean()) {
      parameters.emplace_back(name, std::int64_t{value.get<bool>()});
    } else if (value.is_structured()) {  // the flight's history: its JSON, as text
      parameters.emplace_back(
          name, value.dump(-1, ' ', false, nlohmann::ordered_json::error_handler_t::replace));
    }
  }
  return parameters;
}

TrajectoryRecording::TrajectoryRecording(const TrajectoryOptions& o, std::uint64_t steps,
                                         FrameWriter write_frame)
    : file_(o.file),
      layout_dimensions_(o.layout_dimensions),
      every_(o.every > 0 ? o.every : std::max<std::uint64_t>(steps, 1)),
      steps_(steps),
      write_frame_(std::move(write_frame)) {}

bool TrajectoryRecording::due(std::uint64_t step) const {
  return enabled() && (step % every_ == 0 || step == steps_);
}

std::uint64_t TrajectoryRecording::next_after(std::uint64_t step) const {
  if (!enabled() || step >= steps_) return std::numeric_limits<std::uint64_t>::max();
  return std::min(steps_, (step / every_ + 1) * every_);
}

void TrajectoryRecording::start(const Simulation& sim, TrajectoryParameters parameters,
                                const std::string& version) {
  if (!enabled()) return;
  const FlockParams& p = sim.config().params;
  time_per_step_ = p.time_step();
  TrajectoryHeader header;
  header.count = sim.count();
  header.predators = static_cast<std::uint64_t>(p.predators);
  header.world = p.world;
  header.dimensions = p.dimensions;
  // A flat flock in a box unless --trajectory-layout 2d asks for its own two columns.
  header.layout_dimensions = layout_dimensions_ == 2 ? 0 : 3;
  header.creator_version = version;
  header.parameters = std::move(parameters);
  writer_ = std::make_unique<TrajectoryWriter>(file_, header);
}

void TrajectoryRecording::record(std::uint64_t step, Simulation& sim, const FlockMetrics& metrics) {
  if (!writer_ || (writer_->frames() > 0 && step <= last_step_)) return;
  const double time = static_cast<double>(step) * time_per_step_;
  if (write_frame_) {
    write_frame_(*writer_, sim, step, time, metrics);
  } else {
    writer_->append(step, time, sim.state(), metrics);
  }
  last_step_ = step;
}

void TrajectoryRecording::finish() {
  if (writer_) writer_->close();
}

std::string TrajectoryRecording::kept() const {
  if (!writer_ || writer_->frames() == 0) return "";
  return "the trajectory's " + std::to_string(writer_->frames()) + " frames, to step " +
         std::to_string(last_step_);
}

}  // namespace boids::tools
