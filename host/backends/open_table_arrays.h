// The arrays of open space's table (kernels/open_cells.h: which tile holds which slot), in an
// executor's memory, which each step plans afresh (kernels/open_table.h): 248 bytes a slot,
// about an eighth of a byte a boid.
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
    return std::uint64_t{slots} * (sizeof(std::uint64_t) + 4 * sizeof(kernels::index_t)) +
           std::uint64_t{room_for(slots)} *
               (2 * sizeof(std::uint64_t) + 3 * sizeof(kernels::index_t)) +
           kernels::kTallies * sizeof(kernels::index_t);
  }

  // Gives `grid`, a grid of open space, its table's arrays, empty: every tile at home until
  // a step plans it.
  template <typename Grid>
  void attach(Executor& exec, Grid& grid) {
    const kernels::index_t slots = grid.open_slots();
    if (occupant_.size() != slots) {
      exec.synchronize();  // the old arrays may still be in use
      occupant_ = Buffer<std::uint64_t>(slots);
      present_ = Buffer<std::uint64_t>(room_for(slots));
      population_ = Buffer<kernels::index_t>(room_for(slots));
      keyed_ = Buffer<kernels::index_t>(room_for(slots));
      held_ = Buffer<kernels::index_t>(slots);
      homed_ = Buffer<kernels::index_t>(slots);
      seen_ = Buffer<kernels::index_t>(slots);
      stale_ = Buffer<kernels::index_t>(slots);
      moved_ = Buffer<std::uint64_t>(room_for(slots));
      moved_slot_ = Buffer<kernels::index_t>(room_for(slots));
      tally_ = Buffer<kernels::index_t>(kernels::kTallies);
    }
    grid.table.occupant = occupant_.data();
    grid.table.present = present_.data();
    grid.table.population = population_.data();
    grid.table.keyed = keyed_.data();
    grid.table.moved = moved_.data();
    grid.table.moved_slot = moved_slot_.data();
    grid.table.held = held_.data();
    grid.table.homed = homed_.data();
    grid.table.seen = seen_.data();
    grid.table.stale = stale_.data();
    grid.table.tally = tally_.data();
    grid.table.room = room_for(slots);
    exec.for_each(room_for(slots), kernels::ClearTable{grid.table, slots, /*whole=*/true});
  }

  std::uint64_t bytes() const {
    return occupant_.bytes() + present_.bytes() + population_.bytes() + keyed_.bytes() +
           held_.bytes() + homed_.bytes() + seen_.bytes() + stale_.bytes() + moved_.bytes() +
           moved_slot_.bytes() + tally_.bytes();
  }

 private:
  template <typename T>
  using Buffer = typename Executor::template Buffer<T>;

  // The set of tiles and the moved tiles' table: eight times the slots, room for the tiles of
  // a flock that fills a thirty-second of them (four cells a boid in 3D), as groups far
  // apart do (a tile is longer than a small group is wide). A set of twice the slots
  // overflowed, and every tile stayed at home: groups a period of the homes apart then
  // shared every cell (bench/results: open space's set).
  static kernels::index_t room_for(kernels::index_t slots) { return 8 * slots; }

  Buffer<std::uint64_t> occupant_, present_, moved_;
  Buffer<kernels::index_t> population_, keyed_, held_, homed_, seen_, stale_, moved_slot_, tally_;
};

}  // namespace boids
