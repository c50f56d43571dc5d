#include "host/io/xdmf_file.h"

#include <fcntl.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <utility>

#include "host/base/errors.h"
#include "host/base/message_text.h"
#include "host/io/output_file.h"

namespace boids {
namespace {

// The observables of an H5MD trajectory, with their numbers' types.
struct Observable {
  const char* name;
  bool whole;
};
constexpr Observable kObservables[] = {{"polarization", false},
                                       {"order", false},
                                       {"flocks", true},
                                       {"largest_flock", true},
                                       {"mean_nn_distance", false},
                                       {"mean_neighbors", false},
                                       {"milling", false}};

constexpr const char* kHead =
    "<?xml version=\"1.0\" ?>\n"
    "<!DOCTYPE Xdmf SYSTEM \"Xdmf.dtd\" []>\n"
    "<Xdmf Version=\"2.0\">\n"
    " <Domain>\n"
    "  <Grid Name=\"flock\" GridType=\"Collection\" CollectionType=\"Temporal\">\n";
constexpr const char* kTail =
    "  </Grid>\n"
    " </Domain>\n"
    "</Xdmf>\n";

// XML's special characters in an attribute or text: a file may be named anything.
std::string xml_text(const std::string& text) {
  std::string out;
  for (const char c : text) {
    switch (c) {
      case '&':
        out += "&amp;";
        break;
      case '<':
        out += "&lt;";
        break;
      case '>':
        out += "&gt;";
        break;
      case '"':
        out += "&quot;";
        break;
      default:
        out += c;
    }
  }
  return out;
}

std::string u(std::uint64_t value) {
  return std::to_string(value);
}

// Row `frame` of the dataset `name`, (frames, N, D) for `particles` = N > 0, or (frames): a
// hyperslab of the frames written so far.
std::string slab(const XdmfTrajectory& t, std::uint64_t frame, const std::string& name,
                 std::uint64_t particles, bool whole) {
  const bool per_particle = particles > 0;
  const std::string d = u(static_cast<std::uint64_t>(t.dimensions));
  const std::string shape = per_particle ? u(particles) + " " + d : "1";
  const std::string source = per_particle ? u(frame + 1) + " " + shape : u(frame + 1);
  const std::string corner = per_particle ? u(frame) + " 0 0 1 1 1 1 " + shape : u(frame) + " 1 1";
  const std::string type = whole ? "NumberType=\"Int\"" : "NumberType=\"Float\"";
  return "<DataItem ItemType=\"HyperSlab\" Dimensions=\"" + shape + "\" Type=\"HyperSlab\">" +
         "<DataItem Dimensions=\"" + (per_particle ? "3 3" : "3 1") + "\" NumberType=\"UInt\" " +
         "Format=\"XML\">" + corner + "</DataItem>" + "<DataItem Dimensions=\"" + source + "\" " +
         type + " Precision=\"8\" Format=\"HDF\">" + xml_text(t.data_file) + ":" + name +
         "</DataItem></DataItem>";
}

// The point set of particle group `group` (flock, predators) of `particles`, indented by
// `indent`: its topology, positions and velocities.
std::string point_set(const XdmfTrajectory& t, std::uint64_t frame, const std::string& group,
                      std::uint64_t particles, const std::string& indent) {
  const std::string path = "/particles/" + group;
  return indent + "<Topology TopologyType=\"Polyvertex\" NumberOfElements=\"" + u(particles) +
         "\" NodesPerElement=\"1\"/>\n" + indent + "<Geometry GeometryType=\"" +
         std::string(t.dimensions == 3 ? "XYZ" : "XY") + "\">" +
         slab(t, frame, path + "/position/value", particles, false) + "</Geometry>\n" + indent +
         "<Attribute Name=\"velocity\" AttributeType=\"Vector\" Center=\"Node\">" +
         slab(t, frame, path + "/velocity/value", particles, false) + "</Attribute>\n";
}

// The observables, each the flock's field data.
std::string observables(const XdmfTrajectory& t, std::uint64_t frame, const std::string& indent) {
  std::string text;
  const auto add = [&](const std::string& name, bool whole) {
    text += indent + "<Attribute Name=\"" + name + "\" AttributeType=\"Scalar\" Center=\"Grid\">" +
            slab(t, frame, "/observables/" + name + "/value", 0, whole) + "</Attribute>\n";
  };
  for (const Observable& o : kObservables) add(o.name, o.whole);
  if (t.predators > 0) add("within_reach", true);
  return text;
}

std::string frame_grid(const XdmfTrajectory& t, std::uint64_t frame, double time) {
  const std::string name = "frame " + u(frame);
  const std::string at = "<Time Value=\"" + number_text(time) + "\"/>\n";
  if (t.predators == 0) {
    return "   <Grid Name=\"" + name + "\" GridType=\"Uniform\">\n    " + at +
           point_set(t, frame, "flock", t.count, "    ") + observables(t, frame, "    ") +
           "   </Grid>\n";
  }
  return "   <Grid Name=\"" + name +
         "\" GridType=\"Collection\" CollectionType=\"Spatial\">\n    " + at +
         "    <Grid Name=\"flock\" GridType=\"Uniform\">\n" +
         point_set(t, frame, "flock", t.count, "     ") + observables(t, frame, "     ") +
         "    </Grid>\n    <Grid Name=\"predators\" GridType=\"Uniform\">\n" +
         point_set(t, frame, "predators", t.predators, "     ") + "    </Grid>\n   </Grid>\n";
}

}  // namespace

std::string xdmf_path_for(const std::string& trajectory_path) {
  const std::size_t dot = trajectory_path.find_last_of('.');
  const std::size_t slash = trajectory_path.find_last_of('/');
  const bool has_extension =
      dot != std::string::npos && (slash == std::string::npos || dot > slash);
  return (has_extension ? trajectory_path.substr(0, dot) : trajectory_path) + ".xdmf";
}

std::string xdmf_document(const XdmfTrajectory& trajectory, const std::vector<double>& times) {
  std::string text = kHead;
  for (std::size_t k = 0; k < times.size(); ++k) text += frame_grid(trajectory, k, times[k]);
  return text + kTail;
}

XdmfFile::XdmfFile(std::string path, XdmfTrajectory trajectory)
    : path_(std::move(path)), trajectory_(std::move(trajectory)) {}

XdmfFile::~XdmfFile() {
  if (fd_ >= 0) close(fd_);
}

void XdmfFile::append(double time) {
  const auto fail = [&](const std::string& why) {
    throw RuntimeError("trajectory description " + quoted_path(path_) + ": " + why);
  };
  const std::string grid = frame_grid(trajectory_, frames_, time);
  if (frames_ == 0) {
    const std::string text = kHead + grid + kTail;
    write_file_atomically(path_, text);
    fd_ = open(path_.c_str(), O_WRONLY | O_CLOEXEC);
    if (fd_ < 0) fail(std::strerror(errno));
    tail_at_ = text.size() - std::strlen(kTail);
  } else {
    // One write puts the frame over the closing tags and the tags after it, into space claimed
    // first: a full disk refuses the claim, not half the write.
    const std::string text = grid + kTail;
    const int claimed =
        posix_fallocate(fd_, static_cast<off_t>(tail_at_), static_cast<off_t>(text.size()));
    if (claimed != 0) fail(std::strerror(claimed));
    const ssize_t n = pwrite(fd_, text.data(), text.size(), static_cast<off_t>(tail_at_));
    if (n != static_cast<ssize_t>(text.size()) || fsync(fd_) != 0) {
      fail(n < 0 || n == static_cast<ssize_t>(text.size()) ? std::strerror(errno)
                                                           : "a frame was cut short");
    }
    tail_at_ += grid.size();
  }
  ++frames_;
}

}  // namespace boids
