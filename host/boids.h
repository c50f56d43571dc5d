// The library's public API in one header: `#include "host/boids.h"` in the source tree and in
// an installed package (find_package(boids), target boids::boids) alike. Flocks and their
// parameters, the random start, simulations on every backend, the metrics, state files (CSV and
// .npy), checkpoints, H5MD trajectories, the validation against the reference, and the two
// kinds of error every call may throw.
#pragma once

#include "host/checkpoint.h"
#include "host/ensemble.h"
#include "host/errors.h"
#include "host/flock.h"
#include "host/flock_batch.h"
#include "host/initial_state.h"
#include "host/metrics.h"
#include "host/npy_file.h"
#include "host/simulation.h"
#include "host/state_file.h"
#include "host/trajectory_file.h"
#include "host/validation.h"
