// The models the kernels fly, each a type of kernels/rules.h's framework in a file of its own:
// the boids model's rules (Boids), Reynolds' steering form of them (Steering), and Vicsek's
// alignment with noise (Vicsek).
#pragma once

#include "kernels/models/boids.h"
#include "kernels/models/steering.h"
#include "kernels/models/vicsek.h"
