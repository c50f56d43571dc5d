// The arrays of open space's table (kernels/open_cells.h: which tile holds which slot), in an
// executor's memory, kept from step to step so that a tile keeps its slot: about 40 bytes a
// slot, under half a byte a boid.
#pragma once

#include <cstdint>

#include "kernels/cell_grid.h"
#include "kernels/open_table.h"

namespace boids {

template <typename Executor>
class OpenTableArrays {
 public:
  // The bytes a table for `slots` slots takes.
  static std::uint64_t bytes_for(kernels::index_t slots) {
    return std::uint64_t{slots} * (sizeof(std::uint64_t) + 2 * sizeof(kernels::index_t)) +
           std::uint64_t{room_for(slots)} * (sizeof(std::uint64_t) + sizeof(kernels::index_t));
  }

  // Gives `grid`, a grid of open space, an empty table: every tile at home.
  template <typename Grid>
  void attach(Executor& exec, Grid& grid) {
    const kernels::index_t slots = grid.open_slots();
    if (occupant_.size() != slots) {
      exec.synchronize();  // the old arrays may still be in use
      occupant_ = Buffer<std::uint64_t>(slots);
      extra_ = Buffer<kernels::index_t>(slots);
      moved_ = Buffer<std::uint64_t>(room_for(slots));
      moved_slot_ = Buffer<kernels::index_t>(room_for(slots));
      contested_ = Buffer<kernels::index_t>(slots);
    }
    grid.table = kernels::OpenTable{occupant_.data(), moved_.data(),     moved_slot_.data(),
                                    room_for(slots),  contested_.data(), extra_.data()};
    exec.for_each(slots, kernels::EmptySlots{grid.table});
    exec.for_each(room_for(slots), kernels::ClearMoved{grid.table});
  }

  std::uint64_t bytes() const {
    return occupant_.bytes() + extra_.bytes() + contested_.bytes() + moved_.bytes() +
           moved_slot_.bytes();
  }

 private:
  template <typename T>
  using Buffer = typename Executor::template Buffer<T>;

  // The moved tiles' table: twice the slots, so that a probe ends soon.
  static kernels::index_t room_for(kernels::index_t slots) { return 2 * slots; }

  Buffer<std::uint64_t> occupant_, moved_;
  Buffer<kernels::index_t> extra_, contested_, moved_slot_;
};

}  // namespace boids
