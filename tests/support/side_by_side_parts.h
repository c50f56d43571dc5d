// Parts of a flock side by side in one process, their boids handed over by brute force as
// MPI ranks hand theirs over (host/mpi/rank_flock.cpp), against every slab: each part's split
// must give every boid that left it and every one near its edges, or a neighbour goes missing
// and the flight differs. The parts' flocks are made by `make_simulation`, or by a maker of
// the tests' own (a flock on the GPU's path, tests/support/gpu_path_executor.h).
#pragma once

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <functional>
#include <limits>
#include <memory>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "host/core/simulation.h"
#include "host/model/initial_state.h"
#include "host/parts/joined_metrics.h"
#include "host/parts/part_access.h"
#include "tests/support/test_support.h"

namespace boids::test_support {

struct Slab {
  double low, high;
};

// `flock`'s boids as a part's records, each with its index.
inline std::vector<IndexedBoid> indexed_boids(const FlockState& flock) {
  std::vector<IndexedBoid> out;
  const bool box = flock.dimensions == 3;
  for (std::size_t i = 0; i < flock.size(); ++i) {
    out.push_back({i, flock.x[i], flock.y[i], box ? flock.z[i] : 0.0, flock.vx[i], flock.vy[i],
                   box ? flock.vz[i] : 0.0});
  }
  return out;
}

// The distance along an axis of side `side` from s to [low, high), the shorter way round on
// a torus.
inline double distance_to(double s, const Slab& slab, double side, bool torus) {
  double best = side;
  for (const double shift : {-side, 0.0, side}) {
    if (!torus && shift != 0) continue;
    const double t = s + shift;
    best = std::min(best, std::max({slab.low - t, t - slab.high, 0.0}));
  }
  return best;
}

// Parts side by side in one process, their boids handed over by brute force as ranks hand
// theirs over (host/mpi/rank_flock.cpp).
class SideBySide {
 public:
  using Maker =
      std::function<std::unique_ptr<Simulation>(const SimulationConfig&, const FlockState&)>;

  SideBySide(SimulationConfig config, const FlockState& start, std::vector<Slab> slabs,
             const Maker& make = make_simulation)
      : params_(config.params),
        precision_(config.precision),
        slabs_(std::move(slabs)),
        ghosts_(slabs_.size()),
        count_(start.size()) {
    config.whole_count = start.size();
    FlockState one;
    one.dimensions = params_.dimensions;
    one.resize(1);
    for (std::size_t k = 0; k < slabs_.size(); ++k) {
      parts_.push_back(make(config, one));
      part_access(*parts_.back()).start_part({}, 0);  // empty: the boids arrive below
    }
    edge_ = indexed_boids(start);
    from_.assign(edge_.size(), -1);  // the start
  }

  // Each part's split, and its extend by the boids that arrived and the ghosts near it (the
  // first finds the parts empty, and cuts their grids).
  void exchange() {
    if (started_) {
      edge_.clear();
      from_.clear();
    }
    started_ = true;
    for (std::size_t k = 0; k < slabs_.size(); ++k) {
      part_access(*parts_[k]).split_part(bounds(k), edge_);
      from_.resize(edge_.size(), static_cast<int>(k));
    }
    const auto by_id = [](const IndexedBoid& a, const IndexedBoid& b) { return a.id < b.id; };
    for (std::size_t k = 0; k < slabs_.size(); ++k) {
      std::vector<IndexedBoid> arrived;
      ghosts_[k].clear();
      for (std::size_t e = 0; e < edge_.size(); ++e) {
        const int o = owner(edge_[e]);
        if (o == static_cast<int>(k)) {
          if (from_[e] != o) arrived.push_back(edge_[e]);
        } else if (distance_to(along(edge_[e]), slabs_[k], side(), params_.world.torus()) <=
                   reach()) {
          ghosts_[k].push_back(edge_[e]);
        }
      }
      std::sort(arrived.begin(), arrived.end(), by_id);
      std::sort(ghosts_[k].begin(), ghosts_[k].end(), by_id);
      part_access(*parts_[k]).extend_part(arrived, ghosts_[k]);
    }
  }

  void step() {
    exchange();
    for (const auto& part : parts_) part->step(1);
  }

  std::uint64_t steps_taken() const { return parts_[0]->steps_taken(); }

