// Where a model of the registry (host/model/models.h) becomes the kernels' type of it: the one
// dispatch, expanding the kernels' list of models (kernels/models.h) in the registry's order.
#pragma once

#include "host/model/models.h"
#include "kernels/models.h"

namespace boids {

namespace detail {
template <int Index, typename Body, typename First, typename... Rest>
void with_model_at(int model, kernels::ModelList<First, Rest...>, Body&& body) {
  if (model == Index) {
    body(First{});
  } else if constexpr (sizeof...(Rest) > 0) {
    with_model_at<Index + 1>(model, kernels::ModelList<Rest...>{}, body);
  }
}
}  // namespace detail

// Calls body(M{}) with the kernels' type of `model` (M = kernels::Boids, ...).
template <typename Body>
void with_model(Model model, Body&& body) {
  detail::with_model_at<0>(static_cast<int>(model), kernels::AllModels{}, body);
}

}  // namespace boids
