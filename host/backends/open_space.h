// What a flock in open space keeps beside its state on the hashed method: the table of tiles
// each step plans before its sort (OpenTableArrays, kernels/open_table.h), and the flag by
// which the step's move reports a boid beyond the reach the precision holds
// (check_open_reach), so that the check before each step reads one index, not the state.
#pragma once

#include <cstdint>

#include "host/backends/open_table_arrays.h"
#include "host/core/value_limits.h"
#include "kernels/hashed_step.h"
#include "kernels/world.h"

namespace boids {

template <typename Real, int D, typename Executor>
class OpenSpace {
 public:
  using index_t = kernels::index_t;
  static constexpr Precision kPrecision =
      sizeof(Real) == 4 ? Precision::kFloat : Precision::kDouble;

  // Gives a grid of open space its table, on the hashed method; any other grid needs none.
  void attach(Executor& exec, kernels::CellGrid<Real, D>& grid, bool hashed) {
    if (grid.open && hashed) table_.attach(exec, grid);
  }

  // The hashed step of open space, its move watching the reach. (The table is the grid's.)
  template <typename Model>
  void hashed_step(Executor& exec, kernels::CellIndex<Real, D>& index,
                   const kernels::CellGrid<Real, D>& grid, const kernels::StepParams<Real>& params,
                   double radius) {
    if (beyond_.size() == 0) {
      beyond_ = Buffer<index_t>(1);
      write_one(exec, 0);
    }
    kernels::hashed_step<Model>(exec, index, grid, params, beyond_.data(), reach(radius));
  }

  // Refuses a step once a boid of the flock as the last step left it lies beyond the reach
  // (check_open_reach on `state_of()`, which names the boid). Where that step was hashed and
  // `watched` it, its flag says so; else a pass over the boids looks, a read of the whole
  // state that would cost the hashed step about a twentieth of its time.
  template <typename StateOf>
  void check_reach(Executor& exec, const kernels::Boid<Real, D>* boids, index_t count,
                   double radius, bool watched, const StateOf& state_of) {
    if (watched) {
      index_t beyond = 0;
      exec.download(&beyond, beyond_.data(), 1);
      if (beyond == 0) return;
      write_one(exec, 0);  // for the next step, should the check below pass
    } else if (exec.sum(count, kernels::BeyondReach<Real, D>{boids, reach(radius)}) == 0) {
      return;
    }
    check_open_reach(state_of(), kPrecision, radius);
  }

  std::uint64_t bytes() const { return table_.bytes() + beyond_.bytes(); }

 private:
  template <typename T>
  using Buffer = typename Executor::template Buffer<T>;

  // How far from the origin open space holds a boid, in the flock's precision (open_reach).
  static Real reach(double radius) { return static_cast<Real>(open_reach(kPrecision, radius)); }

  void write_one(Executor& exec, index_t value) { exec.upload(beyond_.data(), &value, 1); }

  OpenTableArrays<Executor> table_;
  Buffer<index_t> beyond_;  // whether the last hashed step moved a boid beyond the reach
};

}  // namespace boids
