// The stages of a step, named for profilers: NVTX ranges on a GPU and boids-bench's time per
// stage (host/backends/stage_clock.h). A functor names the stage it serves with a static
// kStage; one that names none is "other". The names are the pipeline's, in its order.
#pragma once

#include <type_traits>

namespace boids::kernels {

namespace stage {
inline constexpr const char* kHash = "hash";  // each boid keyed by its cell
inline constexpr const char* kSort = "sort";  // the keys sorted (on CPU threads with the starts)
inline constexpr const char* kCellStarts = "cell starts";
inline constexpr const char* kReorder = "reorder";  // the boids gathered into cell order
inline constexpr const char* kStep = "step";        // neighbours gathered, rules, move
inline constexpr const char* kOther = "other";
}  // namespace stage

template <typename F, typename = void>
struct StageOf {
  static constexpr const char* kName = stage::kOther;
};
template <typename F>
struct StageOf<F, std::void_t<decltype(F::kStage)>> {
  static constexpr const char* kName = F::kStage;
};

// The stage `F` serves.
template <typename F>
constexpr const char* stage_of() {
  return StageOf<F>::kName;
}

}  // namespace boids::kernels
