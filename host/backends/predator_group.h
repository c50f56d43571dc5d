// The predators of a flight (--predators) in an executor's memory: their state before a step
// and after it, the step's pursuit (kernels/pursuit.h), and the metrics' count of boids within
// their reach. The boids' step reads them through the step's constants (bind).
#pragma once

#include <cstddef>
#include <utility>
#include <vector>

#include "host/backends/flock_layout.h"
#include "kernels/cell_index.h"
#include "kernels/pursuit.h"

namespace boids {

template <typename Real, int D, typename Executor>
class PredatorGroup {
 public:
  using Boid = kernels::Boid<Real, D>;
  using index_t = kernels::index_t;

  // Takes `predators` (in `world`) as the group's state and points `p` at it.
  void upload(Executor& exec, const Particles& predators, const World& world,
              kernels::StepParams<Real>& p) {
    const std::size_t n = predators.size();
    if (n != now_.size()) {
      exec.synchronize();  // the old arrays may still be in use
      now_ = Buffer<Boid>(n);
      next_ = Buffer<Boid>(n);
    }
    std::vector<Boid> packed(n);
    pack_boids<Real, D>(predators, 0, n, world, packed.data());
    exec.upload(now_.data(), packed.data(), n);
    bind(p);
  }

  // Points `p` at the predators' state (none, without predators).
  void bind(kernels::StepParams<Real>& p) const {
    p.predators = now_.size() > 0 ? now_.data() : nullptr;
    p.predator_count = static_cast<index_t>(now_.size());
  }

  std::size_t size() const { return now_.size(); }

  Particles download(const Executor& exec) const {
    std::vector<Boid> packed(now_.size());
    exec.download(packed.data(), now_.data(), packed.size());
    Particles out;
    out.dimensions = D;
    out.resize(packed.size());
    std::vector<double>* position[3] = {&out.x, &out.y, &out.z};
    std::vector<double>* velocity[3] = {&out.vx, &out.vy, &out.vz};
    for (std::size_t k = 0; k < packed.size(); ++k) {
      for (int a = 0; a < D; ++a) {
        (*position[a])[k] = packed[k].position[a];
        (*velocity[a])[k] = packed[k].velocity[a];
      }
    }
    return out;
  }

  // The predators' step on the naive method: `boids`, the `count` boids before the step, in
  // input order.
  template <typename Model>
  void pursue_naive(Executor& exec, const Boid* boids, index_t count,
                    const kernels::StepParams<Real>& p) {
    exec.for_each(static_cast<index_t>(size()),
                  kernels::PursueNaive<Model, Real, D>{boids, count, now_.data(), next_.data(), p});
  }

  // The same on the hashed method, from the cell index of the boids before the step (the one
  // the boids' step has just built and read).
  template <typename Model>
  void pursue_hashed(Executor& exec, const kernels::CellIndex<Real, D>& x,
                     const kernels::CellGrid<Real, D>& grid, const kernels::StepParams<Real>& p) {
    exec.for_each(static_cast<index_t>(size()),
                  kernels::PursueHashed<Model, Real, D>{x.sorted, x.ids, x.cell_start, grid,
                                                        x.count, now_.data(), next_.data(), p});
  }

  // The pursuit's result becomes the state, and `p` points at it.
  void advance(kernels::StepParams<Real>& p) {
    std::swap(now_, next_);
    bind(p);
  }

  // How many of the `count` boids lie within the flee radius of a predator (p bound).
  std::uint64_t within_reach(Executor& exec, const Boid* boids, index_t count,
                             const kernels::StepParams<Real>& p) {
    if (size() == 0 || count == 0) return 0;
    return static_cast<std::uint64_t>(exec.sum(count, kernels::WithinReach<Real, D>{boids, p}));
  }

  std::uint64_t bytes() const { return now_.bytes() + next_.bytes(); }

 private:
  template <typename T>
  using Buffer = typename Executor::template Buffer<T>;

  Buffer<Boid> now_, next_;
};

}  // namespace boids
