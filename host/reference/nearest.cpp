// Topological neighbours in the reference: every distance the boid sees, sorted whole, the
// first K kept (ties to the lower index). Quadratic and plain, as the rest of the reference.
#include <algorithm>
#include <utility>

#include "host/reference/detail/heeding.h"
#include "host/reference/detail/space.h"
#include "host/reference/detail/world.h"

namespace boids::reference {
namespace {

// The K nearest boids that `sees(j, d2)` says the boid sees (false for the boid itself), by
// (d^2, index), marked in a table of n.
template <typename Sees>
std::vector<char> nearest_seen(std::size_t n, int k, Sees&& sees) {
  std::vector<std::pair<double, std::size_t>> seen;
  for (std::size_t j = 0; j < n; ++j) {
    double d2;
    if (sees(j, d2)) seen.emplace_back(d2, j);
  }
  std::sort(seen.begin(), seen.end());
  std::vector<char> chosen(n, 0);
  const std::size_t kept = std::min(seen.size(), static_cast<std::size_t>(k));
  for (std::size_t m = 0; m < kept; ++m) chosen[seen[m].second] = 1;
  return chosen;
}

}  // namespace

template <int D>
Heeding Heeding::of(const FlockParams& p, double cos_half_view, const FlockState& s,
                    std::size_t i) {
  Heeding h;
  if (p.nearest > 0) {
    h.chosen_ = nearest_seen(s.size(), p.nearest, [&](std::size_t j, double& d2) {
      Vector<D> d;
      return look_at<D>(p, cos_half_view, s, i, j, d, d2);
    });
  }
  return h;
}

template Heeding Heeding::of<2>(const FlockParams&, double, const FlockState&, std::size_t);
template Heeding Heeding::of<3>(const FlockParams&, double, const FlockState&, std::size_t);

}  // namespace boids::reference
