#include "host/parts/joined_metrics.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <stdexcept>
#include <string>
#include <unordered_map>
#include <utility>

#include "host/parts/part_access.h"
#include "kernels/milling.h"
#include "kernels/world.h"

namespace boids::part_metrics {
namespace {

double along(const IndexedBoid& b, int dimensions) {
  return dimensions == 3 ? b.z : b.y;
}

// The distance between two boids as the kernels measure it in `Real` (their offsets wrapped
// by kernels::wrap_delta, the squares added in axis order), so that a far boid's nearest is
// the one its flock's precision finds.
template <typename Real>
double distance_in(const IndexedBoid& a, const IndexedBoid& b, const World& w, int dims) {
  const double from[3] = {a.x, a.y, a.z}, to[3] = {b.x, b.y, b.z};
  const double side[3] = {w.width, w.height, w.depth};
  Real sq = 0;
  for (int k = 0; k < dims; ++k) {
    Real d = static_cast<Real>(to[k]) - static_cast<Real>(from[k]);
    if (w.torus()) {
      d = kernels::wrap_delta(d, static_cast<Real>(side[k]), static_cast<Real>(side[k] / 2));
    }
    sq += d * d;
  }
  return std::sqrt(static_cast<double>(sq));
}

std::uint64_t find(std::vector<std::uint64_t>& parent, std::uint64_t i) {
  while (parent[i] != i) {
    parent[i] = parent[parent[i]];
    i = parent[i];
  }
  return i;
}

}  // namespace

std::vector<double> sums_of(const PartMetrics& m) {
  return {static_cast<double>(m.own),
          m.headings[0],
          m.headings[1],
          m.headings[2],
          m.velocities[0],
          m.velocities[1],
          m.velocities[2],
          m.neighbors,
          m.nearest,
          m.centre[0],
          m.centre[1],
          m.centre[2],
          m.centre[3],
          m.centre[4],
          m.centre[5]};
}

void centre_of(const std::vector<double>& sums, const FlockParams& params, double (&centre)[3]) {
  const double n = sums.at(0);
  const double side[3] = {params.world.width, params.world.height, params.world.depth};
  const double* at = &sums.at(9);
  for (int a = 0; a < 3; ++a) {
    const bool placed = a < params.dimensions && n > 0;
    centre[a] =
        placed ? kernels::centre_along(at[2 * a], at[2 * a + 1], n, params.world.torus(), side[a])
               : 0.0;
  }
}

NearestOwn::NearestOwn(std::vector<IndexedBoid> own, const FlockParams& params, Precision precision)
    : own_(std::move(own)), params_(params), precision_(precision) {
  const int d = params_.dimensions;
  std::sort(own_.begin(), own_.end(),
            [d](const IndexedBoid& a, const IndexedBoid& b) { return along(a, d) < along(b, d); });
}

// Scans the boids along the last axis within `bound` of the query's (each image of it across
// the torus's edge), or all of them where there is no bound.
double NearestOwn::distance(const IndexedBoid& query, double bound) const {
  const int dims = params_.dimensions;
  const World& w = params_.world;
  const bool torus = w.torus();
  const double side = dims == 3 ? w.depth : w.height;
  double best = bound;
  const auto consider = [&](const IndexedBoid& b) {
    if (b.id == query.id) return;
    best = std::min(best, precision_ == Precision::kFloat ? distance_in<float>(query, b, w, dims)
                                                          : distance_in<double>(query, b, w, dims));
  };
  if (!(bound < side / 2)) {
    for (const IndexedBoid& b : own_) consider(b);
    return best;
  }
  const double s = along(query, dims);
  for (const double shift : {0.0, -side, side}) {
    if (!torus && shift != 0) continue;
    const double low = s + shift - bound, high = s + shift + bound;
    auto it =
        std::lower_bound(own_.begin(), own_.end(), low,
                         [dims](const IndexedBoid& b, double v) { return along(b, dims) < v; });
    for (; it != own_.end() && along(*it, dims) <= high; ++it) consider(*it);
  }
  return best;
}

void joins_of(const std::vector<PartMetrics::Member>& ghosts,
              const std::vector<PartMetrics>& owners, std::vector<Join>& out) {
  const auto by_id = [](const PartMetrics::Member& m, std::uint64_t id) { return m.id < id; };
  for (const PartMetrics::Member& g : ghosts) {
    const PartMetrics::Member* owned = nullptr;
    for (const PartMetrics& part : owners) {
      const auto it = std::lower_bound(part.edge.begin(), part.edge.end(), g.id, by_id);
      if (it != part.edge.end() && it->id == g.id) owned = &*it;
    }
    if (owned == nullptr) {
      throw std::logic_error("boid " + std::to_string(g.id) +
                             ", a ghost of one part, is not at the edge of the part that owns it");
    }
    if (owned->label != g.label) out.push_back({owned->label, g.label});
  }
}

// Union-find over the labels (each a node), the pieces' own boids added at their roots.
FlockCount join_flocks(const std::vector<PartMetrics::Piece>& pieces,
                       const std::vector<Join>& joins, std::uint64_t inner_flocks,
                       std::uint64_t largest_inner) {
  std::unordered_map<std::uint64_t, std::uint64_t> node;
  std::vector<std::uint64_t> parent, own;
  const auto node_of = [&](std::uint64_t label) {
    const auto [it, added] = node.emplace(label, parent.size());
    if (added) {
      parent.push_back(parent.size());
      own.push_back(0);
    }
    return it->second;
  };
  for (const PartMetrics::Piece& p : pieces) own[node_of(p.label)] += p.own;
  for (const Join& j : joins) {
    const std::uint64_t a = find(parent, node_of(j.a)), b = find(parent, node_of(j.b));
    if (a != b) parent[std::max(a, b)] = std::min(a, b);
  }
  std::vector<std::uint64_t> members(parent.size(), 0);
  for (std::uint64_t i = 0; i < parent.size(); ++i) members[find(parent, i)] += own[i];
  FlockCount out{inner_flocks, largest_inner};
  for (std::uint64_t i = 0; i < parent.size(); ++i) {
    if (parent[i] != i || members[i] == 0) continue;
    ++out.flocks;
    out.largest = std::max(out.largest, members[i]);
  }
  return out;
}

FlockMetrics whole_metrics(const std::vector<double>& sums, const double (&turning)[3],
                           double far_nearest, const FlockCount& flocks, const FlockParams& params,
                           Precision precision) {
  FlockMetrics m;
  const double n = sums.at(0);
  if (!(n > 0)) return m;
  const double* headings = &sums[1];
  const double* velocities = &sums[4];
  double heading_sq = 0, velocity_sq = 0;
  for (int a = 0; a < params.dimensions; ++a) {
    heading_sq += (headings[a] / n) * (headings[a] / n);
    velocity_sq += velocities[a] * velocities[a];
  }
  m.polarization = std::sqrt(heading_sq);
  double turning_sq = 0;
  for (const double t : turning) turning_sq += (t / n) * (t / n);
  m.milling = std::sqrt(turning_sq);
  // v_max as the kernels hold it, in the flock's precision.
  const double max_speed = precision == Precision::kFloat
                               ? static_cast<double>(static_cast<float>(params.max_speed))
                               : params.max_speed;
  m.order = std::sqrt(velocity_sq) / (n * max_speed);
  m.flocks = flocks.flocks;
  m.largest_flock = flocks.largest;
  m.mean_neighbors = sums[7] / n;
  m.mean_nn_distance = n > 1 ? (sums[8] + far_nearest) / n : 0.0;
  return m;
}

}  // namespace boids::part_metrics