  // The parts' own boids, each once, in input order.
  FlockState gather() const {
    FlockState out;
    out.dimensions = params_.dimensions;
    out.resize(count_);
    std::vector<int> seen(count_, 0);
    std::vector<IndexedBoid> own;
    for (const auto& part : parts_) {
      part_access(*part).own_boids(own);
      // Read a few places at a time (its boids and ghosts), the same boids in the same order.
      std::vector<IndexedBoid> pieces, piece;
      for (std::uint64_t first = 0; first < part_access(*part).held(); first += 7) {
        part_access(*part).own_boids(piece, first, 7);
        pieces.insert(pieces.end(), piece.begin(), piece.end());
      }
      EXPECT_TRUE(std::equal(own.begin(), own.end(), pieces.begin(), pieces.end(),
                             [](const IndexedBoid& a, const IndexedBoid& b) {
                               return a.id == b.id && a.x == b.x && a.vy == b.vy;
                             }))
          << "a part read in pieces";
      for (const IndexedBoid& b : own) {
        ++seen[b.id];
        out.x[b.id] = b.x;
        out.y[b.id] = b.y;
        out.vx[b.id] = b.vx;
        out.vy[b.id] = b.vy;
        if (params_.dimensions == 3) {
          out.z[b.id] = b.z;
          out.vz[b.id] = b.vz;
        }
      }
    }
    EXPECT_EQ(std::count(seen.begin(), seen.end(), 1), static_cast<long>(count_))
        << "every boid in one part, once";
    return out;
  }

  // The whole flock's metrics from the parts' shares, put together as the ranks do: fresh
  // ghosts, the sums added, the far boids' nearest looked for in every part, each ghost's
  // piece joined with its owner's.
  FlockMetrics metrics() {
    exchange();
    std::vector<PartMetrics> m;
    std::vector<double> sums(part_metrics::sums_of(PartMetrics{}).size(), 0.0);
    std::vector<part_metrics::NearestOwn> own;
    for (std::size_t k = 0; k < parts_.size(); ++k) {
      m.push_back(part_access(*parts_[k]).measure_part(bounds(k)));
      const std::vector<double> part = part_metrics::sums_of(m.back());
      for (std::size_t i = 0; i < sums.size(); ++i) sums[i] += part[i];
      std::vector<IndexedBoid> boids;
      part_access(*parts_[k]).own_boids(boids);
      own.emplace_back(boids, params_, precision_);
    }
    double centre[3], turning[3] = {0, 0, 0};
    part_metrics::centre_of(sums, params_, centre);
    for (std::size_t k = 0; k < parts_.size(); ++k) {
      double part[3];
      part_access(*parts_[k]).part_turning(centre, part);
      for (int c = 0; c < 3; ++c) turning[c] += part[c];
    }
    double far = 0;
    std::vector<PartMetrics::Piece> pieces;
    std::vector<part_metrics::Join> joins;
    std::uint64_t inner = 0, largest_inner = 0;
    for (std::size_t k = 0; k < parts_.size(); ++k) {
      for (std::size_t i = 0; i < m[k].far.size(); ++i) {
        double d = m[k].far_nearest[i] >= 0 ? m[k].far_nearest[i] : HUGE_VAL;
        for (const part_metrics::NearestOwn& o : own) d = o.distance(m[k].far[i], d);
        far += d < HUGE_VAL ? d : 0.0;
      }
      pieces.insert(pieces.end(), m[k].pieces.begin(), m[k].pieces.end());
      inner += m[k].inner_flocks;
      largest_inner = std::max(largest_inner, m[k].largest_inner);
      for (const PartMetrics::Member& g : m[k].ghosts) {
        const auto it = std::find_if(ghosts_[k].begin(), ghosts_[k].end(),
                                     [&](const IndexedBoid& b) { return b.id == g.id; });
        EXPECT_NE(it, ghosts_[k].end()) << "ghost " << g.id;
        if (it == ghosts_[k].end()) continue;
        EXPECT_NE(owner(*it), static_cast<int>(k)) << "ghost " << g.id << " of its own part";
        part_metrics::joins_of({g}, m, joins);
      }
    }
    const FlockCount flocks = part_metrics::join_flocks(pieces, joins, inner, largest_inner);
    return part_metrics::whole_metrics(sums, turning, far, flocks, params_, precision_);
  }

 private:
  double along(const IndexedBoid& b) const { return params_.dimensions == 3 ? b.z : b.y; }
  double side() const {
    return params_.dimensions == 3 ? params_.world.depth : params_.world.height;
  }
  // As tight as a rank's: a hundredth of the radius more, and a few units in the last place
  // of the world's widest side in float.
  double reach() const {
    const World& w = params_.world;
    const double widest = std::max({w.width, w.height, params_.dimensions == 3 ? w.depth : 0.0});
    return 1.01 * params_.radius + 8 * std::numeric_limits<float>::epsilon() * widest;
  }
  PartBounds bounds(std::size_t k) const {
    return {params_.dimensions - 1, slabs_[k].low, slabs_[k].high, reach()};
  }
  int owner(const IndexedBoid& b) const {
    for (std::size_t k = 0; k < slabs_.size(); ++k) {
      if (along(b) >= slabs_[k].low && along(b) < slabs_[k].high) return static_cast<int>(k);
    }
    ADD_FAILURE() << "no slab holds " << along(b);
    return 0;
  }

