// The XDMF description of an H5MD trajectory (host/io/trajectory_file.h): `flight.xdmf` beside
// `flight.h5`, so that ParaView and VisIt open the frames as a time series of point sets, each
// boid a vertex with its velocity, and the metrics as each frame's field data. It holds no
// numbers of its own: every frame is a hyperslab of the H5MD datasets, named relative to the
// description (the two files move together).
//
//   <Grid GridType="Collection" CollectionType="Temporal">, a <Grid> a frame:
//     <Time Value="t"/>, <Topology TopologyType="Polyvertex">,
//     <Geometry GeometryType="XY" or "XYZ">         position/value[frame]
//     <Attribute Name="velocity" Center="Node">      velocity/value[frame]
//     <Attribute Name="polarization" Center="Grid">  and every other observable
// With predators (--predators), a frame is a spatial collection of two such point sets,
// "flock" (with the observables, within_reach among them) and "predators" (/particles/predators):
// ParaView opens it as a multiblock of the two.
//
// It is written as the trajectory grows and describes its whole frames alone: the first frame
// writes the file whole (under a temporary name, then renamed); each later one is written over
// the closing tags in one write, with them after it.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace boids {

struct XdmfTrajectory {
  std::string data_file;  // the H5MD file as the description names it: its name alone
  std::uint64_t count = 0;
  int dimensions = 2;           // the file's columns: 2 or 3
  std::uint64_t predators = 0;  // in /particles/predators; 0: none
};

// The description's name for a trajectory: its extension (.h5, .h5md) replaced by .xdmf.
std::string xdmf_path_for(const std::string& trajectory_path);

// The whole description of `times.size()` frames at those times.
std::string xdmf_document(const XdmfTrajectory& trajectory, const std::vector<double>& times);

class XdmfFile {
 public:
  XdmfFile(std::string path, XdmfTrajectory trajectory);
  ~XdmfFile();
  XdmfFile(const XdmfFile&) = delete;
  XdmfFile& operator=(const XdmfFile&) = delete;

  // Describes one more frame, at `time`, and waits for the disk. Throws RuntimeError naming
  // the file when it cannot.
  void append(double time);

 private:
  std::string path_;
  XdmfTrajectory trajectory_;
  std::uint64_t frames_ = 0;
  std::uint64_t tail_at_ = 0;  // where the closing tags start
  int fd_ = -1;
};

}  // namespace boids
