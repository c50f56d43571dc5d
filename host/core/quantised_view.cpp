#include "host/core/quantised_view.h"

#include <algorithm>
#include <cmath>
#include <cstdint>

namespace boids {

Region world_region(const World& world, int dimensions) {
  Region r;
  r.side[0] = world.width;
  r.side[1] = world.height;
  r.side[2] = dimensions == 3 ? world.depth : 1.0;
  return r;
}

Region flock_region(const Particles& boids, const Particles& predators, double least) {
  const int dimensions = boids.size() > 0 ? boids.dimensions : predators.dimensions;
  double low[3] = {INFINITY, INFINITY, INFINITY}, high[3] = {-INFINITY, -INFINITY, -INFINITY};
  for (const Particles* group : {&boids, &predators}) {
    const std::vector<double>* axes[3] = {&group->x, &group->y, &group->z};
    for (int a = 0; a < dimensions; ++a) {
      for (const double v : *axes[a]) {
        if (!std::isfinite(v)) continue;
        low[a] = std::min(low[a], v);
        high[a] = std::max(high[a], v);
      }
    }
  }
  Region r;
  for (int a = 0; a < 3; ++a) {
    const bool some = a < dimensions && low[a] <= high[a];
    const double middle = some ? low[a] / 2 + high[a] / 2 : 0.0;
    // A hair wider than the bounds, so that the farthest boid lies inside its last bin.
    const double side = std::max(some ? (high[a] - low[a]) * (1 + 1e-6) : 0.0, least);
    r.origin[a] = a < dimensions ? middle - side / 2 : 0.0;
    r.side[a] = a < dimensions ? side : 1.0;
  }
  return r;
}

void quantise_particles(const Particles& p, const Region& region, const QuantisedView& out) {
  const bool box = p.dimensions == 3;
  const double scale[3] = {65536.0 / region.side[0], 65536.0 / region.side[1],
                           box ? 65536.0 / region.side[2] : 0.0};
  const double* origin = region.origin;
  const auto count = static_cast<std::int64_t>(p.size());
#pragma omp parallel for schedule(static) if (count > 4096)
  for (std::int64_t k = 0; k < count; ++k) {
    const auto i = static_cast<std::size_t>(k);
    // A bounded world's origin is 0, and x - 0 is x: its bins are the world's, bit for bit.
    const double position[3] = {p.x[i] - origin[0], p.y[i] - origin[1],
                                box ? p.z[i] - origin[2] : 0.0};
    const double velocity[3] = {p.vx[i], p.vy[i], box ? p.vz[i] : 0.0};
    kernels::quantise_boid(position, velocity, p.dimensions, scale, out, i);
  }
}

}  // namespace boids