  FlockParams params_;
  Precision precision_;
  std::vector<Slab> slabs_;
  std::vector<std::unique_ptr<Simulation>> parts_;
  std::vector<IndexedBoid> edge_;  // the boids at the parts' edges, and the part each came from
  std::vector<int> from_;
  std::vector<std::vector<IndexedBoid>> ghosts_;  // each part's, from the last exchange
  std::size_t count_;                             // the whole flock's boids
  bool started_ = false;
};

// A part opened at the length of `start` and filled `piece` boids at a time, the last piece
// first (a rank's start, filled as its boids arrive: host/mpi/rank_start.cpp), against the part
// started with them whole: the same boids in the same places, then the same flight bit for bit.
// A fill past the part's end is refused.
inline void expect_filled_as_started(SimulationConfig config, const FlockState& start,
                                     std::size_t piece,
                                     const SideBySide::Maker& make = make_simulation) {
  config.whole_count = start.size();
  FlockState one;
  one.dimensions = start.dimensions;
  one.resize(1);
  const std::vector<IndexedBoid> own = indexed_boids(start);
  const auto whole = make(config, one), filled = make(config, one);
  part_access(*whole).start_part(own, 3);
  PartAccess& pieces = part_access(*filled);
  pieces.open_part(own.size(), 3);
  for (std::size_t end = own.size(); end > 0;) {
    const std::size_t at = end > piece ? end - piece : 0;
    pieces.fill_part(at, {own.data() + at, end - at});
    end = at;
  }
  EXPECT_THROW(pieces.fill_part(own.size() - 1, {own.data(), 2}), std::logic_error);
  for (int round = 0; round < 2; ++round) {
    std::vector<IndexedBoid> a, b;
    part_access(*whole).own_boids(a);
    pieces.own_boids(b);
    ASSERT_EQ(a.size(), b.size());
    for (std::size_t i = 0; i < a.size(); ++i) {
      ASSERT_EQ(a[i].id, b[i].id) << "place " << i;
      const double ad[6] = {a[i].x, a[i].y, a[i].z, a[i].vx, a[i].vy, a[i].vz};
      const double bd[6] = {b[i].x, b[i].y, b[i].z, b[i].vx, b[i].vy, b[i].vz};
      ASSERT_EQ(std::memcmp(ad, bd, sizeof ad), 0) << "boid " << a[i].id << ", round " << round;
    }
    EXPECT_EQ(whole->steps_taken(), filled->steps_taken());
    whole->step(4);
    filled->step(4);
  }
}

// A flock and the slabs of its last axis that the part suites fly it in.
struct PartFlight {
  FlockParams params;
  FlockState start;
  std::vector<Slab> slabs;
};

// The part suites' flights by name; without their noise where `noisy` is false (its turn's
// sine and cosine may differ in the last bit between executors in double):
//   windy         a torus, wind across the slabs
//   walls         no slab reaches across the world's edge
//   gathered      a flock in one place leaves most parts empty: they step no boids, and grow
//                 when boids arrive
//   box           a box cut along z
//   windows       a world wide enough that each part's grid is a window of the whole grid's
//                 rows, and ghosts cross the torus's edge into the first and last slabs
//   box windows   the same in a box
inline PartFlight part_flight(const std::string& name, bool noisy = true) {
  const double noise = noisy ? 1.0 : 0.0;
  FlockParams p;
  if (name == "windy") {
    p.noise = 0.3 * noise;
    p.wind.y = 0.6;
    return {p, random_state(500, 100, 0, 0, 4), {{0, 23}, {23, 61}, {61, 100}}};
  }
  if (name == "walls") {
    p.world.boundary = Boundary::kWalls;
    return {p, random_state(400, 100, 3, 8, 5), {{0, 50}, {50, 100}}};
  }
  if (name == "gathered") {
    p.wind.y = 1.0;
    return {p, random_state(300, 100, 1, 3, 6), {{0, 20}, {20, 40}, {40, 60}, {60, 80}, {80, 100}}};
  }
  if (name == "box") {
    p = box(60);
    p.noise = 0.2 * noise;
    return {p, make_initial_state(600, 7, p), {{0, 25}, {25, 60}}};
  }
  if (name == "windows") {
    p.world = square(300);
    p.noise = 0.2 * noise;
    p.wind.y = 0.8;
    return {p, random_state(2500, 300, 0, 0, 8), {{0, 70}, {70, 160}, {160, 230}, {230, 300}}};
  }
  if (name == "box windows") {
    p = box(120);
    return {p, make_initial_state(1500, 9, p), {{0, 40}, {40, 80}, {80, 120}}};
  }
  throw std::invalid_argument("no part flight " + name);
}

inline const std::vector<std::string>& part_flight_names() {
  static const std::vector<std::string> names = {"windy", "walls",   "gathered",
                                                 "box",   "windows", "box windows"};
  return names;
}

}  // namespace boids::test_support
