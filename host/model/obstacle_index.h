// The obstacles in a uniform cell grid, for the host's tests of many points against many
// obstacles (the random start's draws, a given start's check), as the step narrows them to
// those near each block of boids: a point is tested only against the obstacles that reach its
// cell, and a cell that one obstacle covers whole answers at once. Its answers are exactly
// those of testing every obstacle in turn.
#pragma once

#include <cstdint>
#include <vector>

#include "host/model/flock.h"

namespace boids {

class ObstacleIndex {
 public:
  // The obstacles of `params`, each shrunk by `edge` (a point at the edge by less than that
  // is not held; one that edge swallows holds nothing).
  explicit ObstacleIndex(const FlockParams& params, double edge = 0);

  // Whether an obstacle holds `position` (its first D coordinates, in the world): closer to a
  // centre than the radius (less `edge`), on the torus the nearest image.
  bool holds(const double (&position)[3]) const;

  // Whether the obstacles cover every cell whole, so that no point of the world is free.
  bool covers_world() const;

 private:
  struct Disc {
    double centre[3];
    double radius;  // less `edge`
  };
  // The cells (per axis, 0 .. n - 1, wrapped on a torus) that disc `d` may reach, each given
  // to visit(cell, covered whole): the box around it with a slack of rounding.
  template <typename Visit>
  void for_each_cell(const Disc& d, Visit&& visit) const;
  // Total cells the discs' boxes reach with `cells` per axis (a measure of the index's size).
  std::uint64_t reach(const std::int64_t (&cells)[3]) const;
  bool disc_holds(const Disc& d, const double (&position)[3]) const;
  std::int64_t cell_of(const double (&position)[3]) const;

  int dimensions_;
  bool torus_;
  double side_[3];
  std::vector<Disc> discs_;
  std::int64_t cells_[3] = {1, 1, 1};
  double inverse_width_[3] = {0, 0, 0};
  std::vector<std::uint8_t> whole_;   // per cell: covered whole by one disc
  std::vector<std::uint32_t> start_;  // per cell: where its discs start in items_
  std::vector<std::uint32_t> items_;  // discs reaching each cell but not covering it
};

}  // namespace boids
