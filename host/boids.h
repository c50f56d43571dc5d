// The library's public API in one header: `#include "host/boids.h"` in the source tree and in
// an installed package (find_package(boids), target boids::boids) alike. Flocks and their
// parameters, the random start, simulations on every backend, the metrics, state files (CSV and
// .npy), checkpoints, H5MD trajectories, the validation against the reference, the two kinds
// of error every call may throw, and a tool's main that reports them.
#pragma once

#include "host/base/errors.h"
#include "host/core/backends.h"
#include "host/core/ensemble.h"
#include "host/core/flock_batch.h"
#include "host/core/simulation.h"
#include "host/io/checkpoint.h"
#include "host/io/npy_file.h"
#include "host/io/state_file.h"
#include "host/io/tool_main.h"
#include "host/io/trajectory_file.h"
#include "host/metrics/metrics.h"
#include "host/model/flock.h"
#include "host/model/initial_state.h"
#include "host/reference/reference.h"
#include "host/validation/validation.h"
