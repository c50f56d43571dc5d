#include "host/core/quantised_view.h"

#include <cstdint>

namespace boids {

void quantise_particles(const Particles& p, const World& world, const QuantisedView& out) {
  const bool box = p.dimensions == 3;
  const double scale[3] = {65536.0 / world.width, 65536.0 / world.height,
                           box ? 65536.0 / world.depth : 0.0};
  const auto count = static_cast<std::int64_t>(p.size());
#pragma omp parallel for schedule(static) if (count > 4096)
  for (std::int64_t k = 0; k < count; ++k) {
    const auto i = static_cast<std::size_t>(k);
    const double position[3] = {p.x[i], p.y[i], box ? p.z[i] : 0.0};
    const double velocity[3] = {p.vx[i], p.vy[i], box ? p.vz[i] : 0.0};
    kernels::quantise_boid(position, velocity, p.dimensions, scale, out, i);
  }
}

}  // namespace boids
