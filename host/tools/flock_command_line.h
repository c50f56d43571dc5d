// The flock's options on a command line (host/config/flock_options.h says what they mean),
// registered alike by `boids run`, `boids sweep`, `boids-viewer` and `boids-bench`.
#pragma once

#include "host/config/flock_options.h"
#include "host/tools/options.h"

namespace boids::tools {

// Registers every flock option: --count, --seed, --model, the weights, --radius, --max-speed,
// --speed, --dt, --world, --density, --boundary, --separation-radius, --fov, --noise,
// --wall-distance, --obstacles, --goal, --goal-weight, --wind, --update, --backend, --method,
// --precision, --init and --dimensions.
void add_flock_options(OptionParser& parser, FlockOptions& options);

}  // namespace boids::tools
