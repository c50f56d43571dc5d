// The models the kernels fly, each a type of kernels/rules.h's framework in a file of its own,
// listed once in the order of the host's model registry (host/model/models.h): the boids
// model's rules (Boids), Reynolds' steering form of them (Steering), Vicsek's alignment with
// noise (Vicsek) and Couzin's zones (Couzin). The host's dispatch (with_model,
// host/backends/model_types.h) expands the list; each type names itself (kName), which a test
// holds to the registry.
#pragma once

#include "kernels/models/boids.h"
#include "kernels/models/couzin.h"
#include "kernels/models/steering.h"
#include "kernels/models/vicsek.h"

namespace boids::kernels {

template <typename... Models>
struct ModelList {
  static constexpr int kCount = sizeof...(Models);
};

using AllModels = ModelList<Boids, Steering, Vicsek, Couzin>;

}  // namespace boids::kernels
