// A flock as a screen takes it (boids serve's frames): each coordinate in 65,536 bins of the
// world's side, the heading in bytes (its azimuth; its elevation in 3D) and the speed, each
// boid at its input index. Written once for the host's quantisation and every executor's, so
// that a frame made where the flock lives, a GPU's memory too, is the frame the host makes:
// 5 bytes a boid in 2D and 8 in 3D (9 and 12 with the speed) leave the device, not 16 to 48.
#pragma once

#include "kernels/rules.h"

namespace boids::kernels {

inline constexpr double kQuantisePi = 3.141592653589793;

// The bin of a position already scaled to [0, 65536): its floor within [0, 65535]; NaN in 0.
BOIDS_HD inline std::uint16_t position_bin(double scaled) {
  const double bin = floor(scaled);
  if (!(bin > 0)) return 0;
  return static_cast<std::uint16_t>(bin < 65535.0 ? bin : 65535.0);
}

// atan2 within 1e-5 radians (a byte of heading is 0.025): a third of the library's time, which
// is most of a snapshot's.
BOIDS_HD inline double coarse_atan2(double y, double x) {
  const double ax = fabs(x), ay = fabs(y);
  const double most = ax > ay ? ax : ay;
  if (most == 0) return 0;
  const double a = (ax < ay ? ax : ay) / most, s = a * a;
  double r = ((-0.0464964749 * s + 0.15931422) * s - 0.327622764) * s * a + a;
  if (ay > ax) r = kQuantisePi / 2 - r;
  if (x < 0) r = kQuantisePi - r;
  return y < 0 ? -r : r;
}

// The azimuth atan2(vy, vx) in 256ths of a turn; a boid at rest heads along x.
BOIDS_HD inline std::uint8_t azimuth_byte(double vx, double vy) {
  const double turns = coarse_atan2(vy, vx) / (2 * kQuantisePi);  // [-1/2, 1/2]
  const long long bin = llround(turns * 256.0);
  return static_cast<std::uint8_t>(((bin % 256) + 256) % 256);
}

// The elevation asin(vz / |v|) from -pi/2 (0) to pi/2 (255).
BOIDS_HD inline std::uint8_t elevation_byte(double vx, double vy, double vz) {
  const double speed = sqrt(vx * vx + vy * vy + vz * vz);
  double sine = speed > 0 ? vz / speed : 0.0;
  sine = sine < -1.0 ? -1.0 : (sine > 1.0 ? 1.0 : sine);
  const double elevation = speed > 0 ? asin(sine) : 0.0;
  return static_cast<std::uint8_t>(llround((elevation / kQuantisePi + 0.5) * 255.0));
}

// Where a flock's quantised arrays go (host/core/quantised_view.h names them for the library),
// each a value a boid in input order.
struct QuantisedArrays {
  // x, y[, z]: the bin of 65,536 across the world's side each coordinate lies in.
  std::uint16_t* position[3] = {nullptr, nullptr, nullptr};
  // The azimuth in 256ths of a turn[, the elevation from -pi/2 (0) to pi/2 (255)].
  std::uint8_t* heading[2] = {nullptr, nullptr};
  // Each boid's speed; null where not wanted.
  float* speed = nullptr;
};

// A boid at `p` flying at `v` (`dimensions` of each, the rest 0, in double precision) into
// `out` at index `at`; `scale` is 65,536 over the world's side on each axis. The one
// quantisation of the host's and of every executor's, so that they make the same bytes.
BOIDS_HD inline void quantise_boid(const double (&p)[3], const double (&v)[3], int dimensions,
                                   const double (&scale)[3], const QuantisedArrays& out,
                                   std::size_t at) {
  for (int a = 0; a < dimensions; ++a) out.position[a][at] = position_bin(p[a] * scale[a]);
  out.heading[0][at] = azimuth_byte(v[0], v[1]);
  if (dimensions == 3) out.heading[1][at] = elevation_byte(v[0], v[1], v[2]);
  if (out.speed) out.speed[at] = static_cast<float>(sqrt(v[0] * v[0] + v[1] * v[1] + v[2] * v[2]));
}

template <typename Real, int D>
struct ToQuantised {
  const Boid<Real, D>* boids;
  const index_t* ids;  // the input index of each slot's boid; null: the slot's own
  QuantisedArrays out;
  double scale[3];  // 65536 / the world's side on each axis

  BOIDS_HD void operator()(index_t i) const {
    const Boid<Real, D> b = boids[i];
    double p[3] = {0, 0, 0}, v[3] = {0, 0, 0};
    for (int a = 0; a < D; ++a) {
      p[a] = static_cast<double>(b.position[a]);
      v[a] = static_cast<double>(b.velocity[a]);
    }
    quantise_boid(p, v, D, scale, out, ids ? ids[i] : i);
  }
};

}  // namespace boids::kernels
