// What the world's terms' parameters (their `Params`, kernels/terms/) hold beside numbers, in
// double as a flock's parameters give them: a point or a vector, and a disc. The host names
// them Vec3 and Obstacle (host/model/flock.h).
#pragma once

namespace boids::kernels {

struct Vec3 {
  double x = 0, y = 0, z = 0;  ///< z in three dimensions only
};

/// A disc (a sphere, in three dimensions) no boid may enter.
struct Disc {
  double x = 0, y = 0, radius = 0;
  double z = 0;  ///< in three dimensions, where it is a sphere
};

}  // namespace boids::kernels
