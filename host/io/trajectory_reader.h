// Reading back an H5MD trajectory that boids wrote (host/io/trajectory_file.h): its whole
// frames (as many as its `step` holds: a killed run's last, unfinished frame is not one), their
// steps and times, the box, and a frame's boids; for `boids convert`.
#pragma once

#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "host/model/flock.h"

namespace boids {

class TrajectoryReader {
 public:
  // Opens and checks the file: H5MD with a particle group `flock` holding position and velocity
  // of the same shape (frames, N, D), D 2 or 3, a step and time series, and the box. Throws
  // InputError naming the file and what is missing.
  explicit TrajectoryReader(const std::string& path);
  ~TrajectoryReader();
  TrajectoryReader(const TrajectoryReader&) = delete;
  TrajectoryReader& operator=(const TrajectoryReader&) = delete;

  std::uint64_t frames() const;     // whole frames
  std::uint64_t count() const;      // boids
  std::uint64_t predators() const;  // predators in /particles/predators; 0: none
  int dimensions() const;           // the flock's: 2 or 3
  int columns() const;              // the file's: 2 or 3 (3 for a flat flock in a box)
  const std::vector<std::int64_t>& steps() const;
  const std::vector<double>& times() const;
  World world() const;  // the box's sides (depth 1 for a flat flock written in 3D)

  // The flock's observables as the run recorded them (/observables/NAME/value: polarization,
  // order, flocks, largest_flock, ...), one value a whole frame; those the file lacks are absent.
  std::map<std::string, std::vector<double>> observables() const;
  // A number among the run's parameters (/parameters, an attribute: "radius", ...), if there.
  std::optional<double> parameter(const std::string& name) const;

  // Frame `frame`'s boids, in input order: the file's columns (z = 0 for a flat flock in 3D);
  // and its predators where the file has their group.
  FlockState frame(std::uint64_t frame) const;

 private:
  class File;
  std::unique_ptr<File> file_;
};

}  // namespace boids
