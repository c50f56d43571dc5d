// How crowded a starting state is: the candidates the hashed step tests per boid (boids in the
// 3x3 (3x3x3) block of cells, minus the boid itself). The true neighbours come from the host
// metrics (mean_neighbor_count). Computed on the host from the state a row starts from.
#pragma once

#include "host/model/flock.h"
#include "kernels/cell_grid.h"

namespace boids::bench {

// Mean candidates per boid on `grid` (positions rounded to Real first, as the backends do).
template <typename Real, int D>
double candidates_per_boid(const FlockState& state, const kernels::CellGrid<Real, D>& grid);

// Mean neighbours per boid (others closer than r, across the torus), counted over the same
// grid's blocks of cells in double.
template <typename Real, int D>
double neighbors_per_boid(const FlockState& state, const kernels::CellGrid<Real, D>& grid,
                          const FlockParams& params);

}  // namespace boids::bench
