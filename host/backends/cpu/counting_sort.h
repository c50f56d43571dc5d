// The cpu backend's sort of cell keys: a stable counting sort by cell, O(count + cells) since
// the keys are dense, on a few OpenMP threads, its result the same on any number of them.
//
// Each thread owns a range of cells and a chunk of the keys. It counts the keys of its chunk
// that fall in its cells, and lists the others (their indices) for the threads that own them;
// then it counts the keys the other threads listed for it, turns its counts into its cells'
// ends in one pass (its total known beforehand from the others'), and places its boids from
// the last to the first in input order (the lists of the chunks before its own, its own chunk,
// the lists of the chunks after it), each at its cell's last free place: equal keys keep their
// input order, and each cell's entry ends at its start, with no pass to shift it. The hashed
// step leaves its boids in cell order, so their next keys are nearly sorted: when a sample of
// the keys says so, a thread's cells start at the key that starts its chunk, and few keys are
// ever listed. Otherwise (a first step, the naive method's metrics) the cells are split evenly,
// and each thread reads the other threads' lists whole, as if it read every key.
#pragma once

#include <omp.h>

#include <algorithm>
#include <cstdint>

#include "kernels/cell_grid.h"

namespace boids::cpu {

using kernels::index_t;

// Whether keys look nearly sorted: at most one descent in 16 among evenly spaced samples.
inline bool nearly_sorted(const index_t* keys, index_t count) {
  constexpr std::uint64_t kSamples = 256;
  if (count < 2) return true;
  std::uint64_t descents = 0;
  index_t previous = keys[0];
  for (std::uint64_t s = 1; s < kSamples; ++s) {
    const index_t key = keys[(count - 1) * s / (kSamples - 1)];
    descents += key < previous;
    previous = key;
  }
  return descents <= kSamples / 16;
}

// The arrays a sort on up to `parts` threads works in, besides its input and output.
struct SortWork {
  int parts;
  index_t* listed;        // each chunk's list of keys it does not own (see `room`)
  index_t* listed_count;  // parts entries
  index_t* bounds;        // parts + 1 entries: thread p owns cells [bounds[p], bounds[p + 1])
  index_t* totals;        // parts + 1 entries: the boids in each thread's cells, after totals[0]
  // 0: `listed` has count entries, each chunk's list at the chunk's start, room for all of it;
  // else `listed` has room entries a chunk, and a sort whose lists overflow them places nothing.
  index_t room = 0;
};

// The first input index of chunk `part`.
inline index_t chunk_start(index_t count, int part, int parts) {
  return static_cast<index_t>(std::uint64_t{count} * part / parts);
}

// Which cells each thread owns: from the key at the start of its chunk for nearly sorted keys,
// else evenly (the bounds never decrease).
inline void split_cells(const index_t* keys, index_t count, index_t cells, int parts,
                        index_t* bounds) {
  const bool by_keys = nearly_sorted(keys, count);
  bounds[0] = 0;
  for (int p = 1; p < parts; ++p) {
    const index_t bound = by_keys ? keys[chunk_start(count, p, parts)]
                                  : static_cast<index_t>(std::uint64_t{cells} * p / parts);
    bounds[p] = std::min(cells, std::max(bounds[p - 1], bound));
  }
  bounds[parts] = cells;
}

// Sorts `count` keys below `cells` stably: place(i, k) is called once for each input index i,
// with k its place in sorted order (equal keys in input order), and cell c's keys are at
// [cell_start[c], cell_start[c + 1]). Returns false, having placed nothing, where a chunk's list
// outgrew the room it was given (SortWork::room).
template <typename Place>
inline bool counting_sort(const index_t* keys, const Place& place, index_t* cell_start,
                          index_t count, index_t cells, const SortWork& w) {
  w.totals[0] = 0;
  bool overflowed = false;
#pragma omp parallel num_threads(w.parts)
  {
    // The threads OpenMP gives, which may be fewer than asked for.
    const int parts = omp_get_num_threads(), part = omp_get_thread_num();
#pragma omp single
    split_cells(keys, count, cells, parts, w.bounds);
    const index_t first = w.bounds[part], last = w.bounds[part + 1];
    const auto mine = [first, last](index_t key) { return key >= first && key < last; };
    const auto list_of = [&](int q) {
      return w.listed +
             (w.room > 0 ? static_cast<index_t>(q) * w.room : chunk_start(count, q, parts));
    };
    // Calls visit(i) for each index in chunk q's list whose key this thread owns, backwards.
    const auto for_each_listed = [&](int q, auto&& visit) {
      const index_t* list = list_of(q);
      for (index_t k = w.listed_count[q]; k-- > 0;) {
        if (mine(keys[list[k]])) visit(list[k]);
      }
    };

    std::fill(cell_start + first, cell_start + last, 0);
    const index_t begin = chunk_start(count, part, parts);
    const index_t end = chunk_start(count, part + 1, parts);
    const index_t room = w.room > 0 ? w.room : end - begin;
    index_t* list = list_of(part);
    index_t listed = 0;
    for (index_t i = begin; i < end; ++i) {
      const index_t key = keys[i];
      if (mine(key)) {
        ++cell_start[key];
      } else {
        if (listed < room) list[listed] = i;
        ++listed;
      }
    }
    w.listed_count[part] = listed;
#pragma omp barrier
    bool fits = true;  // the same for every thread
    for (int q = 0; q < parts; ++q) fits = fits && w.listed_count[q] <= room;
    if (fits) {
      index_t total = end - begin - listed;  // the keys of this thread's cells
      for (int q = 0; q < parts; ++q) {
        if (q != part) {
          for_each_listed(q, [&](index_t i) {
            ++cell_start[keys[i]];
            ++total;
          });
        }
      }
      w.totals[part + 1] = total;
#pragma omp barrier
      // Each cell's entry becomes its end, a cursor that placing moves back to its start.
      index_t cursor = 0;
      for (int p = 0; p <= part; ++p) cursor += w.totals[p];
      for (index_t c = first; c < last; ++c) {
        cursor += cell_start[c];
        cell_start[c] = cursor;
      }
      // Backwards through the input order (the lists of the chunks before this thread's, its
      // own chunk, the lists after it), each key at its cell's last free place, so that equal
      // keys keep their input order and each cursor ends where its cell starts.
      const auto place_before = [&](index_t i) { place(i, --cell_start[keys[i]]); };
      for (int q = parts - 1; q >= 0; --q) {
        if (q != part) {
          for_each_listed(q, place_before);
          continue;
        }
        for (index_t i = end; i-- > begin;) {
          if (mine(keys[i])) place_before(i);
        }
      }
    } else if (part == 0) {
      overflowed = true;
    }
  }
  if (overflowed) return false;
  cell_start[cells] = count;
  return true;
}

// The sorting permutation: order[k] = the input index of the k-th key in sorted order.
inline void counting_sort(const index_t* keys, index_t* order, index_t* cell_start, index_t count,
                          index_t cells, const SortWork& w) {
  counting_sort(
      keys, [order](index_t i, index_t k) { order[k] = i; }, cell_start, count, cells, w);
}

}  // namespace boids::cpu
