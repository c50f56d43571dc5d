#include "host/core/quantised_view.h"

#include <cmath>

#include "kernels/quantise.h"

namespace boids {

void quantise_particles(const Particles& p, const World& world, const QuantisedView& out) {
  const bool box = p.dimensions == 3;
  const double scale[3] = {65536.0 / world.width, 65536.0 / world.height,
                           box ? 65536.0 / world.depth : 0.0};
  const auto count = static_cast<std::int64_t>(p.size());
#pragma omp parallel for schedule(static) if (count > 4096)
  for (std::int64_t k = 0; k < count; ++k) {
    const auto i = static_cast<std::size_t>(k);
    const double vz = box ? p.vz[i] : 0.0;
    out.position[0][i] = kernels::position_bin(p.x[i] * scale[0]);
    out.position[1][i] = kernels::position_bin(p.y[i] * scale[1]);
    out.heading[0][i] = kernels::azimuth_byte(p.vx[i], p.vy[i]);
    if (box) {
      out.position[2][i] = kernels::position_bin(p.z[i] * scale[2]);
      out.heading[1][i] = kernels::elevation_byte(p.vx[i], p.vy[i], vz);
    }
    if (out.speed)
      out.speed[i] = static_cast<float>(std::sqrt(p.vx[i] * p.vx[i] + p.vy[i] * p.vy[i] + vz * vz));
  }
}

}  // namespace boids
